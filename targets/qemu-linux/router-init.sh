#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the router initramfs (busybox sh, PID 1). Brings the LAN and WAN
# interfaces up by MAC (virtio-net devices probe in reverse order of QEMU's
# -device list), forwards IPv4 with nftables masquerade on the WAN side and
# a stateful forward filter, pfifo as every interface's qdisc, and
# offloads off so each packet takes the per-packet path. Prints
# TUNER-ROUTER-READY on the console, or TUNER-ROUTER-FAILED: REASON.
#
# With tuner.gro=on on the kernel command line (model.sh's
# TUNER_KERNEL_MODEL_GRO=on): GRO back on on the router's LAN and WAN NICs
# (ethtool -K gro on; the rest of the offloads stay off: no GSO, TSO,
# checksum offload or SG, so an aggregated packet is segmented again in
# software on its way out). Either way, prints the offload lines of
# `ethtool -k` for LAN and WAN, and for each a line on its virtio
# transport: the VERSION_1 and ACCESS_PLATFORM feature bits (32, 33: the
# DMA API in use) and whether its device-tree node is dma-coherent.
#
# With tuner.gen=ROUNDS,WARMUP,GAP_US[,sendonly] on the kernel command line (model.sh,
# the deterministic model): two more NICs, SND on LAN's QEMU hub and SINK
# on WAN's, come up without addresses; the router's neighbours 192.168.1.2
# and 10.0.0.1 are static entries pointing at MACs no NIC has (what it
# forwards is dropped by QEMU, never received by the guest); then, after
# the ready marker, /bin/natgen sends the traffic (natgen.c) and its
# TUNER-GEN-DONE line goes to the console (TUNER-GEN-FAILED if it fails).
#
# With tuner.gcov on the kernel command line (a TUNER_PGO=generate kernel,
# run by train.sh through measure.sh): mounts debugfs, zeroes the gcov
# counters just before the ready marker, so the profile is of the NAT
# workload alone, and then waits for a line on the second UART (ttyAMA1,
# the host's pipe). On it, it copies every .gcda of /sys/kernel/debug/gcov
# (seq files: their size reads as 0, so they are read with cat) into
# /tmp and writes them back on ttyAMA1 as a base64 gzipped tar between
#   TUNER-GCOV-BEGIN <files>   and   TUNER-GCOV-END
/bin/busybox mkdir -p /proc /sys /dev /run /tmp /usr/bin /usr/sbin /sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /run

die() {
	echo "TUNER-ROUTER-FAILED: $*"
	while :; do sleep 3600; done
}

LAN_MAC=52:54:00:12:01:01
WAN_MAC=52:54:00:12:02:01
SND_MAC=52:54:00:12:01:02
SINK_MAC=52:54:00:12:02:02
lan= wan= snd= sink=
for d in /sys/class/net/*; do
	case $(cat "$d/address") in
	$LAN_MAC) lan=${d##*/} ;;
	$WAN_MAC) wan=${d##*/} ;;
	$SND_MAC) snd=${d##*/} ;;
	$SINK_MAC) sink=${d##*/} ;;
	esac
done
[ -n "$lan" ] && [ -n "$wan" ] || die "no interface with MAC $LAN_MAC / $WAN_MAC"
gen= gro=off
for w in $(cat /proc/cmdline); do
	case $w in
	tuner.gen=*) gen=${w#tuner.gen=} ;;
	tuner.gro=*) gro=${w#tuner.gro=} ;;
	esac
done
case $gro in on | off) ;; *) die "tuner.gro=$gro: on or off" ;; esac
if [ -n "$gen" ]; then
	[ -n "$snd" ] && [ -n "$sink" ] || die "tuner.gen: no interface with MAC $SND_MAC / $SINK_MAC"
fi

# pfifo, not pfifo_fast or fq_codel: the qdisc a device gets when it comes up.
echo pfifo >/proc/sys/net/core/default_qdisc || die "cannot set default_qdisc"
ip link set lo up
. /lib/router-nat.sh
nat_router "$lan" "$wan" 192.168.1.1/24 10.0.0.2/24 || die "$nat_failed"
if [ "$gro" = on ]; then
	for i in "$lan" "$wan"; do
		ethtool -K "$i" gro on || die "ethtool -K $i gro on"
	done
fi

if [ -n "$gen" ]; then
	for i in "$snd" "$sink"; do
		for f in gro gso tso tx rx sg lro; do
			ethtool -K "$i" "$f" off 2>/dev/null
		done
		ip link set "$i" up || die "$i up"
	done
	# busybox's ip neigh only shows and flushes; arp -s is permanent.
	arp -i "$lan" -s 192.168.1.2 52:54:00:12:01:99 || die "static neighbour on $lan"
	arp -i "$wan" -s 10.0.0.1 52:54:00:12:02:99 || die "static neighbour on $wan"
fi
echo "router: lan=$lan wan=$wan${gen:+ snd=$snd sink=$sink}"
tc qdisc show 2>/dev/null
for i in "$lan" "$wan"; do
	echo "router: $i offloads:"
	ethtool -k "$i" 2>/dev/null | grep -E '^(generic-receive|generic-segment|tcp-segment|tx-checksumming|scatter)'
	d=/sys/class/net/$i/device
	f=$(cat "$d/features" 2>/dev/null)
	coherent=no
	[ -e "$d/../of_node/dma-coherent" ] && coherent=yes
	echo "router: $i: virtio VERSION_1=$(echo "$f" | cut -c33) ACCESS_PLATFORM=$(echo "$f" | cut -c34)" \
		"of_node=$(basename "$(readlink "$d/../of_node")") dma-coherent=$coherent"
done
nft list ruleset | grep -c masquerade | sed 's/^/router: masquerade rules: /'
gcov=0
case " $(cat /proc/cmdline) " in *" tuner.gcov "*) gcov=1 ;; esac
if [ $gcov = 1 ]; then
	mount -t debugfs debugfs /sys/kernel/debug || die "cannot mount debugfs"
	g=/sys/kernel/debug/gcov
	[ -e $g/reset ] || die "no $g: not a CONFIG_GCOV_KERNEL kernel"
	stty -F /dev/ttyAMA1 raw -echo || die "no second UART /dev/ttyAMA1"
	echo 1 >$g/reset || die "cannot reset the gcov counters"
fi
echo "TUNER-ROUTER-READY"
if [ -n "$gen" ]; then
	ifs=$IFS
	IFS=,
	# shellcheck disable=SC2086 # split on commas
	set -- $gen
	IFS=$ifs
	if /bin/natgen "$lan" "$wan" "$snd" "$sink" "$@"; then
		for i in "$snd" "$sink"; do
			echo "router: $i received $(cat "/sys/class/net/$i/statistics/rx_packets") frames"
		done
	else
		echo "TUNER-GEN-FAILED: natgen exited with $?"
	fi
fi
if [ $gcov = 1 ]; then
	read -r _ </dev/ttyAMA1
	cd $g && find . -name '*.gcda' | while read -r f; do
		mkdir -p "/tmp/gcov/${f%/*}" && cat "$f" >"/tmp/gcov/$f"
	done
	n=$(find /tmp/gcov -name '*.gcda' | wc -l)
	echo "router: gcov: $n .gcda files"
	{
		echo "TUNER-GCOV-BEGIN $n"
		tar -c -C /tmp/gcov . | gzip -c | base64
		echo "TUNER-GCOV-END"
	} >/dev/ttyAMA1
fi
while :; do sleep 3600; done
