#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The qemu-linux study's build command: cross-builds the kernel in $TUNER_SRC
# out of tree into $TUNER_OUT for QEMU's vexpress-a9 as a minimal NAT
# router (tinyconfig + router.config), and leaves the artifact
# $TUNER_OUT/arch/arm/boot/zImage with the device tree beside it
# (arch/arm/boot/dts/vexpress-v2p-ca9.dtb).
#
# Environment (set by tuner; flags only ever reach make as variables):
#   TUNER_SRC          the kernel tree (read only)
#   TUNER_OUT          this build's output directory
#   TUNER_FLAGS        candidate flags, given to the kernel as KCFLAGS. The
#                      last -O word also picks the kernel's optimisation
#                      option: -Os -> CONFIG_CC_OPTIMIZE_FOR_SIZE, any other
#                      -O (or none) -> CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE
#                      (-O2). -O3 has no option upstream: it works through
#                      KCFLAGS, which come after the kernel's own -O2.
#   TUNER_JOBS         make -j (default 2)
#   TUNER_LAYOUT_SEED  0: plain link. N > 0: a pad of seed-derived size
#                      (4..4096 bytes, a multiple of 4) is linked into the
#                      kernel text ahead of every other object, moving all
#                      code after it, as an unrelated commit does.
#   TUNER_PGO          off; generate: the kernel with gcov
#                      (CONFIG_DEBUG_FS, CONFIG_GCOV_KERNEL,
#                      CONFIG_GCOV_PROFILE_ALL), for train.sh to profile;
#                      use: the .gcda tree in TUNER_PROFILE_DIR (laid out
#                      like the build directory, as train.sh leaves it) is
#                      copied next to the objects and the kernel is built
#                      with -fprofile-use. The config is otherwise the same
#                      as off, so a use build compares with an off build.
#   TUNER_PROFILE_DIR  with use: the profile tree
# Options:
#   TUNER_KERNEL_WORK    work area (default <repo>/results/qemu-linux-work)
#   TUNER_KERNEL_CCACHE  1 (default when ccache is installed): compile
#                        through ccache, CCACHE_DIR=$TUNER_KERNEL_WORK/ccache
#   TUNER_KERNEL_CROSS   cross prefix (default arm-linux-gnueabihf-)
#   TUNER_KERNEL_EXTRA_CONFIG  a config fragment merged after router.config
#                        (default: none); every option it sets must
#                        survive olddefconfig, as router.config's must
#                        (targets/lab-router/lab.config uses it)
#   TUNER_KERNEL_LOCK    lock file shared with measure.sh (default
#                        $TUNER_KERNEL_WORK/cpu.lock): builds hold it shared,
#                        a measurement exclusively, so no measurement runs
#                        while a kernel compiles on this 2-core machine.
# Prints the sizes on stderr (build.log) and into $TUNER_OUT/tuner-sizes.txt.
set -euo pipefail
set -f # TUNER_FLAGS is split into words below, never globbed

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
: "${TUNER_SRC:?TUNER_SRC not set}" "${TUNER_OUT:?TUNER_OUT not set}"
flags=${TUNER_FLAGS-}
jobs=${TUNER_JOBS:-2}
seed=${TUNER_LAYOUT_SEED:-0}
cross=${TUNER_KERNEL_CROSS:-arm-linux-gnueabihf-}
lock=${TUNER_KERNEL_LOCK:-$work/cpu.lock}
extra=${TUNER_KERNEL_EXTRA_CONFIG:-}
if [ -n "$extra" ] && [ ! -f "$extra" ]; then
	echo "build.sh: no config fragment $extra (TUNER_KERNEL_EXTRA_CONFIG)" >&2
	exit 1
fi

pgo=${TUNER_PGO:-off}
case $pgo in
off | generate) ;;
use)
	: "${TUNER_PROFILE_DIR:?TUNER_PGO=use needs TUNER_PROFILE_DIR}"
	[ -n "$(find "$TUNER_PROFILE_DIR" -name '*.gcda' -print -quit 2>/dev/null)" ] ||
		{ echo "build.sh: no .gcda under $TUNER_PROFILE_DIR" >&2; exit 1; }
	;;
*) echo "build.sh: bad TUNER_PGO '$pgo' (off, generate or use)" >&2; exit 1 ;;
esac
case $seed in *[!0-9]* | '') echo "build.sh: bad TUNER_LAYOUT_SEED '$seed'" >&2; exit 1 ;; esac

# An outer make (make test-kernel) must not lend us its job server.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKE_TERMOUT MAKE_TERMERR
# Reproducible images: the build date, user and host otherwise land in the
# kernel (and the built-in initramfs's mtimes), and XZ turns that into
# zImage sizes ~1 KB apart for the same code; the size objective compares
# sizes exactly.
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-@0}
export KBUILD_BUILD_USER=${KBUILD_BUILD_USER:-tuner}
export KBUILD_BUILD_HOST=${KBUILD_BUILD_HOST:-tuner}

opt=performance
for w in $flags; do
	case $w in
	-Os | -Oz) opt=size ;;
	-O*) opt=performance ;;
	esac
done

mkdir -p "$work" "$TUNER_OUT"
B=$(cd "$TUNER_OUT" && pwd)
exec 9>"$lock"
flock -s 9

