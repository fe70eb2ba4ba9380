# SPDX-License-Identifier: GPL-2.0-or-later
# tuner compare on the noisy target (known truth, seeded noise): flags and
# revisions, interleaving, the verdicts with and without layout seeds, a
# small seeded A/A and power check, resume, and usage errors.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
make_noisy
printf -- '-fa 1.02 1.10\n-fl 1.01 1.00\n' >"$TMPDIR/truth"
# The source holds extra flags for noisy ("-fa" in the first commit, none
# in the second), so two revisions can differ in truth.
mkdir -p "$repo/v"
echo "-fa" >"$repo/v/extra"
git -C "$repo" add -A && git -C "$repo" commit -q -m v1
: >"$repo/v/extra"
git -C "$repo" commit -q -am v2

# study SEED RUN_SD LAYOUT_SD > file
study() {
	cat <<EOF2
study: cmp
source: {repo: $repo, path: v}
space:
  a: ["", -fa]
build: {command: 'cp "\$TUNER_SRC/extra" "\$TUNER_OUT/a"', artifact: a}
size: {of: artifact, measure: command, command: 'TUNER_FLAGS="\$TUNER_FLAGS \$(cat "\$TUNER_ARTIFACT")" $noisy --truth $TMPDIR/truth --size 100000'}
measure:
  command: 'TUNER_FLAGS="\$TUNER_FLAGS \$(cat "\$TUNER_ARTIFACT")" $noisy --truth $TMPDIR/truth --seed $1 --run-sd $2 --layout-sd $3 --state "\$TUNER_OUT/draws"'
  # The fake measurement judges the flags, not the program: each build
  # is measured (the default shares builds whose code is the same).
  same_code: separate
objectives:
  - {name: speed, goal: max}
  - {name: size, unit: bytes, goal: min}
EOF2
}
verdict() { sed -n 's/^  verdict: //p' "$1" | head -n 1; }

# -fa is 2% faster, 10% bigger; no layout noise, and compare told so.
study 3 0.005 0 >"$TMPDIR/s.yaml"
"$TUNER" compare -q "$TMPDIR/s.yaml" --a "" --b "-fa" --repeats 5 --layout-sd 0 \
	--results "$TMPDIR/c1" >"$TMPDIR/o1" || fail "compare failed: $(cat "$TMPDIR/o1")"
cat "$TMPDIR/o1"
[ "$(verdict "$TMPDIR/o1")" = "B is better" ] || fail "verdict: $(verdict "$TMPDIR/o1")"
grep -q '^size (min): A 100 k, B 110 k bytes' "$TMPDIR/o1" || fail "size line"
grep -q '^  verdict: B is worse$' "$TMPDIR/o1" || fail "size verdict"
# The interval covers the true +2%.
grep '^  B - A' "$TMPDIR/o1" | head -n 1 | sed -E 's/.*\(\[([-+0-9.e]+)%, ([-+0-9.e]+)%\]\).*/\1 \2/' >"$TMPDIR/ci"
awk '{ exit !($1 < 2 && $2 > 2) }' "$TMPDIR/ci" || fail "interval $(cat "$TMPDIR/ci") misses +2%"
# Interleaved: A B A B ... on the testbed.
j=$TMPDIR/c1/journal.jsonl
[ "$(count_records "$j" measure)" -eq 10 ] || fail "measurements: $(count_records "$j" measure)"
grep '"type":"measure"' "$j" | sed -E 's/.*"config":"([0-9a-f]+)".*/\1/' | uniq | wc -l | grep -qx 10 ||
	fail "not interleaved"
# One run per layout seed (a deterministic target, as the kernel model):
# the layout sd is the seeds' spread, said to include any run noise, not
# "unknown".
study 5 0 0.02 >"$TMPDIR/s1.yaml"
"$TUNER" compare -q "$TMPDIR/s1.yaml" --a "" --b "-fa" --repeats 1 --layout 6 \
	--results "$TMPDIR/c1r" >"$TMPDIR/o1r" || fail "compare, one run per seed: $(cat "$TMPDIR/o1r")"
