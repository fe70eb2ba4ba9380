# SPDX-License-Identifier: GPL-2.0-or-later
# tuner diff: one noisy-target study run twice into two results
# directories, as with two compilers: between the runs the truth changes
# (-falign-functions=32 10% slower in B), the noise seed changes, and one
# configuration stops building. diff finds the -falign-functions=32
# configurations worse by about 10%, the others without a clear change,
# sizes exactly unchanged, the broken one missing in B; Markdown tables
# well-formed, JSON parsed. Then a partial run (only in A), two studies
# (two_targets.sh: -fno-reorder-blocks x1.14 against x0.84), the same
# results twice, results.csv's dim: columns, and bad uses refused.
. "$ROOT/tests/e2e/two_targets.sh"

truth=$TMPDIR/truth
seed=$TMPDIR/seed
broken=$TMPDIR/broken
cat >"$truth" <<'EOF2'
-Os 0.95 0.88
-fno-reorder-blocks 1.05 1.01
EOF2
echo 21 >"$seed"
S=$repo/fw.yaml
cat >"$S" <<EOF2
study: fw
source: {path: prog}
space:
  opt: [-O2, -Os]
  reorder: ["", -fno-reorder-blocks]
  align: ["", -falign-functions=32]
build:
  command: 'if [ -e $broken ] && [ "\$TUNER_FLAGS" = "-Os -fno-reorder-blocks -falign-functions=32" ]; then exit 1; fi; : > "\$TUNER_OUT/a"'
  artifact: a
size: {of: artifact, measure: command, command: '$noisy --truth $truth --size 100000'}
measure:
  command: '$noisy --truth $truth --seed \$(cat $seed) --run-sd 0.005 --layout-sd 0.01'
  # The fake measurement judges the flags, not the program.
  same_code: separate
  repeats: 2
layout: {samples: 3}
objectives:
  - {name: speed, unit: Mbit/s, goal: max}
  - {name: size, unit: bytes, goal: min}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m fw
DA=$TMPDIR/gcc-a
DB=$TMPDIR/gcc-b
"$TUNER" run -q --all --results "$DA" "$S" >"$TMPDIR/run-fa" || fail "run A: $(cat "$TMPDIR/run-fa")"
echo "-falign-functions=32 0.90 1.00" >>"$truth"
echo 22 >"$seed"
: >"$broken"
set +e
"$TUNER" run -q --all --results "$DB" "$S" >"$TMPDIR/run-fb" 2>&1
rc=$?
set -e
[ $rc -eq 3 ] || fail "run B: exit $rc, want 3 (one build fails): $(cat "$TMPDIR/run-fb")"

# results.csv names each dimension's value, after every older column.
csv=$DA/results.csv
head -n 1 "$csv" | tr -d '\r' | grep -q ',same_code_as,dim:opt,dim:reorder,dim:align$' ||
	fail "results.csv dim columns: $(head -n 1 "$csv")"
tr -d '\r' <"$csv" | grep -q ',-Os -falign-functions=32,.*,-Os,,-falign-functions=32$' ||
	fail "results.csv dim values: $(grep -- '-Os -falign' "$csv")"
tr -d '\r' <"$csv" | grep -q ',-O2,off,.*,-O2,,$' || fail "results.csv -O2 row: $(grep ',-O2,off' "$csv")"

# The table: what changed clearly, worst first; the rest counted.
out=$TMPDIR/diff
"$TUNER" diff "$S" --results "$DA" --results "$DB" >"$out" 2>"$out.err" ||
	fail "diff: $(cat "$out" "$out.err")"
cat "$out" "$out.err"
grep -q "^A: $DA (study fw, commit [0-9a-f]\{12\}, 8 configurations)$" "$out" || fail "A line"
grep -q "^B: $DB (study fw, commit [0-9a-f]\{12\}, 8 configurations)$" "$out" || fail "B line"
grep -q '^speed \[Mbit/s\] (max): B against A' "$out" || fail "speed title"
speed=$(sed -n '/^speed/,/^size/p' "$out")
[ "$(grep -c 'falign-functions=32 .* worse$' <<<"$speed")" -eq 3 ] ||
	fail "want 3 align configurations worse: $speed"
while read -r line; do
	[[ $line =~ \ -([0-9.]+)%\ \[-[0-9.]+%,\ -[0-9.]+%\]\ +worse$ ]] ||
		fail "worse row: $line"
	awk -v c="${BASH_REMATCH[1]}" 'BEGIN { exit !(c > 6 && c < 14) }' ||
		fail "change ${BASH_REMATCH[1]}%, want about 10%: $line"
done < <(grep ' worse$' <<<"$speed")
grep ' worse$' <<<"$speed" | grep -vq -- '-falign-functions=32' && fail "a worse row without the flag"
grep -qE ' failed +- +no value in B \(failed\)$' <<<"$speed" ||
	fail "the broken configuration: $speed"
