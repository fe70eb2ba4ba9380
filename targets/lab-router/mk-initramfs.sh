#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the lab router's initramfs (gzipped newc cpio) and prints its path:
# busybox-static, nft, ethtool (from $TUNER_KERNEL_WORK/armhf/root, as the
# qemu-linux initramfs) and dropbear, dropbearkey (armhf/lab/root), with the
# shared libraries they need (ELF NEEDED closure by the cross readelf),
# lab-init.sh as /init and sysupgrade.sh as /sbin/sysupgrade. Cached by a
# hash of its inputs.
#
#   mk-initramfs.sh [noinit]
#
# noinit: the same image without /init (the lab's fault injection: with no
# root= either, the kernel panics at boot; see build.sh).
#   TUNER_KERNEL_WORK   work area (default <repo>/results/qemu-linux-work)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
base=$work/armhf/root
lab=$work/armhf/lab/root
readelf=${TUNER_KERNEL_CROSS:-arm-linux-gnueabihf-}readelf
variant=${1:-init}
case $variant in init | noinit) ;; *) echo "mk-initramfs: bad variant $variant" >&2; exit 1 ;; esac

[ -f "$work/armhf/.complete" ] && [ -f "$work/armhf/lab/.complete" ] ||
	{ echo "mk-initramfs: $work/armhf(/lab) missing: run make deps-kernel (scripts/install-kernel-deps.sh)" >&2; exit 1; }
nat=$here/../qemu-linux/router-nat.sh
key=$( { cat "$here/lab-init.sh" "$nat" "$here/sysupgrade.sh" "$here/mk-initramfs.sh"
	ls "$work/armhf/debs" "$work/armhf/lab/debs"; } | sha1sum | cut -c1-12)
img=$work/initramfs/lab-$key-$variant.cpio.gz
[ -f "$img" ] && { echo "$img"; exit 0; }
mkdir -p "$work/initramfs"
exec 8>"$work/initramfs/.lock"
flock 8
[ -f "$img" ] && { echo "$img"; exit 0; }

tmp=$(mktemp -d "$work/initramfs/lab-stage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,sbin,usr/bin,usr/sbin,lib,dev,proc,sys,run,tmp,root,etc}
cp "$base/bin/busybox" "$tmp/bin/busybox"
ln -s busybox "$tmp/bin/sh"
if [ "$variant" = init ]; then
	cp "$here/lab-init.sh" "$tmp/init"
	chmod 755 "$tmp/init"
fi
cp "$nat" "$tmp/lib/router-nat.sh"
cp "$here/sysupgrade.sh" "$tmp/sbin/sysupgrade"
chmod 755 "$tmp/sbin/sysupgrade"
mknod -m 600 "$tmp/dev/console" c 5 1
mknod -m 666 "$tmp/dev/null" c 1 3

# find REL: the staging root holding REL (lab first).
find_in() {
	local r
	for r in "$lab" "$base"; do
		[ -e "$r/$1" ] && { echo "$r"; return 0; }
	done
	return 1
}
declare -A seen=()
copy() {
	local rel=$1 r src lib dir interp
	[ -n "${seen[$rel]:-}" ] && return 0
	seen[$rel]=1
	r=$(find_in "$rel") || { echo "mk-initramfs: $rel not in $lab or $base" >&2; exit 1; }
	src=$r/$rel
	mkdir -p "$tmp/$(dirname "$rel")"
	cp -L "$src" "$tmp/$rel"
	"$readelf" -h "$src" >/dev/null 2>&1 || return 0
	interp=$("$readelf" -l "$src" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	[ -n "$interp" ] && copy "${interp#/}"
	for lib in $("$readelf" -d "$src" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
		for dir in lib/arm-linux-gnueabihf usr/lib/arm-linux-gnueabihf lib usr/lib; do
			if find_in "$dir/$lib" >/dev/null; then
				copy "$dir/$lib"
				continue 2
			fi
		done
		echo "mk-initramfs: $rel needs $lib, not found" >&2
		exit 1
	done
}
copy usr/sbin/nft
if find_in sbin/ethtool >/dev/null; then copy sbin/ethtool; else copy usr/sbin/ethtool; fi
copy usr/sbin/dropbear
copy usr/bin/dropbearkey

(cd "$tmp" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -9 >"$img.tmp"
mv "$img.tmp" "$img"
echo "mk-initramfs: $img ($(stat -c %s "$img") bytes)" >&2
echo "$img"