grep -q "^  noise: one run per layout seed, layout sd [0-9.]*% (the seeds' spread, run noise included); layout band" \
	"$TMPDIR/o1r" || fail "one run per seed: $(grep noise "$TMPDIR/o1r")"
"$TUNER" compare -q "$TMPDIR/s1.yaml" --a "" --b "-fa" --repeats 1 --layout 6 \
	--results "$TMPDIR/c1r" --format json >"$TMPDIR/o1r.json"
jq -e '.objectives[0] | .layout_sd_with_runs == true and .layout_sd > 0.005 and .layout_sd < 0.05' \
	"$TMPDIR/o1r.json" >/dev/null || fail "json: $(jq -c '.objectives[0]' "$TMPDIR/o1r.json")"
# A rerun measures nothing more and says the same.
"$TUNER" compare -q "$TMPDIR/s.yaml" --a "" --b "-fa" --repeats 5 --layout-sd 0 \
	--results "$TMPDIR/c1" >"$TMPDIR/o1b"
[ "$(count_records "$j" measure)" -eq 10 ] || fail "rerun measured again"
diff "$TMPDIR/o1" "$TMPDIR/o1b" || fail "rerun differs"

# PGO as the one change: the train command (run in the generate phase)
# leaves a profile that the use build turns into -fa, 2% faster.
{
	study 3 0.005 0 | sed '/^build:/d'
	cat <<'EOF2'
build:
  command: 'cp "$TUNER_SRC/extra" "$TUNER_OUT/a" && if [ "$TUNER_PGO" = use ]; then cat "$TUNER_PROFILE_DIR/p" >>"$TUNER_OUT/a"; fi'
  artifact: a
train: {command: 'test "$TUNER_PGO" = generate && echo -fa >"$TUNER_PROFILE_DIR/p"'}
EOF2
} >"$TMPDIR/p.yaml"
"$TUNER" compare -q "$TMPDIR/p.yaml" --a "" --b "" --b-pgo on --repeats 5 --layout-sd 0 \
	--results "$TMPDIR/cp" >"$TMPDIR/op" || fail "PGO compare failed: $(cat "$TMPDIR/op")"
grep -qx '  B: (no flags) (PGO on)' "$TMPDIR/op" || fail "PGO compare: $(head -3 "$TMPDIR/op")"
[ "$(verdict "$TMPDIR/op")" = "B is better" ] || fail "PGO verdict: $(verdict "$TMPDIR/op")"
jq -e -s '[.[] | select(.type == "build") | .pgo] | sort == [0, 1]' "$TMPDIR/cp/journal.jsonl" \
	>/dev/null || fail "PGO compare: want one build with PGO off and one with it on"
for args in "--a x --b y --b-pgo on" "--a x --b x --a-pgo sometimes" "--a-rev HEAD --b-rev HEAD --b-pgo on"; do
	set +e
	# shellcheck disable=SC2086
	"$TUNER" compare -q "$TMPDIR/p.yaml" $args >/dev/null 2>"$TMPDIR/err"
	rc=$?
	set -e
	[ $rc -eq 2 ] || fail "compare $args: exit $rc, want 2"
done
set +e
"$TUNER" compare -q "$TMPDIR/s.yaml" --a "" --b "" --b-pgo on >/dev/null 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q 'needs the study.s train command' "$TMPDIR/err" ||
	fail "PGO without a train command: exit $rc, $(cat "$TMPDIR/err")"

# GCC's last -O wins (gccopt): "-O3 -O2" builds -O2 and "-O2 -O3" -O3, two
# configurations to compare; "-O3 -O2" against "-O2" is one, refused.
"$TUNER" compare -q "$TMPDIR/s.yaml" --a "-O3 -O2" --b "-O2 -O3" --repeats 2 --layout-sd 0 \
	--results "$TMPDIR/cO" >"$TMPDIR/oO" 2>"$TMPDIR/err" ||
	fail "compare '-O3 -O2' with '-O2 -O3': $(cat "$TMPDIR/err")"