grep -q '^  4 more not shown (4 no clear change; --all shows them)$' <<<"$speed" ||
	fail "hidden rows: $speed"
grep -q '^summary: of 8 configurations in both, 3 worse, 0 better, 4 no clear change, 1 missing$' <<<"$speed" ||
	fail "speed summary: $speed"
[[ $(grep 'geometric mean' <<<"$speed") =~ ^\ \ geometric\ mean\ of\ B/A:\ -([0-9.]+)%\ \[-[0-9.]+%,\ -[0-9.]+%\]\ over\ 7, ]] ||
	fail "geometric mean: $(grep geometric <<<"$speed")"
# 0.9^(3/7) - 1 = -4.4%
awk -v c="${BASH_REMATCH[1]}" 'BEGIN { exit !(c > 2.5 && c < 6.5) }' || fail "geomean ${BASH_REMATCH[1]}%"
grep -q 'by chance alone about 0.35 of the 7 with an interval' <<<"$speed" || fail "chance line"
# Sizes did not change: exact, nothing shown, all "no change".
size=$(sed -n '/^size/,$p' "$out")
grep -q '^size \[bytes\] (min): .* (exact: no noise)$' <<<"$size" || fail "size title: $size"
grep -q '^summary: of 8 configurations in both, 0 worse, 0 better, 7 no change, 1 missing$' <<<"$size" ||
	fail "size summary: $size"
grep -q 'geometric mean of B/A: +0% \[+0%, +0%\] over 7' <<<"$size" || fail "size geomean: $size"
grep -q '^  7 more not shown (7 no change; --all shows them)$' <<<"$size" || fail "size hidden: $size"

# --all: every configuration; the unchanged ones without a clear change.
"$TUNER" diff --all --objective speed "$S" --results "$DA" --results "$DB" >"$TMPDIR/all" ||
	fail "diff --all"
[ "$(grep -cE '^[0-9a-f]{16} ' "$TMPDIR/all")" -eq 8 ] || fail "--all rows: $(cat "$TMPDIR/all")"
[ "$(grep -E '^[0-9a-f]{16} ' "$TMPDIR/all" | grep -v -- '-falign-functions=32' |
	grep -c ' no clear change$')" -eq 4 ] || fail "unchanged configurations: $(cat "$TMPDIR/all")"
grep -q '^size' "$TMPDIR/all" && fail "--objective speed shows size"

# Markdown: well-formed tables, flags in code spans.
"$TUNER" diff --format md "$S" --results "$DA" --results "$DB" >"$TMPDIR/md" || fail "md"
cat "$TMPDIR/md"
md_tables_ok "$TMPDIR/md" || fail "Markdown tables"
grep -q '^| [0-9a-f]\{16\} | `-O2 -falign-functions=32` | .* | worse |$' "$TMPDIR/md" || fail "md row"
grep -q '^\*\*summary: of 8 configurations in both, 3 worse' "$TMPDIR/md" || fail "md summary"

# JSON: every configuration, changes as fractions.
"$TUNER" diff --format json "$S" --results "$DA" --results "$DB" >"$TMPDIR/json" || fail "json"
python3 -m json.tool "$TMPDIR/json" >/dev/null || fail "not JSON: $(head -c 300 "$TMPDIR/json")"
python3 - "$TMPDIR/json" "$DA" "$DB" <<'PY' || fail "JSON content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"]["results"] == sys.argv[2] and d["b"]["results"] == sys.argv[3], d["a"]
assert d["a"]["study"] == "fw" and d["confidence"] == 0.95
assert [o["name"] for o in d["objectives"]] == ["speed", "size"]
sp, sz = d["objectives"]
assert sp["goal"] == "max" and sp["exact"] is False and sz["exact"] is True, d["objectives"]
s = sp["summary"]
assert (s["configs"], s["worse"], s["better"], s["unclear"], s["missing"]) == (8, 3, 0, 4, 1), s
assert -0.065 < s["geomean"]["change"] < -0.025 and s["geomean"]["hi"] < 0, s
assert sz["summary"]["same"] == 7, sz
assert len(d["configs"]) == 8 and d["only_a"] == [] and d["only_b"] == []
for c in d["configs"]:
    e = c["objectives"]["speed"]
    assert set(e) >= {"a", "b", "change", "lo", "hi", "df", "exact", "verdict"}, e
    if c["b"]["status"] != "ok":
        assert e["verdict"] == "missing" and e["b"] is None and e["change"] is None, c
    elif "-falign-functions=32" in c["flags"]:
        assert e["verdict"] == "worse" and -0.14 < e["change"] < -0.06 and e["hi"] < 0, c
        assert e["lo"] < e["change"] < e["hi"] and e["df"] > 1, c
    else:
        assert e["verdict"] == "unclear" and e["lo"] < 0 < e["hi"], c
    assert c["objectives"]["size"]["verdict"] in ("same", "missing"), c
    assert c["a"]["status"] == "ok" and c["a"]["same_code_as"] is None, c
