#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The lab router study's build command: the qemu-linux kernel
# (targets/qemu-linux/build.sh) with lab.config merged after router.config
# (a block layer and virtio-blk for the flash), then the lab initramfs
# (mk-initramfs.sh: the NAT router + dropbear + sysupgrade), packed with
# the zImage, the vexpress-a9 dtb and the kernel command line into one
# firmware image, the artifact:
#
#   $TUNER_OUT/lab-firmware.img      (format: fwimage.sh)
#
# Its bootargs: console=ttyAMA0 rdinit=/init panic=1 lab.image=ID, where ID
# (12 hex digits) is a hash of the image's parts; the router reports it in
# /tmp/router.ready, so a test can tell which image runs.
#
# Fault injection: when TUNER_FLAGS holds the word -DTUNER_LAB_NO_INIT, the
# word is removed before the kernel is compiled (the kernel is the one the
# flags without it give, from ccache) and the image's initramfs has no
# /init and its bootargs no rdinit= and no root=: the kernel finds no init
# in the initramfs, has no root file system to mount and panics ("VFS:
# Unable to mount root fs on unknown-block(0,0)"); with panic=1 it resets,
# and the lab's supervisor boots it again: a boot loop, as a real router
# with a broken image. (Build flags do not reach the guest otherwise.)
#
# Environment: as targets/qemu-linux/build.sh (TUNER_SRC, TUNER_OUT,
# TUNER_FLAGS, TUNER_JOBS, TUNER_LAYOUT_SEED, TUNER_PGO...), plus
#   LAB_IMAGE_TAG   a word added to the image's name and ID (default none):
#                   two images of one build that differ
#   LAB_PACK_ONLY   1: do not build, pack what $TUNER_OUT holds
set -euo pipefail
set -f

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${TUNER_OUT:?TUNER_OUT not set}"
tag=${LAB_IMAGE_TAG:-}
case $tag in *[!A-Za-z0-9._-]*) echo "lab build.sh: bad LAB_IMAGE_TAG '$tag'" >&2; exit 1 ;; esac

flags='' noinit=0
for w in ${TUNER_FLAGS-}; do
	if [ "$w" = -DTUNER_LAB_NO_INIT ]; then
		noinit=1
	else
		flags="${flags:+$flags }$w"
	fi
done
if [ "${LAB_PACK_ONLY:-0}" != 1 ]; then
	TUNER_FLAGS=$flags TUNER_KERNEL_EXTRA_CONFIG=$here/lab.config "$root/targets/qemu-linux/build.sh"
fi

B=$TUNER_OUT
zimage=$B/arch/arm/boot/zImage
dtb=$B/arch/arm/boot/dts/vexpress-v2p-ca9.dtb
[ -f "$zimage" ] && [ -f "$dtb" ] || { echo "lab build.sh: no zImage/dtb in $B" >&2; exit 1; }
if [ $noinit = 1 ]; then
	initrd=$("$here/mk-initramfs.sh" noinit)
	args="console=ttyAMA0 panic=1"
	variant=noinit
else
	initrd=$("$here/mk-initramfs.sh" init)
	args="console=ttyAMA0 rdinit=/init panic=1"
	variant=
fi
id=$( { cat "$zimage" "$dtb" "$initrd"; echo "$args $variant $tag"; } | sha256sum | cut -c1-12)
name=lab-$id${variant:+-$variant}${tag:+-$tag}
"$here/fwimage.sh" pack "$B/lab-firmware.img" "$zimage" "$dtb" "$initrd" "$args lab.image=$id" "$name"
echo "lab build.sh: $B/lab-firmware.img: $name ($(stat -c %s "$B/lab-firmware.img") bytes)" \
	"${variant:+(fault injection: no /init, no root) }" >&2