[ "$(count_records "$TMPDIR/cO/journal.jsonl" build)" -eq 2 ] || fail "'-O3 -O2' vs '-O2 -O3': not two builds"
set +e
"$TUNER" compare -q "$TMPDIR/s.yaml" --a "-O3 -O2" --b "-O2" >/dev/null 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q 'the same flags' "$TMPDIR/err" ||
	fail "'-O3 -O2' vs '-O2' (GCC builds -O2 for both): exit $rc, $(cat "$TMPDIR/err")"

# One layout seed a side and nothing assumed: compare cannot tell flags
# from layout luck, whatever the numbers.
"$TUNER" compare -q "$TMPDIR/s.yaml" --a "" --b "-fa" --repeats 5 --results "$TMPDIR/c2" >"$TMPDIR/o2"
case "$(verdict "$TMPDIR/o2")" in
"cannot separate from layout noise"*) ;;
*) fail "one layout: $(verdict "$TMPDIR/o2")" ;;
esac
grep -q 'layout band unknown' "$TMPDIR/o2" || fail "one layout: band"

# Layout noise 2%, true effect 1% (-fl): with 8 layout seeds a side the
# test runs on the seeds' means and reports the layout spread.
study 5 0.005 0.02 >"$TMPDIR/l.yaml"
"$TUNER" compare -q "$TMPDIR/l.yaml" --a "-fx" --b "-fl" --repeats 2 --layout 8 \
	--results "$TMPDIR/c3" >"$TMPDIR/o3" || fail "layout compare failed"
cat "$TMPDIR/o3"
grep -q "test: Welch's t on the layout seeds' means (8 against 8)" "$TMPDIR/o3" || fail "clustered test"
grep -qE 'layout sd [0-9.]+%; layout band ±[0-9.]+%' "$TMPDIR/o3" || fail "layout band line"
[ "$(count_records "$TMPDIR/c3/journal.jsonl" build)" -eq 16 ] || fail "8 seeds x 2 builds"
# One seed, assumed 2% layout sd: the interval widens to cover the truth.
"$TUNER" compare -q "$TMPDIR/l.yaml" --a "-fx" --b "-fl" --repeats 5 --layout-sd 2 \
	--results "$TMPDIR/c4" >"$TMPDIR/o4"
grep -q 'widened by the assumed layout sd' "$TMPDIR/o4" || fail "widened"
grep -q 'layout sd 2% (assumed)' "$TMPDIR/o4" || fail "assumed sd"

# Two revisions, same flags: v1's source adds -fa.
study 2 0.005 0 >"$TMPDIR/s.yaml"
"$TUNER" compare -q "$TMPDIR/s.yaml" --a-rev HEAD --b-rev HEAD~1 --flags "" --repeats 4 \
	--layout-sd 0 --results "$TMPDIR/c5" >"$TMPDIR/o5" || fail "rev compare failed: $(cat "$TMPDIR/o5")"
cat "$TMPDIR/o5"
[ "$(verdict "$TMPDIR/o5")" = "B is better" ] || fail "rev verdict: $(verdict "$TMPDIR/o5")"
grep -q "^  B: HEAD~1 ($(git -C "$repo" rev-parse --short=12 HEAD~1))" "$TMPDIR/o5" || fail "rev B line"

# Small seeded versions of the A/A and power benchmarks (bench/compare.sh
# runs 200 each): 20 A/A compares (two flags with no effect) at 0.5% run
# noise with 5 runs a side, and 20 with a true 2% difference.
fp=0
power=0
for seed in $(seq 101 120); do
	study "$seed" 0.005 0 >"$TMPDIR/s.yaml"
	"$TUNER" compare -q "$TMPDIR/s.yaml" --a "-fx" --b "-fy" --repeats 5 --layout-sd 0 \
		--results "$TMPDIR/aa$seed" >"$TMPDIR/aa"
	case "$(verdict "$TMPDIR/aa")" in
	"no significant difference"*) ;;
	*) fp=$((fp + 1)) ;;
	esac
	"$TUNER" compare -q "$TMPDIR/s.yaml" --a "-fx" --b "-fa" --repeats 5 --layout-sd 0 \
		--results "$TMPDIR/pw$seed" >"$TMPDIR/pw"
	[ "$(verdict "$TMPDIR/pw")" = "B is better" ] && power=$((power + 1))
	rm -rf "$TMPDIR/aa$seed" "$TMPDIR/pw$seed"