PY

# A partial run (3 of 8): the other 5 only in A, listed.
"$TUNER" run -q --all --budget 3 --seed 1 --results "$TMPDIR/part" "$S" >/dev/null 2>&1 || true
"$TUNER" diff --format json "$S" --results "$DA" --results "$TMPDIR/part" >"$TMPDIR/pj" || fail "partial"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["configs"]) == 3 and len(d["only_a"]) == 5 and d["only_b"] == [], d
assert all(set(c) == {"id", "flags", "pgo", "status", "same_code_as"} for c in d["only_a"]), d
' "$TMPDIR/pj" || fail "partial JSON"
"$TUNER" diff "$S" --results "$DA" --results "$TMPDIR/part" >"$TMPDIR/part.out" || fail "partial table"
grep -q '^only in A (5 configurations):$' "$TMPDIR/part.out" || fail "only in A: $(cat "$TMPDIR/part.out")"

# Two studies over one flag space (two targets): -fno-reorder-blocks
# x0.84 against x1.14, -26%.
"$TUNER" diff "$A" "$B" --results "$RA" --results "$RB" >"$TMPDIR/two" 2>"$TMPDIR/two.err" ||
	fail "two studies: $(cat "$TMPDIR/two.err")"
cat "$TMPDIR/two"
grep -q 'note: two studies, bcm53xx and mt7621' "$TMPDIR/two.err" || fail "two-studies note"
grep -qE ' -O2 -fno-reorder-blocks +[0-9.]+ ±[0-9.]+ +[0-9.]+ ±[0-9.]+ +-2[4-8]\.[0-9]*% \[.*\] +worse$' "$TMPDIR/two" ||
	fail "reorder row: $(grep -- '-O2 -fno-reorder-blocks ' "$TMPDIR/two")"

# The same results twice: said so.
"$TUNER" diff "$S" --results "$DA" --results "$DA" >/dev/null 2>"$TMPDIR/same.err" || fail "same"
grep -q 'A and B are the same results' "$TMPDIR/same.err" || fail "same note: $(cat "$TMPDIR/same.err")"

# Damaged results (read only, refused or read right). B's pareto.json
# concatenated with itself: every configuration twice, refused with the
# file, the line of the second and the id, not 8 "only in B".
dup=$TMPDIR/dup
cp -r "$DB" "$dup"
python3 - "$dup/pareto.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["configs"] += d["configs"]
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
id0=$(jq -r '.configs[0].config' "$dup/pareto.json")
line=$(grep -n "\"config\": \"$id0\"" "$dup/pareto.json" | sed -n 2p | cut -d: -f1)
first=$(grep -n "\"config\": \"$id0\"" "$dup/pareto.json" | sed -n 1p | cut -d: -f1)
set +e
"$TUNER" diff "$S" --results "$DA" --results "$dup" >"$TMPDIR/dup.out" 2>"$TMPDIR/dup.err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "duplicate ids: exit $rc, want 2: $(cat "$TMPDIR/dup.out" "$TMPDIR/dup.err")"
grep -qx "tuner: $dup/pareto.json:$line: 'configs\[8\].config': configuration $id0 is there twice (first at configs\[0\], line $first)" \
	"$TMPDIR/dup.err" || fail "duplicate ids: $(cat "$TMPDIR/dup.err")"
[ -s "$TMPDIR/dup.out" ] && fail "duplicate ids: printed $(cat "$TMPDIR/dup.out")"
# The same as A (the first side), and one configuration twice in place.
set +e
"$TUNER" diff "$S" --results "$dup" --results "$DB" >/dev/null 2>"$TMPDIR/dup.err"; r1=$?
set -e
[ $r1 -eq 2 ] && grep -q "^tuner: $dup/pareto.json:$line: " "$TMPDIR/dup.err" ||
	fail "duplicate ids in A: $r1 $(cat "$TMPDIR/dup.err")"
python3 - "$DB/pareto.json" "$dup/pareto.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["configs"].insert(5, d["configs"][2])
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
set +e
"$TUNER" diff "$S" --results "$DA" --results "$dup" >/dev/null 2>"$TMPDIR/dup.err"; r1=$?
set -e
[ $r1 -eq 2 ] && grep -q "'configs\[5\].config': configuration $(jq -r '.configs[2].config' "$DB/pareto.json") is there twice (first at configs\[2\], line [0-9]*)$" \
	"$TMPDIR/dup.err" || fail "one duplicate: $r1 $(cat "$TMPDIR/dup.err")"

