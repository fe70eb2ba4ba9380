# SPDX-License-Identifier: GPL-2.0-or-later
# natbench as router code: cross-compiled for a Cortex-A9 (NB_ARCH=a9) and
# a MIPS 1004K (NB_ARCH=1004k), statically, and run under qemu-user
# (run.sh). For each: -O2, -Os with layout seed 3, one PGO cycle at -O2
# (generate, train.sh under qemu, use), and -O2 -DNB_DMA_ALIGN=32. Every
# build transmits the bytes the host build does and passes --verify; the
# DMA cache maintenance by line is out of line, and the alignment switch
# aligns v7_dma_inv_range and v7_dma_clean_range and changes no other
# code; the link map's ranges
# hold every fast-path function and no harness or libc function; the link
# check refuses a fast-path object that calls libc, and takes one that
# needs libgcc's helpers and copies a structure (through the fast path's
# own memcpy, never libc's).
. "$ROOT/tests/e2e/lib.sh"

src=$ROOT/targets/natbench
T=$TMPDIR/nbx
mkdir -p "$T"
packets=5000

for tool in arm-linux-gnueabihf-gcc mipsel-linux-gnu-gcc qemu-arm qemu-mipsel; do
	command -v $tool >/dev/null || fail "$tool is missing (scripts/install-deps.sh)"
done

# build ARCH NAME FLAGS SEED PGO [PROFILE_DIR]
build() {
	local arch=$1 name=$2 flags=$3 seed=$4 pgo=$5 prof=${6:-}
	# A make running this test must not lend us its job server.
	MAKEFLAGS='' MFLAGS='' MAKELEVEL='' NB_ARCH=$arch \
		TUNER_OUT=$T/$name TUNER_FLAGS=$flags TUNER_LAYOUT_SEED=$seed \
		TUNER_PGO=$pgo TUNER_PROFILE_DIR=$prof TUNER_JOBS=2 \
		make -s -f "$src/Makefile" >"$T/$name.log" 2>&1 ||
		fail "build $name ($arch, $flags, seed $seed, pgo $pgo): $(grep -v 'abicalls files' "$T/$name.log" | tail -5)"
	[ -x "$T/$name/natbench" ] || fail "build $name: no artifact"
	[ -s "$T/$name/natbench.ranges" ] || fail "build $name: no ranges"
}

# share FROM TO: what does not depend on the flags (mkapps, the generated
# sources, the harness objects) goes from one build directory to another
# of the same machine, times kept, as train.sh hands it to a PGO use
# build: the builds of a machine compile it once.
share() {
	mkdir -p "$T/$2"
	(cd "$T/$1" && cp -p mkapps .generated fp_app[0-9]*.c fp_apps.c apps_tab.c \
		apps_tab.o main.o gen.o gen_flow.o gen_pkt.o gen_msg.o wire.o verify.o \
		config.o config_rules.o "$T/$2/") || fail "share $1 $2"
}

# check NAME: --verify passes (under qemu-user for a cross build); prints
# the checksum line
check() {
	local out
	out=$(sh "$src/run.sh" "$T/$1/natbench" --packets $packets --verify 2>"$T/$1.verify") ||
		fail "$1: --verify failed: $(cat "$T/$1.verify")"
	grep -q 'bad=0 translation_errors=0' "$T/$1.verify" ||
		fail "$1: verify summary: $(cat "$T/$1.verify")"
	echo "$out" | grep -E '^natbench: packets=[0-9]+ bytes=[0-9]+ tx=[0-9]+ checksum=[0-9a-f]{8}$' ||
		fail "$1: no checksum line: $out"
}

# The reference: the host build, the same traffic. At -O0, the cheapest
# to build: the bytes are the same for every flag set (t_natbench.sh),
# and so one more flag set is checked.
build host host "-O0" 0 off
ref=$(check host)
ref_full=$("$T/host/natbench") || fail "host: default run failed"
sh "$src/check-ranges.sh" "$T/host" nm >"$T/host.ranges.check" ||
	fail "host ranges: $(head -5 "$T/host.ranges.check")"

# Test-only fast-path files (NB_EXTRA_FP): one calls libc, one needs
# libgcc (64-bit division), copies and clears a structure too large to
# inline, and has loops gcc turns into memcpy and memset.
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

struct fp_xblk { uint32_t w[64]; };

void fp_xhelp_copy(struct fp_xblk *d, const struct fp_xblk *s)
{
	*d = *s;
}

void fp_xhelp_clear(struct fp_xblk *d)
{
	*d = (struct fp_xblk){ { 0 } };
}

/* Loops gcc recognises as a fill and a copy. */
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

uint64_t fp_xhelp_div(uint64_t a, uint64_t b)
{
	return a / b;
}
EOF