done
echo "A/A: $fp of 20 significant; power: $power of 20 detected"
[ $fp -le 2 ] || fail "A/A: $fp of 20 compares claimed a difference"
[ $power -ge 19 ] || fail "power: only $power of 20 compares found the 2%"

# Layout luck, small: 2% layout noise, a true 1% effect, one layout seed a
# side. Without an assumption compare never claims; with --layout-sd 2
# its claims must hold the truth, while the run-noise test it widened
# would have claimed most of them.
luck=0
naive=0
for seed in $(seq 201 215); do
	study "$seed" 0.005 0.02 >"$TMPDIR/l.yaml"
	"$TUNER" compare -q "$TMPDIR/l.yaml" --a "-fx" --b "-fl" --repeats 5 --results "$TMPDIR/lu" >"$TMPDIR/lu.out"
	case "$(verdict "$TMPDIR/lu.out")" in
	"cannot separate"*) ;;
	*) fail "one layout seed, seed $seed: $(verdict "$TMPDIR/lu.out")" ;;
	esac
	awk '/^  B - A/ { exit !($NF < 0.05) }' "$TMPDIR/lu.out" && naive=$((naive + 1))
	"$TUNER" compare -q "$TMPDIR/l.yaml" --a "-fx" --b "-fl" --repeats 5 --layout-sd 2 \
		--results "$TMPDIR/lu" >"$TMPDIR/lu.out"
	if [ "$(verdict "$TMPDIR/lu.out")" != "no significant difference" ]; then
		grep '^  B - A' "$TMPDIR/lu.out" | sed -E 's/.*\(\[([-+0-9.e]+)%, ([-+0-9.e]+)%\]\).*/\1 \2/' |
			awk '{ exit !($1 < 1 && $2 > 1) }' || luck=$((luck + 1))
	fi
	rm -rf "$TMPDIR/lu"
done
echo "layout luck: run-noise-only test significant in $naive of 15; false claims with --layout-sd 2: $luck of 15"
[ $naive -ge 8 ] || fail "the run-noise-only test should be fooled by layout luck ($naive of 15)"
[ $luck -le 1 ] || fail "layout luck passed for an effect $luck times of 15"

# Two flag strings that build the same code, judged by a measure command
# that reads the flags (noisy), under measure.same_code: share (the
# default): B is A's twin, measured once. compare says so before any
# figure, with the code id and the way out, and claims nothing.
study 3 0.005 0 | grep -v 'same_code: separate' >"$TMPDIR/share.yaml"
"$TUNER" compare -q "$TMPDIR/share.yaml" --a "" --b "-fa" --repeats 5 --layout-sd 0 \
	--fail-on change --results "$TMPDIR/csame" >"$TMPDIR/osame" 2>"$TMPDIR/esame" ||
	fail "same code: exit $?: $(cat "$TMPDIR/osame" "$TMPDIR/esame")"
