#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The device tree of model.sh's DMA path: the kernel build's
# vexpress-v2p-ca9.dtb with the four virtio-mmio transports of QEMU's
# vexpress-a9 board in it, as QEMU itself would add them but without
# `dma-coherent`, so that Linux gives the virtio-net devices the
# non-coherent DMA ops (the streaming cache maintenance of a router's
# NIC: v7_dma_inv_range, l2c210_inv_range, ...).
#
#   mk-dtb.sh IN.dtb OUT.dtb
#
# What it writes into OUT (IN is not changed):
# - the GIC (the one node whose compatible holds "arm,cortex-a9-gic") gets
#   compatible = "arm,pl390" alone: Linux's GIC driver takes either, and
#   QEMU, which looks for arm,cortex-a9-gic (or -a15-gic) to put its own
#   virtio-mmio nodes in, then adds none (it warns "couldn't find
#   interrupt controller in dtb" and goes on);
# - four root nodes virtio_mmio@10013000 + 0x200 i (i = 0..3) with the
#   properties of QEMU 7.2's (qemu-system-arm -M vexpress-a9,dumpdtb=F):
#   compatible = "virtio,mmio", reg = <base 0x200> (in the root's
#   #address-cells and #size-cells), interrupt-parent = <the GIC's
#   phandle>, interrupts = <0 40+i 1> (SPI 40+i, rising edge); in QEMU's
#   order (0x10013000 first); no dma-coherent.
# Refuses (exit 1, the reason on stderr) an IN with virtio,mmio nodes
# already, with no or several such GICs, or with a GIC without a phandle.
# Needs fdtget and fdtput (Debian's device-tree-compiler).
set -euo pipefail

say() { echo "mk-dtb: $*" >&2; }
die() { say "$*"; exit 1; }

[ $# -eq 2 ] || die "usage: mk-dtb.sh IN.dtb OUT.dtb"
in=$1 out=$2
[ -f "$in" ] || die "no device tree $in"
for t in fdtget fdtput; do
	command -v "$t" >/dev/null || die "no $t (Debian package device-tree-compiler)"
done
fdtget "$in" / '#address-cells' >/dev/null 2>&1 || die "$in: not a device tree blob (fdtget cannot read /)"

# walk PATH: prints PATH and every node under it, one a line.
walk() {
	local p=$1 c
	echo "$p"
	for c in $(fdtget -l "$in" "$p"); do
		walk "${p%/}/$c"
	done
}
# has_compat NODE STRING: NODE's compatible list holds STRING.
has_compat() {
	local w
	for w in $(fdtget -t s "$in" "$1" compatible 2>/dev/null); do
		[ "$w" = "$2" ] && return 0
	done
	return 1
}
gic=
while read -r n; do
	if has_compat "$n" virtio,mmio; then
		die "$in: $n is a virtio,mmio node already (a dtb QEMU dumped, or mk-dtb.sh's own?)"
	fi
	has_compat "$n" arm,cortex-a15-gic && die "$in: $n is a Cortex-A15 GIC: not the vexpress-a9 tree"
	if has_compat "$n" arm,cortex-a9-gic; then
		[ -z "$gic" ] || die "$in: two arm,cortex-a9-gic nodes ($gic, $n)"
		gic=$n
	fi
done < <(walk /)
[ -n "$gic" ] || die "$in: no arm,cortex-a9-gic node"
phandle=$(fdtget -t u "$in" "$gic" phandle 2>/dev/null || fdtget -t u "$in" "$gic" linux,phandle 2>/dev/null) ||
	die "$in: the GIC $gic has no phandle"
acells=$(fdtget -t u "$in" / '#address-cells')
scells=$(fdtget -t u "$in" / '#size-cells')
for c in "$acells" "$scells"; do
	case $c in 1 | 2) ;; *) die "$in: / has #address-cells $acells, #size-cells $scells (1 or 2 only)" ;; esac
done
# cells VALUE N: VALUE (< 2^32) as N (1 or 2) 32-bit cells.
cells() { if [ "$2" = 2 ]; then echo "0 $1"; else echo "$1"; fi; }

tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
cp "$in" "$tmp"
fdtput -t s "$tmp" "$gic" compatible arm,pl390
# A new node goes in before its parent's other subnodes, so the last made
# comes first, as in QEMU's dump. A new property likewise goes first: set
# in this order, they read back in QEMU's order too.
for i in 3 2 1 0; do
	base=$((0x10013000 + 0x200 * i))
	node=$(printf '/virtio_mmio@%x' "$base")
	fdtput -c "$tmp" "$node"
	fdtput -t s "$tmp" "$node" compatible virtio,mmio
	# shellcheck disable=SC2046 # cells prints separate numbers on purpose
	fdtput -t u "$tmp" "$node" reg $(cells "$base" "$acells") $(cells 512 "$scells")
	fdtput -t u "$tmp" "$node" interrupt-parent "$phandle"
	fdtput -t u "$tmp" "$node" interrupts 0 $((40 + i)) 1
done
mv "$tmp" "$out"
trap - EXIT
say "$out: 4 virtio,mmio nodes (not dma-coherent), GIC $gic as arm,pl390"
