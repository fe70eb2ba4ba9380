# SPDX-License-Identifier: GPL-2.0-or-later
# --format table|md|json of run, compare, blame and bisect on the noisy
# target (known truth: -fslow makes B 10% slower, -fno-reorder-blocks 4%
# faster): the table output is the default and unchanged, the JSON parses
# and holds the facts, the Markdown tables are well-formed; with md and
# json stdout holds the document only. compare --fail-on worse|change|never
# exits 4 on the verdict it refuses and 0 otherwise.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
make_noisy
cat >"$repo/truth" <<'EOF2'
-Os 0.95 0.88
-fno-reorder-blocks 1.04 1.01
-fslow 0.90
EOF2
cat >"$repo/s.yaml" <<EOF2
study: fmt
source: {path: prog}
space:
  opt: [-O2, -Os]
  reorder: ["", -fno-reorder-blocks]
build: {command: ': > "\$TUNER_OUT/a"', artifact: a}
size: {of: artifact, measure: command, command: '$noisy --truth $repo/truth --size 100000'}
measure:
  command: '$noisy --truth $repo/truth --seed 3 --run-sd 0.005 --layout-sd 0.01 --state "\$TUNER_OUT/draws"'
  # The fake measurement judges the flags, not the program.
  same_code: separate
  repeats: 2
layout: {samples: 2}
objectives:
  - {name: speed, unit: Mbit/s, goal: max}
  - {name: size, unit: bytes, goal: min}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m study
S=$repo/s.yaml

# json_ok FILE: one JSON document (python3 -m json.tool parses it whole).
json_ok() {
	python3 -m json.tool "$1" >/dev/null || fail "not JSON: $(head -c 400 "$1")"
}
# md_ok FILE: Markdown tables well-formed (lib.sh), a heading first, and
# no line of the text output's indented kind.
md_ok() {
	md_tables_ok "$1" >/dev/null || fail "Markdown tables of $1: $(cat "$1")"
	head -n 1 "$1" | grep -q '^### tuner ' || fail "$1: no heading: $(head -n 1 "$1")"
	! grep -q '^  [a-zA-Z]' "$1" || fail "$1: an indented text line: $(grep '^  [a-zA-Z]' "$1")"
}
# formats NAME CMD...: CMD's output as table, md and json into
# $TMPDIR/NAME.txt, .md, .json (the first two printed); stdout of -q md
# and json holds the document only, nothing else goes to stderr.
formats() {
	local name=$1
	shift
	"$@" >"$TMPDIR/$name.txt" || fail "$name: $(cat "$TMPDIR/$name.txt")"
	"$@" --format md >"$TMPDIR/$name.md" 2>"$TMPDIR/$name.err" || fail "$name md"
	"$@" --format json >"$TMPDIR/$name.json" 2>>"$TMPDIR/$name.err" || fail "$name json"
	cat "$TMPDIR/$name.txt" "$TMPDIR/$name.md"
	md_ok "$TMPDIR/$name.md"
	json_ok "$TMPDIR/$name.json"
	[ ! -s "$TMPDIR/$name.err" ] || fail "$name: stderr $(cat "$TMPDIR/$name.err")"
}

# run: the default is the table; md and json the same results.
"$TUNER" run -q --all --results "$TMPDIR/r" "$S" >"$TMPDIR/run.txt" || fail "run: $(cat "$TMPDIR/run.txt")"
grep -q '^front config ' "$TMPDIR/run.txt" || fail "run: no table"
"$TUNER" run -q --all --format table --results "$TMPDIR/r" "$S" >"$TMPDIR/run2.txt"
diff <(grep -v '^builds:' "$TMPDIR/run.txt") <(grep -v '^builds:' "$TMPDIR/run2.txt") ||
	fail "--format table differs from the default"
"$TUNER" run --all --format md --results "$TMPDIR/r" "$S" >"$TMPDIR/run.md" 2>"$TMPDIR/run.md.err" ||
	fail "run md"
