# SPDX-License-Identifier: GPL-2.0-or-later
# natbench, the bundled NAT fast-path target, built with its own Makefile
# (no tuner): every flag set, layout seed and PGO mode transmits the same
# bytes; every transmitted checksum and translation verifies; a layout seed
# moves the hot functions; the link map's ranges hold the fast path's
# functions and no other; the link check refuses libc in the fast path,
# whose memcpy and memset are its own; the score of one binary repeats
# exactly. (tests/e2e/t_natbench_cross.sh: the ARM and MIPS builds.)
. "$ROOT/tests/e2e/lib.sh"

src=$ROOT/targets/natbench
T=$TMPDIR/nb
mkdir -p "$T"
packets=20000

# build NAME FLAGS SEED PGO [PROFILE_DIR]
build() {
	local name=$1 flags=$2 seed=$3 pgo=$4 prof=${5:-}
	# A make running this test must not lend us its job server.
	MAKEFLAGS='' MFLAGS='' MAKELEVEL='' \
		TUNER_OUT=$T/$name TUNER_FLAGS=$flags TUNER_LAYOUT_SEED=$seed \
		TUNER_PGO=$pgo TUNER_PROFILE_DIR=$prof TUNER_JOBS=2 \
		make -s -f "$src/Makefile" >"$T/$name.log" 2>&1 ||
		fail "build $name ($flags, seed $seed, pgo $pgo): $(tail -5 "$T/$name.log")"
	[ -x "$T/$name/natbench" ] || fail "build $name: no artifact"
}

# check NAME: --verify passes; prints the checksum line
check() {
	local out
	out=$("$T/$1/natbench" --packets $packets --verify 2>"$T/$1.verify") ||
		fail "$1: --verify failed: $(cat "$T/$1.verify")"
	grep -q 'bad=0 translation_errors=0' "$T/$1.verify" ||
		fail "$1: verify summary: $(cat "$T/$1.verify")"
	echo "$out" | grep -E '^natbench: packets=[0-9]+ bytes=[0-9]+ tx=[0-9]+ checksum=[0-9a-f]{8}$' ||
		fail "$1: no checksum line: $out"
}

build o2 "-O2" 0 off
build os "-Os" 0 off
build o3nrb "-O3 -fno-reorder-blocks" 0 off
build o2a64 "-O2 -falign-functions=64" 0 off
build o2s5 "-O2" 5 off
# tuner layout's planted effect (fp_plant.c) adds work, not behaviour.
build o2plant "-O2 -DNB_PLANT_PAD=24" 2 off
# The seeds' ".align 5" on the DMA range functions (fp_dma.c).
build o2dma32 "-O2 -DNB_DMA_ALIGN=32" 0 off

# One PGO cycle, as the tuner runs it: instrumented build, training run
# (its own seed), then the build that uses the profile, in another
# directory, where every function must still find its profile (the build
# fails otherwise: -Werror=missing-profile; with absolute object names,
# static functions lost theirs).
build pgogen "-O2" 0 generate
TUNER_ARTIFACT=$T/pgogen/natbench TUNER_OUT=$T/pgogen TUNER_PROFILE_DIR=$T/prof \
	"$src/train.sh" || fail "train.sh failed"
ls "$T"/prof/fp_*.gcda >/dev/null 2>&1 || fail "train.sh left no fp_*.gcda"
build pgouse "-O2" 0 use "$T/prof"
readelf -SW "$T/pgouse/fp_nf.o" >"$T/pgouse.sections"
readelf -SW "$T/o2/fp_nf.o" >"$T/o2.sections"
grep -q '\.text\.hot' "$T/pgouse.sections" ||
	fail "the PGO use build has no .text.hot: profile not used"
if grep -q '\.text\.hot' "$T/o2.sections"; then
	fail "a plain build has .text.hot"
fi

ref=$(check o2)
for b in os o3nrb o2a64 o2s5 o2plant o2dma32 pgogen pgouse; do
	got=$(check $b)
	[ "$got" = "$ref" ] || fail "$b transmits other bytes: '$got' vs '$ref' (-O2)"
done

