# SPDX-License-Identifier: GPL-2.0-or-later
# natbench on the modelled routers, through tuner: studies of the ARM
# (Cortex-A9) and MIPS (1004Kc) builds scored by score-uarch.sh under the
# uarch plugin, parsed by the uarch-model parsers.
#   - determinism: every build is scored twice (repeats: 2); both runs give
#     byte-identical counters and equal values, on ARM and on MIPS;
#   - `tuner uarch` re-weighs the saved counters: another mispredict
#     penalty moves the cycles by exactly the mispredict share;
#   - a measure command that runs the plugin for another machine than the
#     study's is a failed measurement that says so;
#   - the bundled router studies are valid.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_natbench_repo "$repo"

# study NAME ARCH PRESET OPTS [COMMAND]
study() {
	cat >"$repo/$1.yaml" <<EOF
study: $1
source: {repo: ., rev: HEAD, path: natbench}
space:
  opt: [$4]
build:
  command: make -s -j"\$TUNER_JOBS" -f "\$TUNER_SRC/Makefile" NB_ARCH=$2
  artifact: natbench
  timeout: 900
size: {of: artifact, measure: text}
measure:
  command: '${5:-NB_SCORE_PACKETS=2000 "\$TUNER_SRC/score-uarch.sh"}'
  parser: uarch-model
  repeats: 2
  timeout: 900
  uarch: {preset: $3}
objectives:
  - {name: throughput, unit: Mbit/s (modelled), goal: max}
  - {name: cycles, goal: min, parser: "uarch-model:cycles"}
  - {name: size, goal: min}
EOF
}

# values JOURNAL: one line per measurement, "BUILD RUN OK THROUGHPUT CYCLES"
values() {
	grep '"type":"measure"' "$1" | sed -E \
		's/.*"build":"([^"]*)".*"run":([0-9]+).*"ok":(true|false).*"throughput":([^,}]*).*"cycles":([^,}]*).*/\1 \2 \3 \4 \5/'
}

