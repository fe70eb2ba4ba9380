# SPDX-License-Identifier: GPL-2.0-or-later
# tuner blame: delta debugging over flag differences. On the noisy target
# (known truth: only -fz changes the speed, by -5%; +-2% layout offsets per
# build, 0.5% run noise) it must name -fz for several seeds; on the fixture
# program, whose instruction count a real compiler decides, it must name
# the one flag that changes the count. Also: resume, usage errors.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
make_noisy
printf -- '-fz 0.95\n' >"$TMPDIR/truth"

noisy_study() {
	cat <<EOF2
study: bl
source: {repo: $repo, path: prog}
space:
  x: [""]
build: {command: ': > "\$TUNER_OUT/a"', artifact: a}
measure:
  command: '$TMPDIR/noisy --truth $TMPDIR/truth --seed $1 --run-sd 0.005 --layout-sd 0.02 --state "\$TUNER_OUT/draws"'
  # The fake measurement judges the flags, not the program: each build
  # is measured (the default shares builds whose code is the same).
  same_code: separate
objectives:
  - {name: speed, goal: max}
EOF2
}

culprit() { sed -n 's/^culprit: //p' "$1"; }

for seed in 1 2 3 4 5; do
	noisy_study $seed >"$TMPDIR/n.yaml"
	"$TUNER" blame -q "$TMPDIR/n.yaml" --good "-O2 -fv" --bad "-O3 -fw -fx -fy -fz" \
		--layout 12 --results "$TMPDIR/bn$seed" >"$TMPDIR/bn.out" ||
		fail "blame seed $seed: exit $?: $(cat "$TMPDIR/bn.out")"
	[ "$(culprit "$TMPDIR/bn.out")" = "{add -fz}" ] ||
		fail "seed $seed: culprit $(culprit "$TMPDIR/bn.out"): $(cat "$TMPDIR/bn.out")"
	grep -q '^  good + culprit vs good: -[0-9.]*% \[' "$TMPDIR/bn.out" || fail "no effect line"
done
grep -q '^  6 difference(s): -O2 -> -O3; drop -fv; add -fw; add -fx; add -fy; add -fz$' \
	"$TMPDIR/bn.out" || fail "differences: $(grep difference "$TMPDIR/bn.out")"

# A rerun resumes: nothing new is built or measured, same culprit.
"$TUNER" blame -q "$TMPDIR/n.yaml" --good "-O2 -fv" --bad "-O3 -fw -fx -fy -fz" \
	--layout 12 --results "$TMPDIR/bn5" >"$TMPDIR/again.out"
grep -q '^spent: 0 measurement runs, 0 builds' "$TMPDIR/again.out" ||
	fail "rerun spent: $(grep spent "$TMPDIR/again.out")"
[ "$(culprit "$TMPDIR/again.out")" = "{add -fz}" ] || fail "rerun culprit"

# No real difference: nothing to blame, exit 0.
"$TUNER" blame -q "$TMPDIR/n.yaml" --good "-fa" --bad "-fb" --layout 8 \
	--results "$TMPDIR/none" >"$TMPDIR/none.out" || fail "no-difference blame failed"
grep -q '^no significant difference between good and bad: nothing to blame$' "$TMPDIR/none.out" ||
	fail "no-difference output: $(cat "$TMPDIR/none.out")"

# The fixture program under valgrind: instruction counts are exact and do
# not depend on the layout pad, so the rule sees constant samples. Only
# -fno-inline (of -fno-inline, -fno-reorder-blocks, -falign-functions=64)
# changes how many instructions run.
cd "$repo"
write_study "$repo/f.yaml" fx <<'YAML'
  opt: ["-O2"]
YAML
sed -i 's/^  - {name: size, unit: bytes, goal: min}$//' f.yaml
"$TUNER" blame -q f.yaml --good "-O2" --bad "-O2 -fno-reorder-blocks -fno-inline -falign-functions=64" \
	--repeats 1 --layout 4 --results "$TMPDIR/bf" >"$TMPDIR/bf.out" ||
	fail "fixture blame: $(cat "$TMPDIR/bf.out")"
[ "$(culprit "$TMPDIR/bf.out")" = "{add -fno-inline}" ] ||
	fail "fixture culprit: $(cat "$TMPDIR/bf.out")"

# Usage errors: exit 2, nothing created.
set +e
"$TUNER" blame "$TMPDIR/n.yaml" --good "-O2" >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing --bad: not exit 2"
"$TUNER" blame "$TMPDIR/n.yaml" --good "-O2 -fx" --bad "-fx -O2" >/dev/null 2>&1; [ $? -eq 2 ] || fail "same flags: not exit 2"
"$TUNER" blame "$TMPDIR/missing.yaml" --good "-O2" --bad "-O3" >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing study: not exit 2"
"$TUNER" blame "$TMPDIR/n.yaml" --good "-O2" --bad "-O3" --layout x >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --layout: not exit 2"
set -e
"$TUNER" blame --help | grep -q '^usage: tuner blame' || fail "--help"
echo ok