# ccache (the study's TUNER_CACHE): a second build compiles none of the
# harness and the generator (every object but the fast path's is a hit),
# and what ccache gives back links into the code a build without it makes.
command -v ccache >/dev/null || fail "ccache is not installed (scripts/install-deps.sh)"
export TUNER_CACHE=$T/cache
build c1 "-Os" 0 off
build c2 "-O2" 0 off
unset TUNER_CACHE
harness=$(cd "$T/c2" && ls ./*.o | grep -vc '^./fp_')
hits=$(CCACHE_DIR=$T/cache/ccache ccache --print-stats |
	awk '$1 == "direct_cache_hit" { print $2 }')
[ "$harness" -ge 12 ] || fail "c2 has $harness harness objects"
[ "$hits" = "$harness" ] ||
	fail "ccache: $hits hits for the $harness harness objects of the second build"
for b in o2 c2; do
	objcopy -O binary --only-section=.text "$T/$b/natbench" "$T/$b.text"
done
cmp -s "$T/o2.text" "$T/c2.text" || fail "the build through ccache has other code than -O2 without"

# The layout seed moves code, not behaviour: the same functions at other
# addresses, and a pad at the start of the hot text.
nm "$T/o2s5/natbench" >"$T/o2s5.nm"
nm "$T/o2/natbench" >"$T/o2.nm"
addr() { awk -v f="$2" '$3 == f { print $1 }' "$T/$1.nm"; }
for f in bgmac_poll ipt_do_table nf_conntrack_in; do
	a=$(addr o2 $f)
	b=$(addr o2s5 $f)
	if [ -z "$a" ] || [ -z "$b" ]; then fail "no symbol $f"; fi
	[ "$a" != "$b" ] || fail "layout seed 5 left $f at $a"
done
# (Symbol lists are files: grep -q on a pipe can SIGPIPE nm, and
# pipefail would call that a failure.)
grep -q ' natbench_pad$' "$T/o2s5.nm" || fail "seed 5 links no pad"
# -DNB_DMA_ALIGN=32 aligns v7_dma_inv_range and v7_dma_clean_range, and
# changes no other fast-path object.
check_dma_align "" "$T/o2" "$T/o2dma32" o2dma32
nm "$T/o2plant/natbench" >"$T/o2plant.nm"
grep -q ' nb_plant_mix$' "$T/o2plant.nm" || fail "the plant build has no plant"
if grep -q 'nb_plant' "$T/o2.nm"; then
	fail "a plain build links the plant"
fi
if grep -q ' natbench_pad$' "$T/o2.nm"; then
	fail "seed 0 links a pad"
fi

# Where the code is (natbench.ranges, from the link map): every fast-path
# function in an fp range, every harness function in an own range, no
# other function in any; with and without PGO (.text.hot, .text.unlikely),
# a pad, the plant.
for b in o2 o2s5 o2plant pgogen pgouse; do
	sh "$src/check-ranges.sh" "$T/$b" >"$T/$b.ranges.check" ||
		fail "$b ranges: $(head -5 "$T/$b.ranges.check")"
done

# Scoring: the natbench line, then cachegrind's file; the same binary scored
# twice gives the same counts (everything but the cmd: line, which names
# the temporary copy).
for run in 0 1; do
	TUNER_ARTIFACT=$T/o2/natbench TUNER_OUT=$T/o2 TUNER_RUN=$run \
		"$src/score.sh" >"$T/score.$run" || fail "score.sh run $run failed"
	head -1 "$T/score.$run" | grep -q '^natbench: packets=30000 bytes=[0-9]* tx=' ||
		fail "score.sh: first line: $(head -1 "$T/score.$run")"
	grep -q '^events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw' "$T/score.$run" ||
		fail "score.sh: no cache-simulation events"
	grep -q '^fl=.*/fp_ct.c$' "$T/score.$run" || fail "score.sh: no counts for fp_ct.c"
done
grep -v '^cmd:' "$T/score.0" >"$T/score.0.cmp"
grep -v '^cmd:' "$T/score.1" >"$T/score.1.cmp"
cmp -s "$T/score.0.cmp" "$T/score.1.cmp" ||
	fail "two scoring runs differ: $(grep '^summary' "$T/score.0" "$T/score.1")"

# A failing run is an error, not a score.
if TUNER_ARTIFACT=/bin/false TUNER_OUT=$T/o2 "$src/score.sh" >/dev/null 2>&1; then
	fail "score.sh accepted a run without a checksum line"
fi

# The link check, with a test's extra fast-path file (NB_EXTRA_FP) in the
# -O2 build: one that calls libc is refused, the artifact left as it was;
# one whose loops gcc turns into memcpy and memset links, and calls the
# fast path's own (fp_mem.c), not libc's.
cat >"$T/fp_xlibc.c" <<'EOF'
#include <stddef.h>

size_t strlen(const char *s);

size_t fp_xlibc_len(const char *s)
{
	return strlen(s);
}
EOF
cat >"$T/fp_xhelp.c" <<'EOF'
#include "fp_util.h"

void fp_xhelp_fill(uint8_t *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		d[i] = 0;
}

void fp_xhelp_move(uint8_t *restrict d, const uint8_t *restrict s, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		d[i] = s[i];
}
EOF
# extra FILE: the -O2 build again, with FILE in its fast path
extra() {
	MAKEFLAGS='' MFLAGS='' MAKELEVEL='' NB_EXTRA_FP=$1 \
		TUNER_OUT=$T/o2 TUNER_FLAGS=-O2 TUNER_LAYOUT_SEED=0 TUNER_PGO=off TUNER_JOBS=2 \
		make -s -f "$src/Makefile" >"$T/extra.log" 2>&1
}
cp "$T/o2/natbench" "$T/o2.before"
if extra "$T/fp_xlibc.c"; then
	fail "the link check took a fast path that calls strlen"
fi
grep -q 'natbench: fast path calls outside itself: strlen$' "$T/extra.log" ||
	fail "link check: $(tail -3 "$T/extra.log")"
cmp -s "$T/o2/natbench" "$T/o2.before" || fail "a refused link changed the artifact"
extra "$T/fp_xhelp.c" || fail "the fast path's own memcpy/memset refused: $(tail -3 "$T/extra.log")"
nm -u "$T/o2/fp_xhelp.o" >"$T/xhelp.u"
if ! grep -q ' nb_memcpy$' "$T/xhelp.u" || ! grep -q ' nb_memset$' "$T/xhelp.u"; then
	fail "gcc's memcpy and memset do not go to the fast path's: $(cat "$T/xhelp.u")"
fi
if grep -qE ' (memcpy|memset|memmove)$' "$T/xhelp.u"; then
	fail "the fast path calls libc's memcpy/memset/memmove"
fi
sh "$src/check-ranges.sh" "$T/o2" >"$T/xhelp.ranges.check" ||
	fail "with fp_xhelp.c, ranges: $(head -5 "$T/xhelp.ranges.check")"
if grep -q ' fp_x' "$T/o2.nm"; then
	fail "a test's fast-path file in a normal build"
fi
got=$(check o2)
[ "$got" = "$ref" ] || fail "-O2 with fp_xhelp.c transmits other bytes"
echo ok