# check_twice NAME BUILDS: every build measured twice, ok, equal values,
# identical raw counters.
check_twice() {
	local name=$1 want=$2 R=$TMPDIR/res-$1 n b
	values "$R/journal.jsonl" >"$TMPDIR/$name.values"
	n=$(wc -l <"$TMPDIR/$name.values")
	[ "$n" = $((2 * want)) ] || fail "$name: $n measurements, expected $((2 * want)): $(cat "$TMPDIR/$name.values")"
	awk '$3 != "true" { exit 1 }' "$TMPDIR/$name.values" || fail "$name: a measurement failed: $(cat "$TMPDIR/$name.values")"
	awk '{ v[$1] = v[$1] " " $4 " " $5 } END { for (b in v) { split(v[b], x, " "); if (x[1] != x[3] || x[2] != x[4]) exit 1 } }' \
		"$TMPDIR/$name.values" || fail "$name: two runs of one build gave other values: $(cat "$TMPDIR/$name.values")"
	awk '$4 < 50 || $4 > 5000 || $5 < 1000 || $5 > 100000 { exit 1 }' "$TMPDIR/$name.values" ||
		fail "$name: implausible modelled values: $(cat "$TMPDIR/$name.values")"
	for b in "$R"/builds/*/; do
		cmp -s "$b/uarch.out.0" "$b/uarch.out.1" || fail "$name: $b: the two reports differ"
	done
}

cd "$repo"
study a9 a9 cortex-a9 '-O2, -Os'
study mips 1004k 1004k '-O2'
"$TUNER" run -q --results "$TMPDIR/res-a9" a9.yaml >"$TMPDIR/a9.out" 2>&1 ||
	fail "tuner run a9: $(tail -5 "$TMPDIR/a9.out")"
"$TUNER" run -q --results "$TMPDIR/res-mips" mips.yaml >"$TMPDIR/mips.out" 2>&1 ||
	fail "tuner run mips: $(tail -5 "$TMPDIR/mips.out")"
check_twice a9 2
check_twice mips 1
grep -q '^arch arm$' "$TMPDIR"/res-a9/builds/*/uarch.out.0 || fail "a9: not an ARM report"
grep -q '^arch mipsel$' "$TMPDIR"/res-mips/builds/*/uarch.out.0 || fail "mips: not a MIPS report"
# The journal's cycles are the scorer's: tuner uarch agrees with them.
"$TUNER" uarch --study a9.yaml --csv "$TMPDIR/res-a9" >"$TMPDIR/a9.csv" || fail "tuner uarch failed"
[ "$(grep -c '^"' "$TMPDIR/a9.csv")" = 4 ] || fail "tuner uarch: $(cat "$TMPDIR/a9.csv")"
j=$(values "$TMPDIR/res-a9/journal.jsonl" | awk '{ printf "%.2f\n", $5 }' | sort -u)
u=$(awk -F, 'NR > 1 { printf "%.2f\n", $2 }' "$TMPDIR/a9.csv" | sort -u)
[ "$j" = "$u" ] || fail "journal cycles '$j' but tuner uarch '$u'"
# Other penalties, no new run: a mispredict costing nothing removes exactly
# the mispredict share of the cycles.
"$TUNER" uarch --study a9.yaml --set mispredict=0 --csv "$TMPDIR/res-a9" >"$TMPDIR/a9-0.csv"
paste -d, "$TMPDIR/a9.csv" "$TMPDIR/a9-0.csv" | awk -F, 'NR > 1 {
	n = NF / 2; d = $2 - $(n + 2)
	if (d - $8 > 0.02 || $8 - d > 0.02 || $8 <= 0 || $(n + 8) != 0) exit 1 }' ||
	fail "mispredict=0 did not remove the mispredict cycles: $(paste -d'|' "$TMPDIR/a9.csv" "$TMPDIR/a9-0.csv")"
"$TUNER" uarch --preset 1004k "$TMPDIR/res-a9" >/dev/null 2>"$TMPDIR/u.err" &&
	fail "tuner uarch scored A9 counters as a 1004K's"
grep -q 'the report was made for' "$TMPDIR/u.err" || fail "tuner uarch: $(cat "$TMPDIR/u.err")"

# A measure command that ignores the study's machine: a failed measurement.
study wrong a9 cortex-a9 '-O2' 'TUNER_UARCH=preset=1004k NB_SCORE_PACKETS=500 "$TUNER_SRC/score-uarch.sh"'
"$TUNER" run -q --results "$TMPDIR/res-wrong" wrong.yaml >"$TMPDIR/wrong.out" 2>&1 || true
grep '"type":"measure"' "$TMPDIR/res-wrong/journal.jsonl" | head -1 >"$TMPDIR/wrong.rec"
grep -q '"ok":false' "$TMPDIR/wrong.rec" || fail "a report of another machine was accepted: $(cat "$TMPDIR/wrong.rec")"
grep -q 'the report was made for' "$TMPDIR/wrong.rec" || fail "no reason: $(cat "$TMPDIR/wrong.rec")"

# A tuner without its plugin (the binary copied elsewhere) refuses a uarch
# study before anything runs, instead of recording every measurement as
# failed; TUNER_UARCH_PLUGIN names the plugin, and a name that cannot be
# read is refused too. tuner check warns.
mkdir "$TMPDIR/alone"
cp "$TUNER" "$TMPDIR/alone/tuner"
study alone a9 cortex-a9 '-O2' 'NB_SCORE_PACKETS=500 "$TUNER_SRC/score-uarch.sh"'
st=0
"$TMPDIR/alone/tuner" run -q --results "$TMPDIR/res-alone" alone.yaml >"$TMPDIR/alone.out" 2>&1 || st=$?
[ "$st" = 1 ] || fail "without the plugin: exit $st, expected 1: $(cat "$TMPDIR/alone.out")"
grep -q 'alone.yaml: measure.uarch needs the uarch plugin, tuner-uarch.so, and there is none beside this tuner binary' \
	"$TMPDIR/alone.out" || fail "without the plugin: $(cat "$TMPDIR/alone.out")"
[ ! -e "$TMPDIR/res-alone/journal.jsonl" ] || fail "without the plugin, a journal was started"
"$TMPDIR/alone/tuner" check alone.yaml >/dev/null 2>"$TMPDIR/alone.err" || fail "tuner check refused the study"
grep -q '^warning: measure.uarch needs the uarch plugin' "$TMPDIR/alone.err" || fail "tuner check: $(cat "$TMPDIR/alone.err")"
st=0
TUNER_UARCH_PLUGIN=$TMPDIR/none.so "$TMPDIR/alone/tuner" run -q --results "$TMPDIR/res-alone" alone.yaml \
	>"$TMPDIR/alone.out" 2>&1 || st=$?
[ "$st" = 1 ] && grep -q "TUNER_UARCH_PLUGIN names '$TMPDIR/none.so', which cannot be read" "$TMPDIR/alone.out" ||
	fail "an unreadable TUNER_UARCH_PLUGIN: exit $st: $(cat "$TMPDIR/alone.out")"
TUNER_UARCH_PLUGIN=$(dirname "$TUNER")/tuner-uarch.so "$TMPDIR/alone/tuner" run -q --results "$TMPDIR/res-alone" \
	alone.yaml >"$TMPDIR/alone.out" 2>&1 || fail "with TUNER_UARCH_PLUGIN: $(tail -5 "$TMPDIR/alone.out")"
grep '"type":"measure"' "$TMPDIR/res-alone/journal.jsonl" | grep -q '"ok":true' ||
	fail "with TUNER_UARCH_PLUGIN: no measurement: $(cat "$TMPDIR/res-alone/journal.jsonl")"

for s in natbench-a9 natbench-1004k; do
	"$TUNER" check "$ROOT/spaces/$s.yaml" >/dev/null || fail "spaces/$s.yaml is not valid"
done
exit 0
