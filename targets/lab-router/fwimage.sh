#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The lab router's firmware image format (ours), host side:
#
#   fwimage.sh pack OUT ZIMAGE DTB INITRAMFS BOOTARGS NAME
#   fwimage.sh check FILE             prints the header; exit 1 if bad
#   fwimage.sh check_at FILE OFFSET   the same for the image at OFFSET
#   fwimage.sh extract FILE OFFSET DIR
#       reads the image at byte OFFSET of FILE (an image file, or the
#       flash), checks it and writes DIR/zImage, dtb, initramfs, bootargs,
#       name; exit 1 with the reason on stderr if there is no valid image
#
# Layout: a 512-byte header of ASCII lines padded with NUL bytes
#
#   LABFW1
#   name NAME                (no spaces)
#   kernel BYTES
#   dtb BYTES
#   initramfs BYTES
#   bootargs BYTES
#   size BYTES               payload bytes (the sum of the four)
#   sha256 HEX               of the payload
#   end
#
# then the payload: zImage, dtb, initramfs and the kernel command line
# (no newline), back to back. The guest's /sbin/sysupgrade (sysupgrade.sh)
# checks the same header with busybox tools before it writes a slot.
set -euo pipefail

die() { echo "fwimage: $*" >&2; exit 1; }

# header FILE OFFSET: sets the h_* variables from the header at OFFSET.
header() {
	local f=$1 off=$2 line k v n=0
	h_magic='' h_name='' h_kernel='' h_dtb='' h_initramfs='' h_bootargs='' h_size='' h_sha256='' h_end=''
	while IFS= read -r line; do
		n=$((n + 1))
		if [ $n -eq 1 ]; then h_magic=$line; continue; fi
		k=${line%% *} v=${line#* }
		case $k in
		name | kernel | dtb | initramfs | bootargs | size | sha256) printf -v "h_$k" %s "$v" ;;
		end) h_end=1; break ;;
		esac
	done < <(dd if="$f" bs=512 iflag=skip_bytes skip="$off" count=1 status=none | tr -d '\0')
	[ "$h_magic" = LABFW1 ] || { echo "no LABFW1 header at offset $off"; return 1; }
	[ -n "$h_end" ] || { echo "truncated header"; return 1; }
	local x
	for x in "$h_kernel" "$h_dtb" "$h_initramfs" "$h_bootargs" "$h_size"; do
		case $x in '' | *[!0-9]*) echo "bad size field '$x' in the header"; return 1 ;; esac
	done
	[ $((h_kernel + h_dtb + h_initramfs + h_bootargs)) -eq "$h_size" ] ||
		{ echo "header sizes do not add up"; return 1; }
	case $h_sha256 in *[!0-9a-f]* | '') echo "bad sha256 field"; return 1 ;; esac
	[ ${#h_sha256} -eq 64 ] || { echo "bad sha256 field"; return 1; }
	return 0
}

# payload FILE OFFSET: the payload's bytes on stdout.
payload() {
	dd if="$1" bs=1M iflag=skip_bytes,count_bytes,fullblock skip=$(($2 + 512)) count="$h_size" status=none
}

verify() {
	local f=$1 off=$2 why sum
	why=$(header "$f" "$off") || { echo "$why"; return 1; }
	header "$f" "$off" >/dev/null
	sum=$(payload "$f" "$off" | sha256sum | cut -d' ' -f1)
	[ "$sum" = "$h_sha256" ] || { echo "checksum mismatch (header $h_sha256, payload $sum)"; return 1; }
}

cmd=${1:-}
case $cmd in
pack)
	[ $# -eq 7 ] || die "usage: fwimage.sh pack OUT ZIMAGE DTB INITRAMFS BOOTARGS NAME"
	out=$2 zimage=$3 dtb=$4 initrd=$5 bootargs=$6 name=$7
	case $name in '' | *[!A-Za-z0-9._+=,:-]*) die "bad image name '$name'" ;; esac
	for f in "$zimage" "$dtb" "$initrd"; do [ -f "$f" ] || die "no $f"; done
	tmp=$(mktemp "$out.XXXXXX")
	trap 'rm -f "$tmp" "$tmp.p"' EXIT
	{ cat "$zimage" "$dtb" "$initrd"; printf %s "$bootargs"; } >"$tmp.p"
	k=$(stat -c %s "$zimage") d=$(stat -c %s "$dtb") i=$(stat -c %s "$initrd") b=${#bootargs}
	sum=$(sha256sum "$tmp.p" | cut -d' ' -f1)
	printf 'LABFW1\nname %s\nkernel %s\ndtb %s\ninitramfs %s\nbootargs %s\nsize %s\nsha256 %s\nend\n' \
		"$name" "$k" "$d" "$i" "$b" $((k + d + i + b)) "$sum" >"$tmp"
	[ "$(stat -c %s "$tmp")" -le 512 ] || die "header too long"
	truncate -s 512 "$tmp"
	cat "$tmp.p" >>"$tmp"
	mv "$tmp" "$out"
	;;
check | check_at)
	[ $# -eq 2 ] || [ $# -eq 3 ] || die "usage: fwimage.sh check FILE | check_at FILE OFFSET"
	off=${3:-0}
	why=$(verify "$2" "$off") || die "$2: $why"
	header "$2" "$off"
	echo "name=$h_name kernel=$h_kernel dtb=$h_dtb initramfs=$h_initramfs bootargs=$h_bootargs size=$h_size sha256=$h_sha256"
	;;
extract)
	[ $# -eq 4 ] || die "usage: fwimage.sh extract FILE OFFSET DIR"
	f=$2 off=$3 dir=$4
	why=$(verify "$f" "$off") || die "$why"
	header "$f" "$off"
	mkdir -p "$dir"
	# part NAME START BYTES: bytes of the payload into DIR/NAME.
	part() {
		dd if="$f" of="$dir/$1" bs=1M iflag=skip_bytes,count_bytes,fullblock \
			skip=$((off + 512 + $2)) count="$3" status=none
	}
	part zImage 0 "$h_kernel"
	part dtb "$h_kernel" "$h_dtb"
	part initramfs $((h_kernel + h_dtb)) "$h_initramfs"
	part bootargs $((h_kernel + h_dtb + h_initramfs)) "$h_bootargs"
	printf '%s\n' "$h_name" >"$dir/name"
	;;
*) die "usage: fwimage.sh pack|check|extract ..." ;;
esac
