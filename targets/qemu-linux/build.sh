#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The qemu-linux study's build command: cross-builds the kernel in $TUNER_SRC
# out of tree into $TUNER_OUT for one of QEMU's boards as a minimal NAT
# router (tinyconfig + board-BOARD.config + router.config):
#
#   build.sh [vexpress | malta]
#
# vexpress (the default): QEMU's vexpress-a9 (Cortex-A9, the BCM47094's
# stand-in), ARCH=arm; the artifact $TUNER_OUT/arch/arm/boot/zImage with
# the device tree beside it (arch/arm/boot/dts/vexpress-v2p-ca9.dtb).
# malta: QEMU's malta (MIPS32r2 little-endian, the MT7621's stand-in),
# ARCH=mips; the artifact $TUNER_OUT/vmlinuz (self-extracting LZMA ELF).
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
#   TUNER_LAYOUT_SEED  0: plain link. N > 0: four pads of seed-derived
#                      sizes (4..4096 bytes, multiples of 4) are linked into
#                      the kernel text at seed-derived places among its
#                      objects, each moving the code after it against the
#                      code before, as unrelated commits do.
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
#                        through ccache, CCACHE_DIR=$TUNER_KERNEL_WORK/ccache,
#                        one cache for every study; study: the study's own
#                        cache, $TUNER_CACHE/ccache (tuner's cache directory
#                        in the results); 0: no ccache. Never for PGO
#                        builds (below). Each build counts its own hits
#                        (CCACHE_STATSLOG) into tuner-sizes.txt
#                        (ccache_hits, ccache_misses) and its log
#   TUNER_KERNEL_CC_PREFIX  a command every compilation runs under, e.g.
#                        distcc (DISTCC_HOSTS in the environment says
#                        where): CC="distcc <cross>gcc", or with ccache its
#                        CCACHE_PREFIX, so only misses are sent. With
#                        distcc each build counts the compilations that ran
#                        on other hosts and here (its DISTCC_LOG, verbose)
#                        into tuner-sizes.txt (distcc_remote,
#                        distcc_local; distcc_probes: Kbuild's compiler
#                        probes, which distcc runs here) and its log.
#                        docs/cluster.md
#   TUNER_KERNEL_CROSS   cross prefix (default arm-linux-gnueabihf-,
#                        mipsel-linux-gnu- for malta)
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
board=${1:-vexpress}
case $board in
vexpress) karch=arm cross=${TUNER_KERNEL_CROSS:-arm-linux-gnueabihf-}
	targets=(zImage vexpress-v2p-ca9.dtb) image=arch/arm/boot/zImage ;;
malta) karch=mips cross=${TUNER_KERNEL_CROSS:-mipsel-linux-gnu-}
	targets=(vmlinuz) image=vmlinuz ;;
*) echo "build.sh: unknown board '$board' (vexpress or malta)" >&2; exit 1 ;;
esac
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

kmake=(make -s -C "$TUNER_SRC" O="$B" ARCH=$karch CROSS_COMPILE="$cross" -j"$jobs")
# Not for PGO builds: an instrumented object holds the absolute path of its
# .gcda (its own build directory), which a cache hit made in another
# directory would get wrong, and a profile-use compile reads a .gcda that
# must not be answered from a cache.
ccache_mode=${TUNER_KERNEL_CCACHE:-1}
prefix=${TUNER_KERNEL_CC_PREFIX:-}
case $ccache_mode in
0 | 1) ;;
study) : "${TUNER_CACHE:?TUNER_KERNEL_CCACHE=study needs TUNER_CACHE (tuner sets it)}" ;;
*) echo "build.sh: bad TUNER_KERNEL_CCACHE '$ccache_mode' (0, 1 or study)" >&2; exit 1 ;;
esac
case $prefix in
*[!A-Za-z0-9_./-]*)
	echo "build.sh: TUNER_KERNEL_CC_PREFIX must be one command (a name or path), not '$prefix'" >&2
	exit 1
	;;
