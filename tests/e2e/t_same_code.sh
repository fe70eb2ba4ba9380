# SPDX-License-Identifier: GPL-2.0-or-later
# measure.same_code: share: builds whose code is the same are measured
# once and share their samples:
# 4 configurations (-O2 and -O0, each with and without a -D the program
# never reads) make 2 programs; with repeats: 2 the measure command runs
# 4 times, not 8, and the twins show the lead's pooled samples with
# "same code as" in the table, results.csv and pareto.json; the front
# shows each program as one row, "same code: also" the others. A rerun
# measures nothing; neither does one over a journal whose build records
# lack the code id (an older tuner's): it is worked out from the artifacts.
# Without the key it is the same (share is the default); with
# same_code: separate all 8 measurements are made.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
cat >"$repo/study.yaml" <<EOF2
study: same-code
source: {repo: ., rev: HEAD, path: prog}
space:
  opt: [-O2, -O0]
  unused: ["", -DTUNER_NEVER_READ=1]
build:
  command: make -s -f "\$TUNER_SRC/Makefile"
  artifact: prog
  timeout: 300
size: {of: artifact, measure: text}
measure:
  command: 'echo "\$TUNER_CONFIG_ID" >>"$TMPDIR/measured"; "\$TUNER_SRC/measure.sh"'
  parser: number
  repeats: 2
  timeout: 120
  same_code: share
objectives:
  - {name: instructions, goal: min}
  - {name: size, unit: bytes, goal: min}
EOF2
git -C "$repo" add study.yaml && git -C "$repo" commit -q -m study
res=$TMPDIR/res

"$TUNER" run -q -j 2 --all --results "$res" "$repo/study.yaml" >"$TMPDIR/out1"
[ "$(count_records "$res/journal.jsonl" build)" -eq 4 ] || fail "not 4 builds"
[ "$(wc -l <"$TMPDIR/measured")" -eq 4 ] ||
	fail "measured $(wc -l <"$TMPDIR/measured") times, want 4 (2 programs x 2 repeats)"
[ "$(count_records "$res/journal.jsonl" measure)" -eq 4 ] || fail "not 4 measure records"
[ "$(grep -c '"code":"[0-9a-f]\{40\}"' "$res/journal.jsonl")" -eq 4 ] ||
	fail "build records without a code id"
[ "$(grep -c '\[same code as [0-9a-f]\{16\}\]' "$TMPDIR/out1")" -eq 2 ] ||
	fail "the table does not name 2 twins: $(cat "$TMPDIR/out1")"

# results.csv: each twin names a configuration with its own flags minus
# the -D, and has that configuration's 2 samples and value.
csv=$res/results.csv
col() { head -1 "$csv" | tr -d '\r' | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
c_same=$(col same_code_as) c_n=$(col instructions_n) c_v=$(col instructions)
[ -n "$c_same" ] && [ -n "$c_n" ] && [ -n "$c_v" ] || fail "results.csv columns: $(head -1 "$csv")"
twins=0
while IFS=, read -r -a f; do
	same=${f[$((c_same - 1))]}
	same=${same%$'\r'}
	[ "${f[$((c_n - 1))]}" = 2 ] || fail "${f[0]}: ${f[$((c_n - 1))]} samples, want 2"
	[ -n "$same" ] || continue
	twins=$((twins + 1))
	case ${f[1]} in *-DTUNER_NEVER_READ=1*) ;; *) fail "${f[0]} (${f[1]}) is a twin" ;; esac
	lead=$(grep "^$same," "$csv")
	[ "$(echo "$lead" | cut -d, -f"$c_v")" = "${f[$((c_v - 1))]}" ] ||
		fail "${f[0]} and its lead $same differ: ${f[$((c_v - 1))]} vs $lead"
	case $lead in *-DTUNER_NEVER_READ*) fail "the lead $same has the -D" ;; esac
