# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced (busybox sh) by the routers' /init, router-init.sh and
# ../lab-router/lab-init.sh, from /lib/router-nat.sh in their initramfs.
#
# nat_router LAN WAN LAN_ADDR WAN_ADDR: the NAT router's data path: every
# offload off on both interfaces (each separately: one the device lacks
# must not stop the rest), the addresses (CIDR), both up, IPv4 forwarding,
# and nftables: a stateful forward filter (LAN -> WAN, and what belongs to
# it) and masquerade on WAN. Returns 1 at the first step that fails, with
# nat_failed saying which.
nat_router() {
	nat_failed=
	for i in "$1" "$2"; do
		for f in gro gso tso tx rx sg lro; do
			ethtool -K "$i" "$f" off 2>/dev/null
		done
	done
	ip addr add "$3" dev "$1" || { nat_failed="address on $1"; return 1; }
	ip addr add "$4" dev "$2" || { nat_failed="address on $2"; return 1; }
	ip link set "$1" up || { nat_failed="$1 up"; return 1; }
	ip link set "$2" up || { nat_failed="$2 up"; return 1; }
	echo 1 >/proc/sys/net/ipv4/ip_forward || { nat_failed=ip_forward; return 1; }
	cat >/run/router.nft <<NFT
table ip filter {
	chain forward {
		type filter hook forward priority 0; policy drop;
		ct state established,related accept
		iifname "$1" oifname "$2" accept
	}
}
table ip nat {
	chain postrouting {
		type nat hook postrouting priority 100; policy accept;
		oifname "$2" masquerade
	}
}
NFT
	nft -f /run/router.nft || { nat_failed="nft -f /run/router.nft"; return 1; }
}
