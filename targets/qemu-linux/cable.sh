# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced (bash) by measure.sh and ../lab-router/lab.sh: the host side of a
# QEMU router's cabling.
#
# cable_side BRIDGE TAP VETH NS ADDR: a bridge with QEMU's tap in it, and a
# veth from it into network namespace NS (which must exist), where it is
# eth0 with address ADDR (CIDR), up, beside lo. Fails (set -e callers stop)
# at the first step that fails.
cable_side() {
	local br=$1 tap=$2 veth=$3 ns=$4 addr=$5

	ip link add "$br" type bridge
	ip link set "$br" up
	ip tuntap add dev "$tap" mode tap
	ip link set "$tap" master "$br" up
	ip link add "$veth" type veth peer name eth0 netns "$ns"
	ip link set "$veth" master "$br" up
	ip -n "$ns" addr add "$addr" dev eth0
	ip -n "$ns" link set eth0 up
	ip -n "$ns" link set lo up
}