done < <(tail -n +2 "$csv")
[ $twins -eq 2 ] || fail "$twins twins in results.csv, want 2"
[ "$(grep -o '"same_code_as": *"[0-9a-f]*"' "$res/pareto.json" | wc -l)" -ge 1 ] ||
	[ "$(grep -c 'same_code_as' "$res/pareto.json")" -ge 1 ] || fail "pareto.json has no same_code_as"

# A rerun measures nothing.
"$TUNER" run -q -j 2 --all --results "$res" "$repo/study.yaml" >"$TMPDIR/out2"
[ "$(wc -l <"$TMPDIR/measured")" -eq 4 ] || fail "a rerun measured again"
# The same table (the counts of new and journaled work aside).
table() { grep -v '^builds: ' "$1"; }
[ "$(table "$TMPDIR/out1")" = "$(table "$TMPDIR/out2")" ] ||
	fail "a rerun prints another table: $(diff "$TMPDIR/out1" "$TMPDIR/out2")"

# The front (no --all) shows configurations with the same code as one
# row, naming the others; in text and Markdown alike.
for fmt in table md; do
	"$TUNER" run -q -j 2 --format $fmt --results "$res" "$repo/study.yaml" >"$TMPDIR/front.$fmt"
	rows=$(grep -c -- '-O[02]' "$TMPDIR/front.$fmt")
	also=$(grep -c '\[same code: also [0-9a-f]\{16\}\]' "$TMPDIR/front.$fmt" || true)
	[ "$rows" -ge 1 ] && [ "$rows" -le 2 ] && [ "$also" -eq "$rows" ] ||
		fail "$fmt: the front is not one row per program: $(cat "$TMPDIR/front.$fmt")"
	if grep -q '\[same code as' "$TMPDIR/front.$fmt"; then
		fail "$fmt: a twin of a row on the front: $(cat "$TMPDIR/front.$fmt")"
	fi
done
[ "$(wc -l <"$TMPDIR/measured")" -eq 4 ] || fail "the front measured again"

# A journal without code ids: worked out again from the artifacts.
sed -i 's/,"code":"[0-9a-f]*"//' "$res/journal.jsonl"
if grep -q '"code"' "$res/journal.jsonl"; then fail "could not strip the code ids"; fi
"$TUNER" run -q -j 2 --all --results "$res" "$repo/study.yaml" >"$TMPDIR/out3"
[ "$(wc -l <"$TMPDIR/measured")" -eq 4 ] || fail "without code ids in the journal, measured again"
[ "$(table "$TMPDIR/out1")" = "$(table "$TMPDIR/out3")" ] ||
	fail "without code ids, another table: $(diff "$TMPDIR/out1" "$TMPDIR/out3")"

# No measure.same_code: shared all the same.
grep -v 'same_code: share' "$repo/study.yaml" >"$repo/default.yaml"
sed 's/same_code: share/same_code: separate/' "$repo/study.yaml" >"$repo/sep.yaml"
git -C "$repo" add default.yaml sep.yaml && git -C "$repo" commit -q -m "default, separate"
: >"$TMPDIR/measured"
"$TUNER" run -q -j 2 --all --results "$TMPDIR/default" "$repo/default.yaml" >"$TMPDIR/out5"
[ "$(wc -l <"$TMPDIR/measured")" -eq 4 ] || fail "default: measured $(wc -l <"$TMPDIR/measured") times, want 4"

# measure.same_code: separate: every build is measured.
: >"$TMPDIR/measured"
"$TUNER" run -q -j 2 --all --results "$TMPDIR/sep" "$repo/sep.yaml" >"$TMPDIR/out4"
[ "$(wc -l <"$TMPDIR/measured")" -eq 8 ] || fail "separate: measured $(wc -l <"$TMPDIR/measured") times, want 8"
if grep -q 'same code as' "$TMPDIR/out4"; then fail "separate: a twin in the table"; fi
echo ok