cat "$TMPDIR/run.md"
md_ok "$TMPDIR/run.md"
# The front's marks are text: * and ~ escaped (\* renders as *).
[ "$(grep -c '^| \(\\[*~]\)\? *| [0-9a-f]\{16\} |' "$TMPDIR/run.md")" -eq 4 ] || fail "run md: not 4 rows"
grep -q '^| \\\* | [0-9a-f]* | off | .* | `-O2 -fno-reorder-blocks` |' "$TMPDIR/run.md" || fail "run md: flags cell"
grep -q '^- noise: run / layout' "$TMPDIR/run.md" || fail "run md: notes as bullets"
# Two runs per seed split the noise; one run per seed cannot, and says so.
grep -q 'cannot be told apart' "$TMPDIR/run.md" && fail "run md: unsplit note with 2 repeats"
sed 's/repeats: 2/repeats: 1/' "$S" >"$repo/s1.yaml"
"$TUNER" run -q --results "$TMPDIR/r1" "$repo/s1.yaml" >"$TMPDIR/run1.txt" 2>&1 ||
	fail "run, 1 repeat: $(cat "$TMPDIR/run1.txt")"
grep -q '^noise: speed: one run per layout seed, so the two cannot be told apart' "$TMPDIR/run1.txt" ||
	fail "run, 1 repeat: no note on the unsplit noise: $(cat "$TMPDIR/run1.txt")"
grep -q 'noise: size:' "$TMPDIR/run1.txt" && fail "run, 1 repeat: a note on size"
"$TUNER" run --all --format json --results "$TMPDIR/r" "$S" >"$TMPDIR/run.json" 2>"$TMPDIR/run.json.err" ||
	fail "run json"
json_ok "$TMPDIR/run.json"
python3 - "$TMPDIR/run.json" "$TMPDIR/r/pareto.json" <<'PY' || fail "run json content"
import json, sys
d, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert len(d["configs"]) == 4 and len(d["front"]) == 4, d["front"]
for k in ("study", "objectives", "front", "configs", "source", "confidence"):
    assert d[k] == p[k], k
c = [c for c in d["configs"] if c["flags"] == "-O2 -fno-reorder-blocks"][0]
s = c["objectives"]["speed"]
assert 1000 < s["value"] < 1080 and s["n"] == 4 and s["layout_seeds"] == 2, s
assert d["run"]["results"].endswith("/r") and d["run"]["failed"] == [], d["run"]
assert d["run"]["builds_journal"] == 8 and d["run"]["measurements_new"] == 0, d["run"]
print("run json: %d configurations, speed of -O2 -fno-reorder-blocks %.1f" % (len(d["configs"]), s["value"]))
PY
"$TUNER" run -q --format yaml "$S" >/dev/null 2>"$TMPDIR/err" && fail "--format yaml accepted"
grep -q "^tuner: run: --format is table, md or json, not 'yaml'" "$TMPDIR/err" || fail "run: $(cat "$TMPDIR/err")"

# compare: -fslow is 10% slower, on 4 layout seeds a side.
cmpr() { "$TUNER" compare -q "$S" --repeats 2 --layout 4 --results "$TMPDIR/c" "$@"; }
formats cmp cmpr --a -O2 --b "-O2 -fslow"
grep -q '^  verdict: B is worse$' "$TMPDIR/cmp.txt" || fail "compare verdict"
grep -q '^| speed Mbit/s (max) | .* | -[0-9.]* (-[0-9.]*%) | \[.*]) | p = .* | B is worse |$' "$TMPDIR/cmp.md" ||
	fail "compare md: speed row"
grep -q '^| size bytes (min) | 100 k | 100 k | +0 (+0%) | exact | - | equal |$' "$TMPDIR/cmp.md" ||
	fail "compare md: size row"
python3 - "$TMPDIR/cmp.json" <<'PY' || fail "compare json content"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["objectives"][0]
t = s["test"]
assert d["verdict"] == "B is worse" and d["outcome"] == "worse" and d["primary"] == "speed", d
assert d["a"]["flags"] == "-O2" and d["b"]["flags"] == "-O2 -fslow" and d["failed"] is False, d
assert s["name"] == "speed" and s["a"]["n"] == 8 and s["b"]["n"] == 8, s
assert t["units_a"] == 4 and t["units_b"] == 4 and t["significant"] is True, t
assert t["rel_lo"] < -0.10 < t["rel_hi"] < 0 and t["p"] < 0.05, t
z = d["objectives"][1]
assert z["exact"] is True and z["test"] is None and z["outcome"] == "none", z
print("compare json: B - A %.2f%% [%.2f%%, %.2f%%], p %.2g" % (100 * t["rel"], 100 * t["rel_lo"], 100 * t["rel_hi"], t["p"]))
PY

