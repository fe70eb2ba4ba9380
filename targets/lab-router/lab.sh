#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The lab: QEMU routers that behave like OpenWrt routers on a bench. This
# script is their bootloader, power supply and cabling:
#
#   lab.sh start NAME [INDEX]   cabling (namespaces, bridges, taps), the
#                               flash if missing, the config area, and the
#                               supervisor (power on)
#   lab.sh stop NAME            supervisor, QEMU, namespaces, links: gone
#                               (the flash and logs stay, as a router's flash)
#   lab.sh power NAME off|on|cycle [failsafe]
#                               a networked PDU; failsafe: the next boot is
#                               from the failsafe slot (the reset button)
#   lab.sh env NAME             the testbed env, a YAML flow mapping
#   lab.sh status NAME          power, what runs, boots, the last events
#
# NAME: 1-8 of [a-z0-9]. INDEX (1-9, default the lowest free one) picks the
# router's links, MACs and addresses:
#   namespaces  lab-NAME-lan (this side of the LAN: 192.168.(10+INDEX).2,
#               default route via the router) and lab-NAME-wan
#               (10.0.(10+INDEX).1, the iperf3 server's side, no route back)
#   links       labINDEXb[lw] bridges, labINDEXt[lw] taps, labINDEXv[lw]
#               veths (their peers are eth0 in the namespaces)
#   router      LAN 192.168.(10+INDEX).1/24 (ssh), WAN 10.0.(10+INDEX).2/24,
#               MACs 52:54:00:1a:II:01 (LAN) and :02 (WAN)
# The router's ssh is reached from the LAN namespace: `ip netns exec
# lab-NAME-lan ssh root@192.168.(10+INDEX).1` (ROUTER_NS in the env).
#
# The flash (state dir/flash.img, 32 MiB, a virtio-blk disk of the guest):
#   0       config area, 1 MiB: a tar of lab.conf (addresses, MACs, name)
#           and authorized_keys (the lab's public key); rewritten by start
#   1 MiB   firmware slot, 15 MiB: a fwimage.sh image (sysupgrade writes it)
#   16 MiB  failsafe slot, 15 MiB: the known-good image, written once
# A new flash gets the known-good image ($LAB_GOOD_IMAGE, default
# STATE/good.img) in both slots.
#
# The supervisor (its own session and process group; pid in
# STATE/NAME/supervisor.pid) loops: unless powered off, read the firmware
# slot (the failsafe slot once after `power cycle failsafe`), check it
# (fwimage.sh extract), boot it: qemu-system-arm -M vexpress-a9 -no-reboot
# with the flash as virtio-blk, a virtio-rng and two virtio-net NICs on the
# taps (QEMU's console output: STATE/NAME/console.log); when
# QEMU exits (guest reboot; panic=1 in the image's bootargs: a panic
# resets) boot again. A slot without a valid image (bad header or
# checksum) boots nothing until the next power event (a bricked router).
# Power off and cycle SIGKILL QEMU: a power cut, nothing synced.
#
# Options (environment):
#   LAB_STATE       state directory (default <repo>/results/lab-router)
#   LAB_GOOD_IMAGE  known-good firmware for new flashes (default
#                   $LAB_STATE/good.img; e.g. a lab build's lab-firmware.img)
#   LAB_QEMU_CPU    CPU for this router's QEMU (default (INDEX-1) mod CPUs)
#   LAB_MEM         guest memory (default 256M)
# Needs root.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
state=${LAB_STATE:-$root/results/lab-router}
fw=$here/fwimage.sh
# shellcheck source=../qemu-linux/cable.sh
. "$root/targets/qemu-linux/cable.sh"
FLASH_SIZE=$((32 << 20))
CFG_OFF=0
CFG_SIZE=$((1 << 20))
FW_OFF=$((1 << 20))
FS_OFF=$((16 << 20))

