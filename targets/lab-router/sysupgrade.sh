#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /sbin/sysupgrade of the lab router (busybox sh), after OpenWrt's:
#
#   sysupgrade [-n] [-T] FILE
#
# checks FILE's LABFW1 header and sha256 (the format: fwimage.sh on the
# host), writes it into the flash's firmware slot (/dev/vda at 1 MiB, at
# most 15 MiB), syncs and reboots (PID 1 gets TERM one second later, so
# the ssh session that ran this ends cleanly). -n (do not keep settings)
# is accepted and changes nothing: the settings live in the flash's config
# area, which sysupgrade never writes. -T: check only.
# Exit 0: the image is written and the reboot is under way; 1: refused
# (nothing written) or the write failed.
DEV=/dev/vda
FW_OFF=1048576
SLOT=15728640
test_only=0
while [ $# -gt 1 ]; do
	case $1 in
	-n) ;;
	-T) test_only=1 ;;
	*) echo "sysupgrade: unknown option $1" >&2; exit 1 ;;
	esac
	shift
done
[ $# -eq 1 ] || { echo "usage: sysupgrade [-n] [-T] FILE" >&2; exit 1; }
f=$1
die() { echo "sysupgrade: $*" >&2; exit 1; }
[ -f "$f" ] || die "no file $f"

magic='' name='' size='' sum='' n=0 ended=0
head -c 512 "$f" | tr -d '\000' >/tmp/.sysupgrade.hdr
while read -r k v; do
	n=$((n + 1))
	[ $n -eq 1 ] && { magic=$k; continue; }
	case $k in
	name) name=$v ;;
	size) size=$v ;;
	sha256) sum=$v ;;
	end) ended=1; break ;;
	esac
done </tmp/.sysupgrade.hdr
rm -f /tmp/.sysupgrade.hdr
[ "$magic" = LABFW1 ] && [ $ended = 1 ] || die "$f: not a lab firmware image"
case $size in '' | *[!0-9]*) die "$f: bad size in the header" ;; esac
total=$((512 + size))
[ $total -le $SLOT ] || die "$f: $total bytes do not fit the $SLOT-byte slot"
have=$(wc -c <"$f")
[ "$have" -ge $total ] || die "$f: truncated ($have of $total bytes)"
got=$(tail -c +513 "$f" | head -c "$size" | sha256sum | cut -d' ' -f1)
[ "$got" = "$sum" ] || die "$f: checksum mismatch"
if [ $test_only = 1 ]; then
	echo "sysupgrade: $f: image $name OK"
	exit 0
fi
[ -b $DEV ] || die "no flash $DEV"

echo "sysupgrade: writing image $name ($total bytes) to the firmware slot"
# The old header goes first: a write cut short leaves no valid image.
dd if=/dev/zero of=$DEV bs=512 seek=$((FW_OFF / 512)) count=1 conv=fsync 2>/dev/null ||
	die "cannot write $DEV"
head -c $total "$f" | dd of=$DEV bs=65536 seek=$((FW_OFF / 65536)) conv=fsync 2>/dev/null ||
	die "write to $DEV failed"
sync
echo "sysupgrade: done, rebooting"
setsid sh -c 'sleep 1; kill -TERM 1' </dev/null >/dev/null 2>&1 &
exit 0