# --fail-on: exit 4 when B is worse (worse, change), 0 with never and when
# B is better; --objective picks what it judges (size: equal, never fails).
failon() {
	set +e
	cmpr "$@" >"$TMPDIR/fo.out" 2>"$TMPDIR/fo.err"
	rc=$?
	set -e
}
failon --a -O2 --b "-O2 -fslow" --fail-on worse
[ $rc -eq 4 ] || fail "--fail-on worse, B worse: exit $rc"
grep -q '^tuner: compare: speed: B is worse (--fail-on worse)$' "$TMPDIR/fo.err" || fail "fail-on: $(cat "$TMPDIR/fo.err")"
grep -q '^  verdict: B is worse$' "$TMPDIR/fo.out" || fail "fail-on: the report"
failon --a -O2 --b "-O2 -fslow" --fail-on change --format json
[ $rc -eq 4 ] || fail "--fail-on change, B worse: exit $rc"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["failed"] is True and d["fail_on"] == "change"' "$TMPDIR/fo.out" ||
	fail "fail-on json: $(cat "$TMPDIR/fo.out")"
failon --a -O2 --b "-O2 -fslow" --fail-on never
[ $rc -eq 0 ] || fail "--fail-on never: exit $rc"
failon --a -O2 --b "-O2 -fslow"
[ $rc -eq 0 ] || fail "no --fail-on: exit $rc"
failon --a -O2 --b "-O2 -fslow" --fail-on worse --objective size
[ $rc -eq 0 ] || fail "--fail-on worse --objective size (equal): exit $rc"
failon --a "-O2 -fslow" --b -O2 --fail-on worse
[ $rc -eq 0 ] || fail "--fail-on worse, B better: exit $rc"
grep -q '^  verdict: B is better$' "$TMPDIR/fo.out" || fail "B better: $(cat "$TMPDIR/fo.out")"
failon --a "-O2 -fslow" --b -O2 --fail-on change
[ $rc -eq 4 ] || fail "--fail-on change, B better: exit $rc"
for bad in "--fail-on sometimes" "--objective nosuch" "--format xml"; do
	# shellcheck disable=SC2086
	failon --a -O2 --b "-O2 -fslow" $bad
	[ $rc -eq 2 ] || fail "compare $bad: exit $rc"
done

# blame: -fslow among three differences, 4 layout seeds a variant.
blm() { "$TUNER" blame -q "$S" --good -O2 --bad "-O2 -fno-inline -fslow -fno-tree-vrp" --repeats 2 \
	--layout 4 --results "$TMPDIR/b" "$@"; }
formats blame blm
grep -q '^culprit: {add -fslow}$' "$TMPDIR/blame.txt" || fail "blame culprit"
grep -q '^\*\*culprit: {add -fslow}\*\*$' "$TMPDIR/blame.md" || fail "blame md culprit"
grep -q '^- good + culprit vs good: -[0-9.]*% \[' "$TMPDIR/blame.md" || fail "blame md effect"
grep -q '^| {.*} | .* | .* | 4 | \(fails\|passes\|unresolved\) |$' "$TMPDIR/blame.md" || fail "blame md steps"
python3 - "$TMPDIR/blame.json" <<'PY' || fail "blame json content"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["culprit"]
assert c["differences"] == ["add -fslow"] and c["all"] is False, c
e = c["effect"]
assert e["significant"] and e["rel_lo"] < -0.10 < e["rel_hi"] < 0, e
assert len(d["differences"]) == 3 and d["bad_vs_good"]["significant"] and not d["nothing_to_blame"], d
assert d["steps"] and all(s["outcome"] in ("fails", "passes", "unresolved") for s in d["steps"]), d["steps"]
print("blame json: culprit %s, effect %.2f%% [%.2f%%, %.2f%%], %d steps" % (c["differences"], 100 * e["rel"], 100 * e["rel_lo"], 100 * e["rel_hi"], len(d["steps"])))
PY