kmake=(make -s -C "$TUNER_SRC" O="$B" ARCH=arm CROSS_COMPILE="$cross" -j"$jobs")
# Not for PGO builds: an instrumented object holds the absolute path of its
# .gcda (its own build directory), which a cache hit made in another
# directory would get wrong, and a profile-use compile reads a .gcda that
# must not be answered from a cache.
if [ "${TUNER_KERNEL_CCACHE:-1}" = 1 ] && [ "$pgo" = off ] && command -v ccache >/dev/null; then
	export CCACHE_DIR=$work/ccache
	# Build directories differ per configuration: hash relative paths.
	export CCACHE_BASEDIR=/
	export CCACHE_NOHASHDIR=1
	kmake+=(CC="ccache ${cross}gcc")
fi

# Layout pad: an object of seed-derived size, put ahead of everything else in
# the final vmlinux links by a small ld wrapper (any kernel tree, no source
# change). Seed 0 links nothing extra.
if [ "$seed" -gt 0 ]; then
	pad=$(( ((seed * 2654435761) % 1024 + 1) * 4 ))
	printf '\t.section .text\n\t.globl tuner_layout_pad\ntuner_layout_pad:\n\t.space %d\n' "$pad" \
		>"$B/tuner_layout_pad.S"
	"${cross}gcc" -c -o "$B/tuner_layout_pad.o" "$B/tuner_layout_pad.S"
	cat >"$B/tuner-ld" <<EOW
#!/bin/sh
# Links $B/tuner_layout_pad.o ($pad bytes) first into vmlinux (layout seed $seed).
for a; do
	if [ "\$a" = vmlinux.a ]; then
		exec ${cross}ld "$B/tuner_layout_pad.o" "\$@"
	fi
done
exec ${cross}ld "\$@"
EOW
	chmod +x "$B/tuner-ld"
	kmake+=(LD="$B/tuner-ld")
	echo "build.sh: layout seed $seed: pad of $pad bytes ahead of the kernel text" >&2
fi

start=$(date +%s.%N)
"${kmake[@]}" tinyconfig >/dev/null
{
	cat "$here/router.config"
	if [ -n "$extra" ]; then cat "$extra"; fi
	if [ $opt = size ]; then
		echo "CONFIG_CC_OPTIMIZE_FOR_SIZE=y"
		echo "# CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE is not set"
	else
		echo "CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y"
		echo "# CONFIG_CC_OPTIMIZE_FOR_SIZE is not set"
	fi
	if [ "$pgo" = generate ]; then
		echo "CONFIG_DEBUG_FS=y"
		echo "CONFIG_GCOV_KERNEL=y"
		echo "CONFIG_GCOV_PROFILE_ALL=y"
	fi
} >"$B/tuner.fragment"
(cd "$B" && ARCH=arm CROSS_COMPILE="$cross" \
	"$TUNER_SRC/scripts/kconfig/merge_config.sh" -m -O "$B" "$B/.config" "$B/tuner.fragment" >"$B/merge_config.log")
"${kmake[@]}" olddefconfig >/dev/null

# Every option the fragment sets must have survived olddefconfig.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		if ! grep -qxF -- "$line" "$B/.config"; then
			[ "${line#*=}" = n ] && ! grep -q "^${line%%=*}=" "$B/.config" && continue
			echo "build.sh: $line did not survive olddefconfig" >&2
			bad=1
		fi
		;;
	esac
done <"$B/tuner.fragment"
[ $bad -eq 0 ] || exit 1

# The profile: each object's .gcda beside it, where -fprofile-use looks
# (the object's path with .gcda). A function whose code differs from the
# profiled build's (a coverage mismatch: CONFIG_DEBUG_FS code, say) keeps
# no profile instead of failing the build; the count goes to the sizes.
kcflags=$flags
if [ "$pgo" = use ]; then
	(cd "$TUNER_PROFILE_DIR" && find . -name '*.gcda' -print0 | cpio -0pdm --quiet "$B")
	kcflags="$flags -fprofile-use -fprofile-correction -Wno-missing-profile -Wno-error=coverage-mismatch"
fi

# KCFLAGS reaches make through the environment, as the flags came.
# (Its warnings are kept for the count below, then go to the build log.)
if ! KCFLAGS=$kcflags "${kmake[@]}" zImage vexpress-v2p-ca9.dtb 2>"$B/tuner-make.err"; then
	cat "$B/tuner-make.err" >&2
	exit 1
fi
cat "$B/tuner-make.err" >&2
end=$(date +%s.%N)

zimage=$B/arch/arm/boot/zImage
[ -f "$zimage" ] || { echo "build.sh: no zImage" >&2; exit 1; }
zbytes=$(stat -c %s "$zimage")
text=$("${cross}size" -A "$B/vmlinux" | awk '$1 == ".text" { print $2 }')
secs=$(echo "$end - $start" | bc)
printf 'optimize=%s flags=%s seed=%s pgo=%s\nbuild_seconds=%.0f\nzimage_bytes=%s\nvmlinux_text_bytes=%s\n' \
	"$opt" "$flags" "$seed" "$pgo" "$secs" "$zbytes" "$text" >"$B/tuner-sizes.txt"
if [ "$pgo" = use ]; then
	n=$(find "$TUNER_PROFILE_DIR" -name '*.gcda' | wc -l)
	mism=$(grep -c 'coverage mismatch\|-Wcoverage-mismatch' "$B/tuner-make.err" || true)
	printf 'pgo_profiles=%s\npgo_coverage_mismatches=%s\n' "$n" "$mism" >>"$B/tuner-sizes.txt"
	echo "build.sh: PGO use: $n .gcda files, $mism coverage mismatch warnings" >&2
fi
echo "build.sh: CONFIG_CC_OPTIMIZE_FOR_${opt^^}, KCFLAGS '$flags', $(printf %.0f "$secs") s;" \
	"zImage $zbytes bytes, vmlinux .text $text bytes" >&2