esac
cc=${cross}gcc
rm -f "$B/tuner-ccache.log" "$B/tuner-distcc.log"
if [ "$ccache_mode" != 0 ] && [ "$pgo" = off ] && command -v ccache >/dev/null; then
	if [ "$ccache_mode" = study ]; then
		export CCACHE_DIR=$TUNER_CACHE/ccache
	else
		export CCACHE_DIR=$work/ccache
	fi
	# Build directories differ per configuration: hash relative paths.
	export CCACHE_BASEDIR=/
	export CCACHE_NOHASHDIR=1
	# This build's own hits and misses, whatever else shares the cache.
	export CCACHE_STATSLOG=$B/tuner-ccache.log
	if [ -n "$prefix" ]; then
		export CCACHE_PREFIX=$prefix
	fi
	kmake+=(CC="ccache $cc")
elif [ -n "$prefix" ]; then
	kmake+=(CC="$prefix $cc")
fi
case $prefix in
*distcc)
	export DISTCC_LOG=$B/tuner-distcc.log DISTCC_VERBOSE=1
	;;
esac

# Layout pads: four objects of seed-derived sizes, put at seed-derived
# places among the members of vmlinux.a (the kernel's objects in link
# order) by a small ld wrapper that links a reordered copy of that thin
# archive (any kernel tree, no source change). A pad holds only .text, so
# no other object's order changes (initcalls keep theirs). A single pad
# ahead of everything would move all code together, keeping every
# function's place against every other (and, in steps of 32 bytes, every
# cache set conflict): the pads move parts of the kernel against each
# other. Seed 0 links nothing extra.
if [ "$seed" -gt 0 ]; then
	pads=
	for k in 1 2 3 4; do
		h=$(( (seed * 2654435761 + k * 2246822519) % 4294967296 ))
		pad=$(( ((h >> 12) % 1024 + 1) * 4 ))
		printf '\t.section .text\n\t.globl tuner_layout_pad%d\ntuner_layout_pad%d:\n\t.space %d\n' \
			"$k" "$k" "$pad" >"$B/tuner_layout_pad$k.S"
		"${cross}gcc" -c -o "$B/tuner_layout_pad$k.o" "$B/tuner_layout_pad$k.S"
		pads+=" $h:$B/tuner_layout_pad$k.o:$pad"
	done
	cat >"$B/tuner-ld" <<EOW