# bisect: six commits of a source whose fourth makes everything 10%
# slower (truth "* 0.90"); each commit changes the artifact, a new layout.
h=$TMPDIR/hist
mkdir -p "$h/src"
git -C "$h" init -q -b main
echo '# no effect' >"$h/src/truth"
for i in 0 1 2 3 4 5; do
	echo "code $i" >"$h/src/code"
	[ $i -eq 3 ] && echo '* 0.90' >"$h/src/truth"
	git -C "$h" add -A
	git -C "$h" commit -q -m "commit $i"
	[ $i -eq 0 ] && git -C "$h" tag good
done
git -C "$h" tag bad
culprit=$(git -C "$h" rev-parse HEAD~2)
cat >"$TMPDIR/h.yaml" <<EOF2
study: hist
source: {repo: $h, rev: HEAD, path: src}
space:
  opt: [-O2]
build: {command: 'cp "\$TUNER_SRC/code" "\$TUNER_SRC/truth" "\$TUNER_OUT/"', artifact: code}
measure:
  command: '$noisy --truth "\$TUNER_OUT/truth" --layout-key "\$TUNER_ARTIFACT" --seed 5 --run-sd 0.005 --layout-sd 0.01 --state "\$TUNER_OUT/draws"'
  same_code: separate
objectives:
  - {name: throughput, goal: max}
EOF2
bis() { "$TUNER" bisect -q "$TMPDIR/h.yaml" --good good --bad bad --repeats 2 --layout 2 --max-layout 8 \
	--results "$TMPDIR/bi" "$@"; }
formats bisect bis
grep -q "^first bad commit: $culprit commit 3$" "$TMPDIR/bisect.txt" || fail "bisect culprit"
grep -q "^\*\*first bad commit: \`$culprit\` commit 3\*\*$" "$TMPDIR/bisect.md" || fail "bisect md culprit"
grep -q '^| [0-9]* | `[0-9a-f]\{12\}` | commit [0-9] | [0-9]* | [0-9]* .*| \(good\|bad\)' "$TMPDIR/bisect.md" ||
	fail "bisect md steps"
grep -q '^- B - A = -[0-9.]*, 95% CI \[' "$TMPDIR/bisect.md" || fail "bisect md effect"
python3 - "$TMPDIR/bisect.json" "$culprit" <<'PY' || fail "bisect json content"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["first_bad"]
assert f["commit"] == sys.argv[2] and f["subject"] == "commit 3", f
e = f["effect"]
assert e["significant"] and e["rel_lo"] < -0.10 < e["rel_hi"] < 0, e
assert d["no_culprit"] is None and d["nothing_to_bisect"] is False and d["endpoints"], d
assert d["steps"] and all(j["mark"] in ("good", "bad") for s in d["steps"] for j in s["judgements"]), d["steps"]
assert d["measurement_runs_new"] == 0 and d["results"].endswith("/bi"), d
print("bisect json: first bad %s, effect %.2f%% [%.2f%%, %.2f%%], %d steps" % (f["commit"][:12], 100 * e["rel"], 100 * e["rel_lo"], 100 * e["rel_hi"], len(d["steps"])))
PY
# Nothing to bisect (the last commit changes only layout), in each format.
none() { "$TUNER" bisect -q "$TMPDIR/h.yaml" --good bad~1 --bad bad --repeats 2 --layout 2 --max-layout 4 \
	--results "$TMPDIR/bn" "$@"; }
formats none none
grep -q '^nothing to bisect: ' "$TMPDIR/none.txt" || fail "nothing to bisect: $(cat "$TMPDIR/none.txt")"
grep -q '^\*\*nothing to bisect: ' "$TMPDIR/none.md" || fail "nothing to bisect md"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["nothing_to_bisect"] is True and d["first_bad"] is None and d["steps"] == []' \
	"$TMPDIR/none.json" || fail "nothing to bisect json: $(cat "$TMPDIR/none.json")"
echo ok
