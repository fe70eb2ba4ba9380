#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the router's initramfs (gzipped newc cpio) from the armhf (or
# mipsel) packages that scripts/install-kernel-deps.sh unpacked under
# $TUNER_KERNEL_WORK/ARCH/root: busybox-static, nft and ethtool with the
# shared libraries they need (the ELF NEEDED closure, read with the cross
# readelf), /dev/console, router-init.sh as /init and router-nat.sh (its
# NAT set-up, shared with the lab router's) in /lib, and natgen (natgen.c,
# the model's in-guest traffic, built here with the cross compiler,
# static). Prints the image's path; an image for the same inputs is reused.
#
#   mk-initramfs.sh [--arch armhf | mipsel] [--natgen OUT]
#
# --arch: the userspace's architecture (default armhf: the vexpress
# kernel's; mipsel: malta's). --natgen OUT: only build natgen, as the
# image holds it, into OUT (the tests check that binary).
#
#   TUNER_KERNEL_WORK   work area (default <repo>/results/qemu-linux-work)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
arch=armhf
if [ "${1:-}" = --arch ]; then
	arch=${2:-}
	shift 2 || true
fi
case $arch in
armhf) cross=${TUNER_KERNEL_CROSS:-arm-linux-gnueabihf-} triplet=arm-linux-gnueabihf isa=(-marm) ;;
mipsel) cross=${TUNER_KERNEL_CROSS:-mipsel-linux-gnu-} triplet=mipsel-linux-gnu isa=() ;;
*) echo "mk-initramfs: --arch '$arch': armhf or mipsel" >&2; exit 1 ;;
esac
stage=$work/$arch/root
readelf=${cross}readelf

# natgen OUT: on ARM A32 code (-marm): its marks are A32 hints, which the
# plugin looks for (on MIPS, shifts to $0).
natgen() {
	"${cross}gcc" -std=c11 -D_GNU_SOURCE -static "${isa[@]}" -O2 -Wall -Wextra -Werror \
		-o "$1" "$here/natgen.c"
}
if [ "${1:-}" = --natgen ]; then
	natgen "${2:?mk-initramfs: --natgen needs an output path}"
	exit 0
fi

[ -f "$work/$arch/.complete" ] ||
	{ echo "mk-initramfs: $work/$arch missing: run make deps-kernel (scripts/install-kernel-deps.sh)" >&2; exit 1; }
key=$(cat "$here/router-init.sh" "$here/router-nat.sh" "$here/mk-initramfs.sh" "$here/natgen.c" |
	cat - <(ls "$work/$arch/debs") <("${cross}gcc" --version | head -1) |
	sha1sum | cut -c1-12)
img=$work/initramfs/router-$arch-$key.cpio.gz
if [ -f "$img" ]; then
	echo "$img"
	exit 0
fi
mkdir -p "$work/initramfs"
exec 8>"$work/initramfs/.lock"
flock 8
if [ -f "$img" ]; then
	echo "$img"
	exit 0
fi

tmp=$(mktemp -d "$work/initramfs/stage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,sbin,usr/bin,usr/sbin,lib,dev,proc,sys,run,tmp}
cp "$stage/bin/busybox" "$tmp/bin/busybox"
ln -s busybox "$tmp/bin/sh"
cp "$here/router-init.sh" "$tmp/init"
chmod 755 "$tmp/init"
cp "$here/router-nat.sh" "$tmp/lib/router-nat.sh"
natgen "$tmp/bin/natgen"
mknod -m 600 "$tmp/dev/console" c 5 1
mknod -m 666 "$tmp/dev/null" c 1 3

# Copies one file of the staging root (path relative to it, symlinks
# followed) and, for an ELF file, everything it needs.
declare -A done_=()
copy() {
	local rel=$1 src lib dir
	[ -n "${done_[$rel]:-}" ] && return 0
	done_[$rel]=1
	src=$stage/$rel
	[ -e "$src" ] || { echo "mk-initramfs: $rel not in $stage" >&2; exit 1; }
	mkdir -p "$tmp/$(dirname "$rel")"
	cp -L "$src" "$tmp/$rel"
	"$readelf" -h "$src" >/dev/null 2>&1 || return 0
	local interp
	interp=$("$readelf" -l "$src" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	[ -n "$interp" ] && copy "${interp#/}"
	for lib in $("$readelf" -d "$src" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
		for dir in "lib/$triplet" "usr/lib/$triplet" lib usr/lib; do
			if [ -e "$stage/$dir/$lib" ]; then
				copy "$dir/$lib"
				continue 2
			fi
		done
		echo "mk-initramfs: $rel needs $lib, not found in $stage" >&2
		exit 1
	done
}
copy usr/sbin/nft
if [ -e "$stage/sbin/ethtool" ]; then copy sbin/ethtool; else copy usr/sbin/ethtool; fi

# Reproducible: the same inputs give the same image bytes (fixed times, no
# inode or device numbers, no name or time in the gzip header). The image's
# size and bytes reach the guest's memory layout: a rebuild with new file
# times moved the model's -O2 count by up to 0.07%.
find "$tmp" -mindepth 1 -exec touch -h -d @0 {} +
(cd "$tmp" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 --reproducible) |
	gzip -9n >"$img.tmp"
mv "$img.tmp" "$img"
echo "mk-initramfs: $img ($(stat -c %s "$img") bytes)" >&2
echo "$img"
