#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the lab router's initramfs (busybox sh, PID 1): the qemu-linux
# NAT router (router-init.sh's set-up: pfifo, offloads off, forwarding,
# nftables stateful forward filter + masquerade on WAN) plus what a bench
# router has: its settings and root's authorized ssh key read from the
# flash's config area (the first 1 MiB of /dev/vda, a tar archive written
# by lab.sh), dropbear on the LAN address, /sbin/sysupgrade, and reboot
# (busybox `reboot` signals PID 1: TERM -> sync, reboot).
# When everything is up it writes /tmp/router.ready (image=ID from the
# kernel's lab.image= argument) and prints LAB-ROUTER-READY on the console;
# on a failure LAB-ROUTER-FAILED: REASON (and no marker).
/bin/busybox mkdir -p /proc /sys /dev /run /tmp /usr/bin /usr/sbin /sbin /root /etc
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /run
mount -t tmpfs -o size=64m tmpfs /tmp
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

# busybox reboot/poweroff/halt signal PID 1.
going=0
restart() {
	[ $going = 1 ] && return
	going=1
	echo "lab-router: rebooting"
	sync
	reboot -f
}
trap restart TERM USR1 USR2 INT

fail() {
	echo "LAB-ROUTER-FAILED: $*"
	while :; do sleep 3600 & wait $!; done
}

# Settings: defaults, then the config area's lab.conf (KEY=VALUE lines; read,
# not sourced).
HOSTNAME=lab-router
LAN_MAC=52:54:00:1a:01:01
WAN_MAC=52:54:00:1a:01:02
LAN_ADDR=192.168.1.1/24
WAN_ADDR=10.0.0.2/24
mkdir -p /run/config
if [ -b /dev/vda ] && dd if=/dev/vda bs=65536 count=16 2>/dev/null | tar -x -f - -C /run/config 2>/dev/null &&
	[ -f /run/config/lab.conf ]; then
	while IFS='=' read -r k v; do
		case $k in
		HOSTNAME | LAN_MAC | WAN_MAC | LAN_ADDR | WAN_ADDR) eval "$k=\$v" ;;
		esac
	done </run/config/lab.conf
else
	echo "lab-router: no config area on /dev/vda: defaults, no ssh key"
fi
hostname "$HOSTNAME"

lan='' wan=''
for d in /sys/class/net/*; do
	case $(cat "$d/address") in
	"$LAN_MAC") lan=${d##*/} ;;
	"$WAN_MAC") wan=${d##*/} ;;
	esac
done
[ -n "$lan" ] && [ -n "$wan" ] || fail "no interface with MAC $LAN_MAC / $WAN_MAC"

echo pfifo >/proc/sys/net/core/default_qdisc || fail "cannot set default_qdisc"
ip link set lo up
. /lib/router-nat.sh
nat_router "$lan" "$wan" "$LAN_ADDR" "$WAN_ADDR" || fail "$nat_failed"

# ssh: root with the config area's key only (no passwords), on LAN.
cat >/etc/passwd <<'PW'
root:*:0:0:root:/root:/bin/sh
PW
echo 'root:x:0:' >/etc/group
echo /bin/sh >/etc/shells
mkdir -p /root/.ssh /etc/dropbear
chmod 700 /root /root/.ssh
if [ -f /run/config/authorized_keys ]; then
	cp /run/config/authorized_keys /root/.ssh/authorized_keys
	chmod 600 /root/.ssh/authorized_keys
fi
dropbearkey -t ed25519 -f /etc/dropbear/dropbear_ed25519_host_key >/dev/null 2>&1 ||
	fail "dropbearkey"
dropbear -s -r /etc/dropbear/dropbear_ed25519_host_key -p "${LAN_ADDR%/*}:22" ||
	fail "dropbear"

image=unknown
for a in $(cat /proc/cmdline); do
	case $a in lab.image=*) image=${a#lab.image=} ;; esac
done
echo "lab-router: $HOSTNAME lan=$lan ${LAN_ADDR} wan=$wan ${WAN_ADDR} image=$image"
echo "image=$image" >/tmp/router.ready
echo "LAB-ROUTER-READY"
while :; do sleep 3600 & wait $!; done
