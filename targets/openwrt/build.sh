#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spaces/openwrt.yaml's build command: an OpenWrt firmware image whose
# kernel is compiled with the candidate flags ($TUNER_FLAGS), through
# OpenWrt's CONFIG_KERNEL_CFLAGS (which its kernel build passes as KCFLAGS,
# after the kernel's own flags: the last -O wins).
#
# OpenWrt builds inside its tree and its toolchain takes an hour, so the
# builds of a study share one buildroot, kept across runs:
#   $OPENWRT_BUILDROOT (default $TUNER_CACHE/openwrt-<tree id>), a copy of
#   the exported tree ($TUNER_SRC), configured from $OPENWRT_DIFFCONFIG
#   (default targets/openwrt/diffconfig: the target, subtarget and
#   profile) and fully built once (toolchain, packages: `make`).
# Each build then, holding the buildroot's lock (builds of one buildroot
# run one at a time): sets CONFIG_KERNEL_CFLAGS, `make defconfig`, cleans
# and rebuilds the kernel and the images (target/linux/clean,
# target/linux/compile, target/linux/install), and copies the sysupgrade
# image to $TUNER_OUT/firmware-sysupgrade.bin (the artifact).
#
# Not supported here: PGO (TUNER_PGO must be off) and layout seeds > 0.
# Checked on this machine only by `tuner check` and `bash -n`: OpenWrt's
# buildroot cannot be fetched here (README, "Using real routers").
set -euo pipefail
say() { echo "openwrt/build.sh: $*" >&2; }
die() { say "$*"; exit 1; }

: "${TUNER_SRC:?}" "${TUNER_OUT:?}" "${TUNER_CACHE:?}"
here=$(cd "$(dirname "$0")" && pwd)
[ "${TUNER_PGO:-off}" = off ] || die "PGO is not supported for OpenWrt images (TUNER_PGO=$TUNER_PGO)"
[ "${TUNER_LAYOUT_SEED:-0}" = 0 ] || die "layout seeds are not supported here (layout.samples: 1)"
[ -f "$TUNER_SRC/scripts/feeds" ] && [ -f "$TUNER_SRC/include/kernel-defaults.mk" ] ||
	die "$TUNER_SRC is not an OpenWrt buildroot tree (no scripts/feeds, include/kernel-defaults.mk)"
grep -q 'CONFIG_KERNEL_CFLAGS' "$TUNER_SRC/include/kernel-defaults.mk" "$TUNER_SRC/config/Config-kernel.in" 2>/dev/null ||
	die "this OpenWrt tree has no CONFIG_KERNEL_CFLAGS (too old): the flags could not reach the kernel"
diffconfig=${OPENWRT_DIFFCONFIG:-$here/diffconfig}
[ -f "$diffconfig" ] || die "no diffconfig $diffconfig"
tree=$(basename "$TUNER_SRC")
root=${OPENWRT_BUILDROOT:-$TUNER_CACHE/openwrt-$tree}
jobs=${TUNER_JOBS:-1}

mkdir -p "$root"
exec 9>"$root.lock"
flock -x 9

if [ ! -f "$root/.tuner-prepared" ]; then
	say "preparing the buildroot $root (once: copy, feeds, toolchain, packages; an hour or more)"
	cp -a "$TUNER_SRC/." "$root/"
	(cd "$root" && ./scripts/feeds update -a && ./scripts/feeds install -a)
	cp "$diffconfig" "$root/.config"
	(cd "$root" && make defconfig && make -j"$jobs")
	touch "$root/.tuner-prepared"
fi

cd "$root"
# The flags, as a quoted Kconfig string; nothing else of the config moves.
esc=${TUNER_FLAGS//\\/\\\\}
esc=${esc//\"/\\\"}
sed -i '/^CONFIG_KERNEL_CFLAGS=/d; /^# CONFIG_KERNEL_CFLAGS is not set/d' .config
printf 'CONFIG_KERNEL_CFLAGS="%s"\n' "$esc" >>.config
make defconfig >/dev/null
grep -qxF "CONFIG_KERNEL_CFLAGS=\"$esc\"" .config || die "CONFIG_KERNEL_CFLAGS did not survive make defconfig"
start=$(date +%s)
make -j"$jobs" target/linux/clean
make -j"$jobs" target/linux/compile target/linux/install
img=$(ls -t bin/targets/*/*/*-sysupgrade.bin 2>/dev/null | head -1)
[ -n "$img" ] || die "no *-sysupgrade.bin under $root/bin/targets"
cp "$img" "$TUNER_OUT/firmware-sysupgrade.bin"
say "$(basename "$img"): $(stat -c %s "$img") bytes, kernel and image in $(( $(date +%s) - start )) s"