# Huge values, finite: B's speed of one configuration 1e100 (A's about
# 1000) is better, not "no clear change" with an interval of NaNs; one
# with huge spreads (1e200) has a finite interval over 0, unclear.
huge=$TMPDIR/huge
cp -r "$DB" "$huge"
python3 - "$huge/pareto.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = [c for c in d["configs"] if c["status"] == "ok"]
ok[0]["objectives"]["speed"]["value"] = 1e100
for k in ("sd", "run_sd", "layout_sd"):
    ok[1]["objectives"]["speed"][k] = 1e200
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
read -r hid wid < <(jq -r '[.configs[] | select(.status == "ok")] | "\(.[0].config) \(.[1].config)"' "$huge/pareto.json")
"$TUNER" diff --all --objective speed "$S" --results "$DA" --results "$huge" >"$TMPDIR/huge.out" ||
	fail "huge: $(cat "$TMPDIR/huge.out")"
grep -qE "^$hid .* 1(\.0+)?e\+100 .* \+[0-9.]+e\+9[89]% \[\+[0-9.]+e\+9[89]%, \+[0-9.]+e\+9[89]%\] +better$" "$TMPDIR/huge.out" ||
	fail "1e100: $(grep "^$hid" "$TMPDIR/huge.out")"
grep -qE "^$wid .* \[-[0-9.]+e\+[0-9]+%, \+[0-9.]+e\+[0-9]+%\] +no clear change$" "$TMPDIR/huge.out" ||
	fail "huge spread: $(grep "^$wid" "$TMPDIR/huge.out")"
if grep -q '?' "$TMPDIR/huge.out"; then fail "huge: an unknown figure: $(cat "$TMPDIR/huge.out")"; fi
"$TUNER" diff --format json --objective speed "$S" --results "$DA" --results "$huge" >"$TMPDIR/huge.json"
jq -e --arg h "$hid" --arg w "$wid" '[.configs[] | select(.id == $h or .id == $w) |
	.objectives.speed | .verdict == (if .b.value > 1e99 then "better" else "unclear" end) and .lo != null and .hi != null] == [true, true]' \
	"$TMPDIR/huge.json" >/dev/null || fail "huge, json: $(jq -c '.configs[:3]' "$TMPDIR/huge.json")"
# Non-finite numbers cannot be read: refused where they stand.
for bad in 1e999 Infinity NaN -1e400; do
	cp "$DB/pareto.json" "$huge/pareto.json"
	python3 - "$huge/pareto.json" "$bad" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = [c for c in d["configs"] if c["status"] == "ok"]
ok[0]["objectives"]["speed"]["value"] = "@BAD@"
open(sys.argv[1], "w").write(json.dumps(d, indent=1).replace('"@BAD@"', sys.argv[2]))
PY
	line=$(grep -n "\"value\": $bad" "$huge/pareto.json" | cut -d: -f1)
	set +e
	"$TUNER" diff "$S" --results "$DA" --results "$huge" >/dev/null 2>"$TMPDIR/nf.err"; rc=$?
	set -e
	[ $rc -eq 2 ] && grep -q "^tuner: $huge/pareto.json:$line:[0-9]*: " "$TMPDIR/nf.err" ||
		fail "value $bad: exit $rc, $(cat "$TMPDIR/nf.err")"
done

# Refused: one study and one --results, three studies, an objective that
# is not there, a format, a directory without results.
set +e
"$TUNER" diff "$S" --results "$DA" >"$TMPDIR/e1" 2>&1; r1=$?
"$TUNER" diff "$S" "$S" "$S" >"$TMPDIR/e2" 2>&1; r2=$?
"$TUNER" diff --objective nope "$S" --results "$DA" --results "$DB" >"$TMPDIR/e3" 2>&1; r3=$?
"$TUNER" diff --format html "$S" --results "$DA" --results "$DB" >"$TMPDIR/e4" 2>&1; r4=$?
"$TUNER" diff "$S" --results "$DA" --results "$TMPDIR/nothing" >"$TMPDIR/e5" 2>&1; r5=$?
set -e
[ $r1 -eq 2 ] && grep -q 'give one study file and two --results' "$TMPDIR/e1" || fail "one --results: $r1 $(cat "$TMPDIR/e1")"
[ $r2 -eq 2 ] || fail "three studies: $r2 $(cat "$TMPDIR/e2")"
[ $r3 -eq 2 ] && grep -q "'nope' is not an objective of both" "$TMPDIR/e3" || fail "objective: $r3 $(cat "$TMPDIR/e3")"
[ $r4 -eq 2 ] || fail "format: $r4 $(cat "$TMPDIR/e4")"
[ $r5 -eq 2 ] && grep -q 'run the study first' "$TMPDIR/e5" || fail "no results: $r5 $(cat "$TMPDIR/e5")"
"$TUNER" help diff | grep -q '^usage: tuner diff' || fail "help diff"