say() { echo "lab: $*" >&2; }
die() { say "$*"; exit 1; }
usage() { sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

check_name() {
	case $1 in
	'' | *[!a-z0-9]*) die "bad router name '$1' (1-8 of [a-z0-9])" ;;
	esac
	[ ${#1} -le 8 ] || die "router name '$1' longer than 8"
}

# vars NAME: the router's names and addresses from its index file.
vars() {
	name=$1
	dir=$state/$name
	[ -f "$dir/index" ] || die "router $name was never started (no $dir/index)"
	idx=$(cat "$dir/index")
	ns_lan=lab-$name-lan ns_wan=lab-$name-wan
	net=$((10 + idx))
	lan_router=192.168.$net.1 lan_host=192.168.$net.2
	wan_router=10.0.$net.2 wan_server=10.0.$net.1
	mac_lan=$(printf '52:54:00:1a:%02x:01' "$idx")
	mac_wan=$(printf '52:54:00:1a:%02x:02' "$idx")
	key=$state/id_ed25519
}

sup_pid() {
	local p
	p=$(cat "$dir/supervisor.pid" 2>/dev/null) || return 1
	kill -0 "$p" 2>/dev/null || return 1
	echo "$p"
}

remove_net() {
	local s ns p
	# Whatever still runs in the namespaces (an iperf3 server of a killed
	# measure.sh) goes with them.
	for ns in "$ns_lan" "$ns_wan"; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
	done
	ip netns del "$ns_lan" 2>/dev/null || true
	ip netns del "$ns_wan" 2>/dev/null || true
	for s in bl bw tl tw vl vw; do
		ip link del "lab$idx$s" 2>/dev/null || true
	done
}

make_net() {
	remove_net
	ip netns add "$ns_lan"
	ip netns add "$ns_wan"
	cable_side "lab${idx}bl" "lab${idx}tl" "lab${idx}vl" "$ns_lan" "$lan_host/24"
	cable_side "lab${idx}bw" "lab${idx}tw" "lab${idx}vw" "$ns_wan" "$wan_server/24"
	ip -n "$ns_lan" route add default via "$lan_router"
}

# The config area: lab.conf and authorized_keys as a tar at offset 0.
write_config() {
	local t
	t=$(mktemp -d)
	cat >"$t/lab.conf" <<EOF
HOSTNAME=$name
LAN_MAC=$mac_lan
WAN_MAC=$mac_wan
LAN_ADDR=$lan_router/24
WAN_ADDR=$wan_router/24
EOF
	cp "$key.pub" "$t/authorized_keys"
	tar -cf "$t/cfg.tar" -C "$t" --owner=0 --group=0 lab.conf authorized_keys
	[ "$(stat -c %s "$t/cfg.tar")" -le $CFG_SIZE ] || die "config area too big"
	dd if=/dev/zero of="$dir/flash.img" bs=64K seek=$((CFG_OFF / 65536)) count=$((CFG_SIZE / 65536)) conv=notrunc status=none
	dd if="$t/cfg.tar" of="$dir/flash.img" bs=64K seek=$((CFG_OFF / 65536)) conv=notrunc status=none
	rm -rf "$t"
}

cmd_start() {
	local n=$1 want=${2:-} i used good
	check_name "$n"
	dir=$state/$n
	mkdir -p "$dir"
	if sup_pid >/dev/null; then die "router $n is already running (lab.sh stop $n)"; fi
	if [ -n "$want" ]; then
		case $want in [1-9]) ;; *) die "bad INDEX '$want' (1-9)" ;; esac
	fi
	# The index: given, else the one used before, else the lowest free one.
	used=" "
	for i in "$state"/*/index; do
		[ -f "$i" ] || continue
		[ "$(dirname "$i")" = "$dir" ] && continue
		if [ -f "$(dirname "$i")/supervisor.pid" ] &&
			kill -0 "$(cat "$(dirname "$i")/supervisor.pid")" 2>/dev/null; then
			used="$used$(cat "$i") "
		fi
	done
	if [ -z "$want" ] && [ -f "$dir/index" ]; then want=$(cat "$dir/index"); fi
	if [ -n "$want" ]; then
		case $used in *" $want "*) die "index $want is in use by another running router" ;; esac
	else
		for i in 1 2 3 4 5 6 7 8 9; do
			case $used in *" $i "*) ;; *) want=$i; break ;; esac
		done
		[ -n "$want" ] || die "no free index"
	fi
	echo "$want" >"$dir/index"
	vars "$n"

	if [ ! -f "$key" ]; then
		ssh-keygen -q -t ed25519 -N '' -C lab-router -f "$key" || die "ssh-keygen failed"
	fi
	good=${LAB_GOOD_IMAGE:-$state/good.img}
	[ -f "$good" ] || die "no known-good image $good (LAB_GOOD_IMAGE: a lab build's lab-firmware.img)"
	"$fw" check "$good" >/dev/null || die "known-good image $good is not valid"
	cp "$good" "$dir/good.img"
	if [ ! -f "$dir/flash.img" ]; then
		truncate -s $FLASH_SIZE "$dir/flash.img.new"
		dd if="$good" of="$dir/flash.img.new" bs=64K seek=$((FW_OFF / 65536)) conv=notrunc status=none
		dd if="$good" of="$dir/flash.img.new" bs=64K seek=$((FS_OFF / 65536)) conv=notrunc status=none
		mv "$dir/flash.img.new" "$dir/flash.img"
		say "$n: new flash with $("$fw" check "$good" | cut -d' ' -f1) in both slots"
	fi
	write_config
	cat >"$dir/power" <<EOF
#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The PDU outlet of lab router $n: power off|on|cycle [failsafe].
exec "$here/lab.sh" power $n "\$@"
EOF
	chmod +x "$dir/power"
	make_net
	echo on >"$dir/power.state"
	rm -f "$dir/failsafe" "$dir/qemu.pid"
	setsid "$here/lab.sh" _supervise "$n" </dev/null >>"$dir/supervisor.log" 2>&1 &
	echo $! >"$dir/supervisor.pid"
	say "$n: started (index $idx, supervisor $!, ssh root@$lan_router from netns $ns_lan)"
}

cmd_stop() {
	local n=$1 p q t
	check_name "$n"
	dir=$state/$n
	vars "$n"
	if p=$(sup_pid); then
		kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true
		for t in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL -- "-$p" 2>/dev/null || true
	fi
	q=$(cat "$dir/qemu.pid" 2>/dev/null || true)
	if [ -n "$q" ] && kill -0 "$q" 2>/dev/null; then kill -KILL "$q" 2>/dev/null || true; fi
	rm -f "$dir/supervisor.pid" "$dir/qemu.pid"
	remove_net
	echo off >"$dir/power.state"
	say "$n: stopped"
}

cmd_power() {
	local n=$1 what=${2:-} fs=${3:-} p t
	check_name "$n"
	dir=$state/$n
	vars "$n"
	p=$(sup_pid) || die "router $n is not started (lab.sh start $n)"
	case $what in
	off | on | cycle) ;;
	*) die "power $n: off, on or cycle [failsafe]" ;;
	esac
	case $fs in
	'') ;;
	failsafe) [ "$what" != off ] || die "power off failsafe: makes no sense" ;;
	*) die "power $n $what: unknown '$fs'" ;;
	esac
	[ -n "$fs" ] && touch "$dir/failsafe"
	if [ "$what" = off ]; then echo off >"$dir/power.state"; else echo on >"$dir/power.state"; fi
	echo "$(date '+%F %T') power $what $fs" >>"$dir/supervisor.log"
	kill -USR1 "$p"
	if [ "$what" = off ]; then
		for t in $(seq 50); do
			[ -f "$dir/qemu.pid" ] || break
			sleep 0.2
		done
	fi
	say "$n: power $what${fs:+ $fs}"
}

cmd_env() {
	local n=$1
	check_name "$n"
	dir=$state/$n
	vars "$n"
	printf "{ROUTER_HOST: '%s', ROUTER_PORT: '22', ROUTER_USER: root, ROUTER_KEY: '%s', ROUTER_NS: '%s', LAN_NS: '%s', WAN_NS: '%s', WAN_ADDR: '%s', ROUTER_WAN_ADDR: '%s', ROUTER_POWER: '%s', ROUTER_GOOD_IMAGE: '%s'}\n" \
		"$lan_router" "$key" "$ns_lan" "$ns_lan" "$ns_wan" "$wan_server" "$wan_router" \
		"$dir/power" "$dir/good.img"
}

cmd_status() {
	local n=$1 p q
	check_name "$n"
	dir=$state/$n
	vars "$n"
	if p=$(sup_pid); then echo "supervisor: $p"; else echo "supervisor: not running"; fi
	echo "power: $(cat "$dir/power.state" 2>/dev/null || echo off)"
	echo "state: $(cat "$dir/state" 2>/dev/null || echo -)"
	q=$(cat "$dir/qemu.pid" 2>/dev/null || true)
	echo "qemu: ${q:--}"
	echo "boots: $(grep -c ': boot [0-9]* from' "$dir/supervisor.log" 2>/dev/null || true)"
	echo "firmware slot: $("$fw" check_at "$dir/flash.img" $FW_OFF 2>&1 || true)"
	echo "failsafe slot: $("$fw" check_at "$dir/flash.img" $FS_OFF 2>&1 || true)"
	echo "last events:"
	tail -5 "$dir/supervisor.log" 2>/dev/null | sed 's/^/  /'
}

# The supervisor (setsid by start): boot loop.
supervise() {
	local n=$1 slot off cpu boots=0 t0 rc c0 why qpid=
	dir=$state/$n
	vars "$n"
	cd "$dir"
	echo $$ >supervisor.pid
	cpu=${LAB_QEMU_CPU:-$(( (idx - 1) % $(nproc) ))}
	ev=0 quit=0
	trap 'ev=1; [ -n "$qpid" ] && kill -KILL "$qpid" 2>/dev/null' USR1
	trap 'quit=1; [ -n "$qpid" ] && kill -KILL "$qpid" 2>/dev/null' TERM INT HUP
	log() { echo "$(date '+%F %T') $n: $*"; }
	idle() { while [ $ev = 0 ] && [ $quit = 0 ]; do sleep 0.5 & wait $! || true; done; }
	log "supervisor $$ up (index $idx, QEMU on CPU $cpu)"
	while [ $quit = 0 ]; do
		ev=0
		if [ "$(cat power.state 2>/dev/null)" = off ]; then
			echo off >state
			log "powered off"
			idle
			continue
		fi
		slot=firmware off=$FW_OFF
		if [ -e failsafe ]; then
			rm -f failsafe
			slot=failsafe off=$FS_OFF
		fi
		rm -rf boot
		if ! why=$("$fw" extract flash.img $off boot 2>&1); then
			echo "bricked ($slot slot: $why)" >state
			log "no valid image in the $slot slot ($why): nothing boots until a power event"
			idle
			continue
		fi
		boots=$((boots + 1))
		log "boot $boots from $slot: $(cat boot/name)"
		c0=$(stat -c %s console.log 2>/dev/null || echo 0)
		echo "running $slot $(cat boot/name)" >state
		t0=$SECONDS
		taskset -c "$cpu" qemu-system-arm -M vexpress-a9 -m "${LAB_MEM:-256M}" -smp 1 \
			-audiodev none,id=snd0 -no-reboot -display none -monitor none \
			-dtb boot/dtb -kernel boot/zImage -initrd boot/initramfs \
			-append "$(cat boot/bootargs)" \
			-chardev "file,id=con,path=console.log,append=on" -serial chardev:con \
			-drive "if=none,id=flash,file=flash.img,format=raw,cache=writeback" \
			-device virtio-blk-device,drive=flash -device virtio-rng-device \
			-netdev "tap,id=lan,ifname=lab${idx}tl,script=no,downscript=no" \
			-device "virtio-net-device,netdev=lan,mac=$mac_lan,csum=off,guest_csum=off" \
			-netdev "tap,id=wan,ifname=lab${idx}tw,script=no,downscript=no" \
			-device "virtio-net-device,netdev=wan,mac=$mac_wan,csum=off,guest_csum=off" \
			</dev/null >>qemu.log 2>&1 &
		qpid=$!
		echo $qpid >qemu.pid
		[ $ev = 1 ] || [ $quit = 1 ] && kill -KILL $qpid 2>/dev/null
		while :; do
			rc=0
			wait $qpid 2>/dev/null || rc=$?
			kill -0 $qpid 2>/dev/null || break
		done
		qpid=
		rm -f qemu.pid
		why=$(tail -c +$((c0 + 1)) console.log 2>/dev/null |
			grep -a -m1 -o -E 'Kernel panic - not syncing: .*|lab-router: rebooting|LAB-ROUTER-FAILED: .*' |
			tr -d '\r' || true)
		[ $ev = 1 ] && why="power event${why:+; $why}"
		log "QEMU exited ($rc) after $((SECONDS - t0)) s${why:+: $why}"
	done
	echo stopped >state
	log "supervisor stopped"
}

# The whole command line is parsed before it runs (main and exit on one
# line): a supervisor keeps running this file for days, and bash reads a
# script as it goes, so an edited lab.sh must not be read from the middle.
main() {
	local cmd
	[ $# -ge 1 ] || usage
	cmd=$1
	shift
	[ "$(id -u)" -eq 0 ] || die "needs root (namespaces, taps)"
	case $cmd in
	start) [ $# -ge 1 ] && [ $# -le 2 ] || usage; cmd_start "$@" ;;
	stop) [ $# -eq 1 ] || usage; cmd_stop "$1" ;;
	power) [ $# -ge 2 ] && [ $# -le 3 ] || usage; cmd_power "$@" ;;
	env) [ $# -eq 1 ] || usage; cmd_env "$1" ;;
	status) [ $# -eq 1 ] || usage; cmd_status "$1" ;;
	_supervise) supervise "$1" ;;
	*) usage ;;
	esac
}
main "$@"; exit $?
