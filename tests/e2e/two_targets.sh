# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/e2e/t_effects.sh and t_defaults.sh: two "targets" of the
# noisy target (targets/noisy) over one flag space, run with tuner run, with
# known truth and a known sign flip (the seeds' story: -fno-reorder-blocks
# +14% on one router, -16% on another).
#
#   A: -Os 0.95, -fno-reorder-blocks 1.14, -falign-functions=32 1.01;
#      size: -Os 0.88, -fno-reorder-blocks 1.01, -falign-functions=32 1.06,
#      and a size limit of 105000 (of 100000 at -O2) that rules out -O2 with
#      -falign-functions=32
#   B: -Os 0.97, -fno-reorder-blocks 0.84, -falign-functions=32 0.97;
#      the same sizes, no limit
#
# Layout noise 1% (2 layout seeds), run noise 0.5% (2 repeats), fixed seeds:
# the same numbers every time. Sets $A, $B (the study files) and $RA, $RB
# (their results directories).
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
make_noisy
cat >"$repo/truth-a" <<'EOF2'
-Os 0.95 0.88
-fno-reorder-blocks 1.14 1.01
-falign-functions=32 1.01 1.06
EOF2
cat >"$repo/truth-b" <<'EOF2'
-Os 0.97 0.88
-fno-reorder-blocks 0.84 1.01
-falign-functions=32 0.97 1.06
EOF2
# two_targets_study NAME TRUTH SEED [LIMIT]
two_targets_study() {
	cat <<EOF2
study: $1
source: {path: prog}
space:
  opt: [-O2, -Os]
  reorder: ["", -fno-reorder-blocks]
  align: ["", -falign-functions=32]
build: {command: ': > "\$TUNER_OUT/a"', artifact: a}
size: {of: artifact, measure: command, command: '$noisy --truth $repo/$2 --size 100000'}
measure:
  command: '$noisy --truth $repo/$2 --seed $3 --run-sd 0.005 --layout-sd 0.01'
  # The fake measurement judges the flags, not the program.
  same_code: separate
  repeats: 2
layout: {samples: 2}
objectives:
  - {name: speed, unit: Mbit/s, goal: max}
  - {name: size, unit: bytes, goal: min${4:+, limit: $4}}
EOF2
}
A=$repo/a.yaml
B=$repo/b.yaml
two_targets_study bcm53xx truth-a 11 105000 >"$A"
two_targets_study mt7621 truth-b 12 >"$B"
git -C "$repo" add -A && git -C "$repo" commit -q -m studies
RA=$TMPDIR/res-a
RB=$TMPDIR/res-b
"$TUNER" run -q --all --results "$RA" "$A" >"$TMPDIR/run-a" || fail "run A: $(cat "$TMPDIR/run-a")"
"$TUNER" run -q --all --results "$RB" "$B" >"$TMPDIR/run-b" || fail "run B: $(cat "$TMPDIR/run-b")"

