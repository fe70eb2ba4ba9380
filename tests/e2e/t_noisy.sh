# SPDX-License-Identifier: GPL-2.0-or-later
# The noisy target itself: its truth, its noise and its determinism, since
# the racing and compare tests and benchmarks rest on it.
. "$ROOT/tests/e2e/lib.sh"

make_noisy
printf -- '# comment\n-O3 1.05 1.25\n-fa 0.98\n' >"$TMPDIR/truth"
val() { "$noisy" --truth "$TMPDIR/truth" "$@" | sed -n 's/^value //p'; }

# Truth, without noise: factors multiply; order and unknown flags do not
# matter; a flag matches only as a whole token.
[ "$(TUNER_FLAGS="-O3 -fa" val --run-sd 0 --layout-sd 0)" = "1029.000000" ] || fail "truth"
[ "$(TUNER_FLAGS="-fa -fx -O3" val --run-sd 0 --layout-sd 0 --base 100)" = "102.900000" ] || fail "order"
[ "$(TUNER_FLAGS="-fab -O3x" val --run-sd 0 --layout-sd 0)" = "1000.000000" ] || fail "whole tokens"
[ "$(TUNER_FLAGS="-O3 -fa" "$noisy" --truth "$TMPDIR/truth" --size 1000)" = "size 1250" ] || fail "size"

# Deterministic without state; the state file makes repeats differ.
a=$(TUNER_FLAGS=-O3 TUNER_RUN=2 val --seed 4)
[ "$a" = "$(TUNER_FLAGS=-O3 TUNER_RUN=2 val --seed 4)" ] || fail "not deterministic"
[ "$a" != "$(TUNER_FLAGS=-O3 TUNER_RUN=3 val --seed 4)" ] || fail "run index ignored"
[ "$a" != "$(TUNER_FLAGS=-O3 TUNER_RUN=2 val --seed 5)" ] || fail "seed ignored"
s1=$(TUNER_FLAGS=-O3 val --state "$TMPDIR/st")
s2=$(TUNER_FLAGS=-O3 val --state "$TMPDIR/st")
[ "$s1" != "$s2" ] && [ "$(cat "$TMPDIR/st")" = 2 ] || fail "state"

# Run noise: 400 draws of one build average to its (layout-shifted) value
# within 0.1% and spread 0.5% +- 0.1%.
base=$(TUNER_FLAGS=-fa TUNER_LAYOUT_SEED=1 val --seed 9 --run-sd 0)
for _ in $(seq 400); do TUNER_FLAGS=-fa TUNER_LAYOUT_SEED=1 val --seed 9 --state "$TMPDIR/r"; done >"$TMPDIR/runs"
awk -v b="$base" '{ s += $1; q += $1 * $1 } END {
	m = s / NR; sd = sqrt((q - NR * m * m) / (NR - 1)) / b
	printf "run noise: mean %.4f of %.4f, sd %.4f\n", m, b, sd
	exit !(m / b > 0.999 && m / b < 1.001 && sd > 0.004 && sd < 0.006) }' "$TMPDIR/runs" || fail "run noise"

# Layout offsets: fixed per (flags, layout seed); over 400 seeds they
# spread 2% +- 0.3% around the truth.
[ "$(TUNER_FLAGS=-fa TUNER_LAYOUT_SEED=7 val --run-sd 0)" = "$(TUNER_FLAGS=-fa TUNER_LAYOUT_SEED=7 val --run-sd 0)" ] ||
	fail "layout offset not fixed"
for l in $(seq 400); do TUNER_FLAGS=-fa TUNER_LAYOUT_SEED=$l val --run-sd 0; done >"$TMPDIR/layouts"
awk '{ s += $1; q += $1 * $1 } END {
	m = s / NR; sd = sqrt((q - NR * m * m) / (NR - 1)) / 980
	printf "layout: mean %.2f of 980, sd %.4f\n", m, sd
	exit !(m > 975 && m < 985 && sd > 0.017 && sd < 0.023) }' "$TMPDIR/layouts" || fail "layout noise"
echo ok