cat "$TMPDIR/osame"
code=$(jq -r 'select(.type == "build") | .code' "$TMPDIR/csame/journal.jsonl" | sort -u)
[ "$(echo "$code" | wc -l)" -eq 1 ] && [ ${#code} -eq 40 ] || fail "same code: the builds' codes: $code"
[ "$(count_records "$TMPDIR/csame/journal.jsonl" measure)" -eq 5 ] ||
	fail "same code: $(count_records "$TMPDIR/csame/journal.jsonl" measure) measurements, want 5 (one side)"
# The fourth line, before the first objective's, says it.
sed -n 4p "$TMPDIR/osame" | grep -q "^A and B built the same code (code id ${code:0:12})" ||
	fail "same code: not said first: $(cat "$TMPDIR/osame")"
tr '\n' ' ' <"$TMPDIR/osame" | grep -q 'one program, measured once and shared, so this comparison cannot tell them apart' ||
	fail "same code: what it means is not said"
tr '\n' ' ' <"$TMPDIR/osame" | grep -q 'set measure.same_code: separate in the study' ||
	fail "same code: no word of measure.same_code: separate"
grep -q '^speed (max): A [0-9.]* ±[0-9.]* (n=5), B the same measurements$' "$TMPDIR/osame" ||
	fail "same code: the speed line"
[ "$(verdict "$TMPDIR/osame")" = "not compared: A and B are one program (the same code, measured once)" ] ||
	fail "same code: verdict $(verdict "$TMPDIR/osame")"
if grep -q 'no significant difference\|p = 1$\|B is better' "$TMPDIR/osame"; then
	fail "same code: a verdict on one program's samples: $(cat "$TMPDIR/osame")"
fi
grep -q 'note: --fail-on change: speed: not compared: .*, so not failing' "$TMPDIR/esame" ||
	fail "same code, --fail-on change: $(cat "$TMPDIR/esame")"
"$TUNER" compare -q "$TMPDIR/share.yaml" --a "" --b "-fa" --repeats 5 --layout-sd 0 \
	--results "$TMPDIR/csame" --format md >"$TMPDIR/osame.md"
grep -q "^- \*\*A and B built the same code\*\* (code id \`${code:0:12}\`)" "$TMPDIR/osame.md" ||
	fail "same code, md: $(cat "$TMPDIR/osame.md")"
"$TUNER" compare -q "$TMPDIR/share.yaml" --a "" --b "-fa" --repeats 5 --layout-sd 0 \
	--results "$TMPDIR/csame" --format json >"$TMPDIR/osame.json" 2>"$TMPDIR/esame"
jq -e --arg c "$code" '.same_code.code == $c and .same_code.one_program and .outcome == "same_code"' \
	"$TMPDIR/osame.json" >/dev/null || fail "same code, json: $(jq -c . "$TMPDIR/osame.json")"
grep -q '^tuner: compare: A and B built the same code' "$TMPDIR/esame" || fail "same code, json: stderr"
# Measured each (separate): a note, and the flags' true 2% found.
study 3 0.005 0 >"$TMPDIR/s.yaml"
"$TUNER" compare -q "$TMPDIR/s.yaml" --a "" --b "-fa" --repeats 5 --layout-sd 0 \
	--results "$TMPDIR/csep" >"$TMPDIR/osep"
tr '\n' ' ' <"$TMPDIR/osep" | grep -q "note: A and B built the same code (code id ${code:0:12}), each measured (measure.same_code: separate)" ||
	fail "separate: no note: $(cat "$TMPDIR/osep")"
[ "$(verdict "$TMPDIR/osep")" = "B is better" ] || fail "separate: verdict $(verdict "$TMPDIR/osep")"
# Different code: nothing said.
if grep -q "same code" "$TMPDIR/o5"; then fail "different code: $(cat "$TMPDIR/o5")"; fi

# Usage.
"$TUNER" compare --help | grep -q '^usage: tuner compare' || fail "--help"
diff <("$TUNER" compare --help) <("$TUNER" help compare) || fail "help differs"
for args in "--a x" "--a x --b x" "--a -O2 --b -O2" "--a-rev HEAD" "--a x --b y --a-rev HEAD --b-rev HEAD" \
	"--flags x --a x --b y" "--a x --b y --repeats 0" "--a x --b y --layout-sd -1"; do
	set +e
	# shellcheck disable=SC2086
	"$TUNER" compare -q "$TMPDIR/s.yaml" $args >/dev/null 2>"$TMPDIR/err"
	rc=$?
	set -e
	[ $rc -eq 2 ] || fail "compare $args: exit $rc, want 2"
	grep -q '^tuner: compare: ' "$TMPDIR/err" || fail "compare $args: $(cat "$TMPDIR/err")"
done
set +e
"$TUNER" compare -q "$TMPDIR/s.yaml" --a-rev nosuchrev --b-rev HEAD --results "$TMPDIR/bad" >/dev/null 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "bad revision: exit $rc"
grep -q "^tuner: $TMPDIR/s.yaml:" "$TMPDIR/err" || fail "bad revision: $(cat "$TMPDIR/err")"
echo ok