#!/bin/bash
# Links vmlinux with four pads among vmlinux.a's members (layout seed $seed):
# each H:OBJECT:BYTES goes after member H mod (members).
set -euo pipefail
args=()
for a; do
	if [ "\$a" = vmlinux.a ]; then
		mapfile -t m < <(${cross}ar t vmlinux.a)
		n=\${#m[@]}
		declare -A after=()
		for p in$pads; do
			IFS=: read -r h o _ <<<"\$p"
			i=\$(( h % n ))
			after[\$i]="\${after[\$i]:-} \$o"
		done
		list=()
		for i in "\${!m[@]}"; do
			list+=("\${m[\$i]}")
			if [ -n "\${after[\$i]:-}" ]; then
				# shellcheck disable=SC2206 # object paths, no blanks
				list+=(\${after[\$i]})
			fi
		done
		rm -f tuner-vmlinux.a
		${cross}ar cDPrST tuner-vmlinux.a "\${list[@]}"
		a=tuner-vmlinux.a
	fi
	args+=("\$a")
done
exec ${cross}ld "\${args[@]}"
EOW
	chmod +x "$B/tuner-ld"
	kmake+=(LD="$B/tuner-ld")
	echo "build.sh: layout seed $seed: pads (hash:object:bytes)$pads" >&2
fi

start=$(date +%s.%N)
"${kmake[@]}" tinyconfig >/dev/null
{
	cat "$here/board-$board.config" "$here/router.config"
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
(cd "$B" && ARCH=$karch CROSS_COMPILE="$cross" \
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
if ! KCFLAGS=$kcflags "${kmake[@]}" "${targets[@]}" 2>"$B/tuner-make.err"; then
	cat "$B/tuner-make.err" >&2
	exit 1
fi
cat "$B/tuner-make.err" >&2
end=$(date +%s.%N)

zimage=$B/$image
[ -f "$zimage" ] || { echo "build.sh: no $image" >&2; exit 1; }
zbytes=$(stat -c %s "$zimage")
text=$("${cross}size" -A "$B/vmlinux" | awk '$1 == ".text" { print $2 }')
secs=$(echo "$end - $start" | bc)
# zimage_bytes: the compressed image (zImage, or malta's vmlinuz).
printf 'optimize=%s flags=%s seed=%s pgo=%s\nbuild_seconds=%.0f\nzimage_bytes=%s\nvmlinux_text_bytes=%s\n' \
	"$opt" "$flags" "$seed" "$pgo" "$secs" "$zbytes" "$text" >"$B/tuner-sizes.txt"
# What ccache and distcc did for this build.
if [ -f "$B/tuner-ccache.log" ]; then
	hits=$(grep -cxE 'direct_cache_hit|preprocessed_cache_hit' "$B/tuner-ccache.log" || true)
	misses=$(grep -cx 'cache_miss' "$B/tuner-ccache.log" || true)
	printf 'ccache_hits=%s\nccache_misses=%s\n' "$hits" "$misses" >>"$B/tuner-sizes.txt"
	echo "build.sh: ccache ($CCACHE_DIR): $hits hits, $misses misses" \
		"($(awk -v h="$hits" -v m="$misses" 'BEGIN { printf "%.1f", h + m ? 100 * h / (h + m) : 0 }')% hits)" >&2
fi
if [ -f "$B/tuner-distcc.log" ]; then
	# "compile FILE on HOST completed ok": the compiler ran on HOST
	# (localhost: here, also when distcc fell back). FILE "(null)": one
	# of Kbuild's compiler probes (cc-option: input /dev/null), which
	# distcc always runs here; counted apart.
	all=$(grep -cE '\] compile .* on [^ ]+ completed ok$' "$B/tuner-distcc.log" || true)
	here=$(grep -cE '\] compile .* on localhost completed ok$' "$B/tuner-distcc.log" || true)
	probes=$(grep -cE '\] compile \(null\) on localhost completed ok$' "$B/tuner-distcc.log" || true)
	remote=$((all - here))
	local_=$((here - probes))
	printf 'distcc_remote=%s\ndistcc_local=%s\ndistcc_probes=%s\n' "$remote" "$local_" "$probes" \
		>>"$B/tuner-sizes.txt"
	echo "build.sh: distcc: $remote compilations on other hosts, $local_ here" \
		"($(awk -v r="$remote" -v l="$local_" 'BEGIN { printf "%.1f", r + l ? 100 * r / (r + l) : 0 }')% distributed)," \
		"and $probes compiler probes here" >&2
	# The verbose log is large; its counts are kept.
	gzip -f "$B/tuner-distcc.log"
fi
if [ "$pgo" = use ]; then
	n=$(find "$TUNER_PROFILE_DIR" -name '*.gcda' | wc -l)
	mism=$(grep -c 'coverage mismatch\|-Wcoverage-mismatch' "$B/tuner-make.err" || true)
	printf 'pgo_profiles=%s\npgo_coverage_mismatches=%s\n' "$n" "$mism" >>"$B/tuner-sizes.txt"
	echo "build.sh: PGO use: $n .gcda files, $mism coverage mismatch warnings" >&2
fi
echo "build.sh: CONFIG_CC_OPTIMIZE_FOR_${opt^^}, KCFLAGS '$flags', $(printf %.0f "$secs") s;" \
	"${image##*/} $zbytes bytes, vmlinux .text $text bytes" >&2