for arch in a9 1004k; do
	case $arch in
	a9) cross=arm-linux-gnueabihf- machine='ARM' ;;
	1004k) cross=mipsel-linux-gnu- machine='MIPS R3000' ;;
	esac
	nm=${cross}nm

	build $arch $arch-o2 "-O2" 0 off
	share $arch-o2 $arch-os3
	build $arch $arch-os3 "-Os" 3 off
	share $arch-o2 $arch-pgogen
	build $arch $arch-pgogen "-O2" 0 generate
	TUNER_ARTIFACT=$T/$arch-pgogen/natbench TUNER_OUT=$T/$arch-pgogen \
		TUNER_PROFILE_DIR=$T/$arch-prof "$src/train.sh" ||
		fail "$arch: train.sh failed"
	ls "$T/$arch-prof"/fp_*.gcda >/dev/null 2>&1 || fail "$arch: train.sh left no fp_*.gcda"
	build $arch $arch-pgouse "-O2" 0 use "$T/$arch-prof"
	share $arch-o2 $arch-dma32
	build $arch $arch-dma32 "-O2 -DNB_DMA_ALIGN=32" 0 off

	# Real code of the router's machine, static, run by qemu-user.
	readelf -h "$T/$arch-o2/natbench" >"$T/$arch.elf"
	grep -q "Machine: *$machine\$" "$T/$arch.elf" || fail "$arch: $(grep Machine "$T/$arch.elf")"
	grep -q 'Type: *EXEC' "$T/$arch.elf" || fail "$arch: not a static executable: $(grep Type "$T/$arch.elf")"
	if readelf -lW "$T/$arch-o2/natbench" | grep -q INTERP; then
		fail "$arch: dynamically linked"
	fi
	case $arch in
	a9)
		# ARM mode (no Thumb bit on our functions), and the fast path
		# keeps off the VFP/NEON registers as a kernel does.
		"${cross}nm" "$T/$arch-o2/main.o" "$T/$arch-o2/fp_ct.o" >"$T/$arch.syms"
		if awk '$2 ~ /^[Tt]$/ && $3 !~ /^\$/' "$T/$arch.syms" | grep -q '[13579bdf] [Tt] '; then
			fail "a9: Thumb functions in ARM-mode objects"
		fi
		"${cross}objdump" -d "$T/$arch-o2"/fp_*.o "$T/$arch-pgouse"/fp_*.o >"$T/$arch.dis"
		if grep -qE '	v[a-z0-9.]+	' "$T/$arch.dis"; then
			fail "a9: VFP/NEON in the fast path: $(grep -E '	v[a-z0-9.]+	' "$T/$arch.dis" | head -3)"
		fi
		;;
	1004k)
		# Not abicalls, not PIC: no $gp calls, no _gp_disp.
		readelf -h "$T/$arch-o2/fp_ct.o" >"$T/$arch.obj"
		grep -q 'Flags:.*mips32r2' "$T/$arch.obj" || fail "1004k: $(grep Flags "$T/$arch.obj")"
		if grep -q 'Flags:.*pic' "$T/$arch.obj"; then
			fail "1004k: PIC or abicalls code: $(grep Flags "$T/$arch.obj")"
		fi
		;;
	esac

	# Same bytes as the host, every flag set, layout and PGO mode.
	for b in o2 os3 pgogen pgouse dma32; do
		got=$(check $arch-$b)
		[ "$got" = "$ref" ] || fail "$arch-$b transmits other bytes: '$got' vs '$ref' (host)"
	done
	got=$(sh "$src/run.sh" "$T/$arch-o2/natbench") || fail "$arch-o2: default run failed"
	[ "$got" = "$ref_full" ] || fail "$arch-o2, default traffic: '$got' vs '$ref_full' (host)"

	# The layout seed moves the code, and links the pad.
	"${cross}nm" "$T/$arch-o2/natbench" >"$T/$arch-o2.nm"
	"${cross}nm" "$T/$arch-os3/natbench" >"$T/$arch-os3.nm"
	grep -q ' natbench_pad$' "$T/$arch-os3.nm" || fail "$arch: seed 3 links no pad"
	if grep -q ' natbench_pad$' "$T/$arch-o2.nm"; then
		fail "$arch: seed 0 links a pad"
	fi

	# The DMA cache maintenance by line (the kernel's assembly functions
	# in cache-v7.S and the L2 controller's driver) stays out of line;
	# -DNB_DMA_ALIGN=32 puts v7_dma_inv_range and v7_dma_clean_range,
	# and nothing else, on 32-byte boundaries (the seeds' ".align 5"):
	# every other fast-path object is byte for byte the -O2 one, and
	# fp_dma.o's functions keep their sizes.
	for f in v7_dma_inv_range v7_dma_clean_range l2c210_inv_range l2c210_clean_range; do
		grep -q " [Tt] $f\$" "$T/$arch-o2.nm" || fail "$arch: $f is not a function of its own"
	done
	check_dma_align "$cross" "$T/$arch-o2" "$T/$arch-dma32" "$arch-dma32"
	for b in o2 dma32; do
		readelf -sW "$T/$arch-$b/fp_dma.o" | awk '$4 == "FUNC" { print $8, $3 }' | sort >"$T/$arch-$b.dmafn"
	done
	cmp -s "$T/$arch-o2.dmafn" "$T/$arch-dma32.dmafn" ||
		fail "$arch: -DNB_DMA_ALIGN=32 changed fp_dma.o's functions: $(diff "$T/$arch-o2.dmafn" "$T/$arch-dma32.dmafn" | head -4)"

	# The use build used the profile.
	readelf -SW "$T/$arch-pgouse/fp_nf.o" >"$T/$arch-pgouse.sections"
	readelf -SW "$T/$arch-o2/fp_nf.o" >"$T/$arch-o2.sections"
	grep -q '\.text\.hot' "$T/$arch-pgouse.sections" ||
		fail "$arch: the PGO use build has no .text.hot: profile not used"
	if grep -q '\.text\.hot' "$T/$arch-o2.sections"; then
		fail "$arch: a plain build has .text.hot"
	fi

	# Where the code is: every fast-path function in an fp range, every
	# harness function in an own range, nothing else in any.
	for b in o2 os3 pgogen pgouse; do
		sh "$src/check-ranges.sh" "$T/$arch-$b" "$nm" >"$T/$arch-$b.ranges.check" ||
			fail "$arch-$b ranges: $(head -5 "$T/$arch-$b.ranges.check")"
	done
	grep -q '^fp ' "$T/$arch-pgouse/natbench.ranges" || fail "$arch-pgouse: no fp range"

	# The link check, on the -Os build (where gcc calls memcpy for a
	# structure copy on ARM and MIPS alike): libc is refused, and the
	# artifact stays as it was...
	cp "$T/$arch-os3/natbench" "$T/$arch-os3.before"
	if MAKEFLAGS='' MFLAGS='' MAKELEVEL='' NB_ARCH=$arch NB_EXTRA_FP=$T/fp_xlibc.c \
		TUNER_OUT=$T/$arch-os3 TUNER_FLAGS=-Os TUNER_LAYOUT_SEED=3 TUNER_JOBS=2 \
		make -s -f "$src/Makefile" >"$T/$arch-xlibc.log" 2>&1; then
		fail "$arch: the link check took a fast path that calls strlen"
	fi
	grep -q 'natbench: fast path calls outside itself: strlen$' "$T/$arch-xlibc.log" ||
		fail "$arch: link check: $(tail -3 "$T/$arch-xlibc.log")"
	cmp -s "$T/$arch-os3/natbench" "$T/$arch-os3.before" || fail "$arch: a refused link changed the artifact"
	# ... libgcc's helpers and the fast path's own memcpy and memset are
	# not, and gcc's own calls go to them.
	MAKEFLAGS='' MFLAGS='' MAKELEVEL='' NB_ARCH=$arch NB_EXTRA_FP=$T/fp_xhelp.c \
		TUNER_OUT=$T/$arch-os3 TUNER_FLAGS=-Os TUNER_LAYOUT_SEED=3 TUNER_JOBS=2 \
		make -s -f "$src/Makefile" >"$T/$arch-xhelp.log" 2>&1 ||
		fail "$arch: link check refused libgcc or nb_memcpy: $(grep -v 'abicalls files' "$T/$arch-xhelp.log" | tail -3)"
	$nm -u "$T/$arch-os3/fp_xhelp.o" >"$T/$arch-xhelp.u"
	grep -q ' nb_memcpy$' "$T/$arch-xhelp.u" ||
		fail "$arch: the structure copy does not call the fast path's memcpy: $(cat "$T/$arch-xhelp.u")"
	grep -q ' nb_memset$' "$T/$arch-xhelp.u" ||
		fail "$arch: the structure clear does not call the fast path's memset: $(cat "$T/$arch-xhelp.u")"
	grep -qE ' (__aeabi_uldivmod|__udivdi3)$' "$T/$arch-xhelp.u" ||
		fail "$arch: no libgcc division helper: $(cat "$T/$arch-xhelp.u")"
	if grep -qE ' (memcpy|memset|memmove)$' "$T/$arch-xhelp.u"; then
		fail "$arch: the fast path calls libc's memcpy/memset/memmove"
	fi
	sh "$src/check-ranges.sh" "$T/$arch-os3" "$nm" >"$T/$arch-xhelp.ranges.check" ||
		fail "$arch with fp_xhelp.c, ranges: $(head -5 "$T/$arch-xhelp.ranges.check")"
	if grep -q ' fp_x' "$T/$arch-o2.nm" "$T/$arch-os3.nm"; then
		fail "$arch: a test's fast-path file in a normal build"
	fi
	got=$(check $arch-os3)
	[ "$got" = "$ref" ] || fail "$arch-os3 with fp_xhelp.c transmits other bytes"
done
echo ok
