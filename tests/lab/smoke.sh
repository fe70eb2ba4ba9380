#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lab smoke test (targets/lab-router): two lab routers, driven through the
# testbed scripts with the env `lab.sh env` prints, as tuner would:
#
#   1. images: known-good, a new one (same build, another tag) and a broken
#      one (-DTUNER_LAB_NO_INIT: no /init, no root: the kernel panics)
#   2. start r1 and r2 on fresh flashes; ready.sh on both
#   3. deploy.sh the new image to both; ready.sh; each runs it
#   4. measure.sh on both: valid iperf3 JSON, the server saw the router's
#      WAN address (masquerade)
#   5. reboot.sh r2; ready again from a new boot
#   6. r1's power cut during measure.sh: it must exit 75; recover.sh
#   7. the broken image on r2: it boot-loops on a kernel panic, ready.sh
#      says 75; recover.sh brings it back through the failsafe slot
#   8. a corrupt firmware slot on r1 (bad checksum): the supervisor boots
#      nothing; recover.sh brings it back
#   9. stop both: no QEMU, namespace or link left
# Prints the time of each step. Needs root, a lab build (LAB_BUILD, default
# results/lab-router/kernel-O2: targets/lab-router/build.sh with
# TUNER_OUT there) and scripts/install-kernel-deps.sh done.
#   LAB_BUILD   the lab build directory
#   LAB_STATE   the lab's state (default results/lab-router/smoke)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
lab=$root/targets/lab-router/lab.sh
tb=$root/targets/lab-router/testbed
build=${LAB_BUILD:-$root/results/lab-router/kernel-O2}
export LAB_STATE=${LAB_STATE:-$root/results/lab-router/smoke}
mkdir -p "$LAB_STATE"
work=$LAB_STATE/smoke
rm -rf "$work"
mkdir -p "$work"
T0=$SECONDS
fails=0

step() { echo "[$(printf '%4d' $((SECONDS - T0))) s] $*"; }
ok() { echo "    ok: $*"; }
bad() { echo "    FAIL: $*"; fails=$((fails + 1)); }
fatal() { echo "    FATAL: $*"; exit 1; }

cleanup() {
	"$lab" stop r1 >/dev/null 2>&1 || true
	"$lab" stop r2 >/dev/null 2>&1 || true
}
trap cleanup EXIT

# tbenv NAME: exports the testbed env that `lab.sh env NAME` prints (our
# own flow mapping: {KEY: 'value', ...}; no value holds ", ").
tbenv() {
	local m kv k v
	m=$("$lab" env "$1")
	m=${m#\{}
	m=${m%\}}
	while IFS= read -r kv; do
		k=${kv%%: *} v=${kv#*: }
		v=${v#\'} v=${v%\'}
		export "$k=$v"
	done < <(printf '%s\n' "$m" | sed 's/, /\n/g')
}

# ready_wait NAME SECONDS [IMAGE-ID]: polls ready.sh (as tuner does, every
# 2 s); with IMAGE-ID, the router must run that image. Sets waited.
ready_wait() {
	local n=$1 max=$2 want=${3:-} t=$SECONDS out
	tbenv "$n"
	while [ $((SECONDS - t)) -lt "$max" ]; do
		if out=$("$tb/ready.sh" 2>/dev/null); then
			waited=$((SECONDS - t))
			if [ -n "$want" ] && [ "$out" != "image=$want" ]; then
				echo "    $n runs $out, not image=$want"
				return 1
			fi
			return 0
		fi
		sleep 2
	done
	waited=$max
	return 1
}

# image_id FILE: the lab.image= id in the image's bootargs.
image_id() {
	rm -rf "$work/x"
	"$root/targets/lab-router/fwimage.sh" extract "$1" 0 "$work/x"
	grep -o 'lab\.image=[0-9a-f]*' "$work/x/bootargs" | cut -d= -f2
}
boots() { grep -c ': boot [0-9]* from' "$LAB_STATE/$1/supervisor.log" 2>/dev/null || true; }

step "images from $build"
[ -f "$build/arch/arm/boot/zImage" ] || fatal "no lab build in $build (targets/lab-router/build.sh)"
pack() { TUNER_OUT=$build LAB_PACK_ONLY=1 "$root/targets/lab-router/build.sh" 2>/dev/null; cp "$build/lab-firmware.img" "$1"; }
TUNER_FLAGS=-O2 LAB_IMAGE_TAG='' pack "$LAB_STATE/good.img"
TUNER_FLAGS=-O2 LAB_IMAGE_TAG=new pack "$work/new.img"
TUNER_FLAGS="-O2 -DTUNER_LAB_NO_INIT" LAB_IMAGE_TAG='' pack "$work/broken.img"
TUNER_FLAGS=-O2 LAB_IMAGE_TAG='' pack "$work/good-again.img" # leaves the build's artifact as it was
good_id=$(image_id "$LAB_STATE/good.img")
new_id=$(image_id "$work/new.img")
for f in "$LAB_STATE/good.img" "$work/new.img" "$work/broken.img"; do
	echo "    $("$root/targets/lab-router/fwimage.sh" check "$f" | cut -d' ' -f1,7)"
done

step "start r1 and r2 (fresh flashes)"
cleanup
for n in r1 r2; do rm -f "$LAB_STATE/$n/flash.img" "$LAB_STATE/$n/supervisor.log" "$LAB_STATE/$n/console.log"; done
"$lab" start r1 1
"$lab" start r2 2
echo "    r1 env: $("$lab" env r1)"
echo "    r2 env: $("$lab" env r2)"
for n in r1 r2; do
	if ready_wait $n 180 "$good_id"; then ok "$n ready on the known-good image $waited s after start"; else fatal "$n not ready"; fi
done

step "deploy the new image to r1 and r2"
for n in r1 r2; do
	tbenv $n
	t=$SECONDS
	if TUNER_ARTIFACT=$work/new.img "$tb/deploy.sh" 2>"$work/deploy-$n.err"; then
		ok "$n: deploy.sh returned after $((SECONDS - t)) s"
	else
		bad "$n: deploy.sh failed: $(tail -3 "$work/deploy-$n.err")"
	fi
done
for n in r1 r2; do
	sleep 2
	if ready_wait $n 180 "$new_id"; then ok "$n ready on the new image (+$waited s)"; else bad "$n not ready on the new image"; fi
done

measure_ok() { # NAME FILE
	local s
	jq -e '.end.sum_received.bits_per_second > 0' "$2" >/dev/null 2>&1 || { bad "$1: no valid iperf3 document"; return; }
	s=$(jq -r '.testbed.server_saw' "$2")
	tbenv "$1"
	[ "$s" = "$ROUTER_WAN_ADDR" ] || { bad "$1: the server saw $s, not $ROUTER_WAN_ADDR"; return; }
	ok "$1: $(jq -r '.end.sum_received.bits_per_second / 1e6 | floor' "$2") Mbit/s; server saw $s (the router's WAN address)"
}
step "measure r1 and r2 (IPERF_TIME=5)"
for n in r1 r2; do
	tbenv $n
	t=$SECONDS
	rc=0
	IPERF_TIME=5 "$tb/measure.sh" >"$work/measure-$n.json" 2>"$work/measure-$n.err" || rc=$?
	echo "    $n: measure.sh exit $rc after $((SECONDS - t)) s"
	if [ $rc -eq 0 ]; then measure_ok $n "$work/measure-$n.json"; else bad "$n: $(cat "$work/measure-$n.err")"; fi
done

step "reboot r2"
b=$(boots r2)
tbenv r2
t=$SECONDS
"$tb/reboot.sh" && ok "reboot.sh returned after $((SECONDS - t)) s" || bad "reboot.sh failed"
for _ in $(seq 60); do [ "$(boots r2)" -gt "$b" ] && break; sleep 0.5; done
[ "$(boots r2)" -gt "$b" ] && ok "r2 booted again ($(( $(boots r2) - b )) boot)" || bad "r2 did not reboot"
if ready_wait r2 180 "$new_id"; then ok "r2 ready again $((SECONDS - t)) s after reboot.sh"; else bad "r2 not ready after reboot"; fi

step "power cut on r1 during measure.sh"
tbenv r1
rc=0
t=$SECONDS
(sleep 4; "$ROUTER_POWER" off) &
cut=$!
IPERF_TIME=12 "$tb/measure.sh" >"$work/measure-cut.json" 2>"$work/measure-cut.err" || rc=$?
wait $cut
echo "    measure.sh: $(tail -1 "$work/measure-cut.err")"
[ $rc -eq 75 ] && ok "measure.sh exit 75 after $((SECONDS - t)) s" || bad "measure.sh exit $rc, want 75"
"$tb/ready.sh" >/dev/null 2>&1 && bad "r1 ready while powered off" || ok "ready.sh: 75 while powered off"
t=$SECONDS
if "$tb/recover.sh" 2>"$work/recover-r1.err"; then ok "recover.sh: 0 after $((SECONDS - t)) s"; else bad "recover.sh failed: $(cat "$work/recover-r1.err")"; fi
sed 's/^/      /' "$work/recover-r1.err"
if ready_wait r1 120 "$good_id"; then ok "r1 ready on the known-good image"; else bad "r1 not ready after recover"; fi

step "broken image (no /init: kernel panic) on r2"
tbenv r2
panics() { grep -c 'Kernel panic - not syncing' "$LAB_STATE/r2/supervisor.log" || true; }
p0=$(panics)
t=$SECONDS
TUNER_ARTIFACT=$work/broken.img "$tb/deploy.sh" 2>/dev/null && ok "deploy.sh accepted it (valid checksum)" || bad "deploy.sh refused the broken image"
for _ in $(seq 120); do
	[ $(( $(panics) - p0 )) -ge 2 ] && break
	sleep 1
done
n=$(( $(panics) - p0 ))
[ "$n" -ge 2 ] && ok "r2 boot-loops: $n panics within $((SECONDS - t)) s: $(grep -m1 -o 'Kernel panic - not syncing: .*' "$LAB_STATE/r2/supervisor.log")" ||
	bad "r2 did not panic ($n)"
"$tb/ready.sh" >/dev/null 2>&1 && bad "r2 ready on the broken image" || ok "ready.sh: 75"
t=$SECONDS
if "$tb/recover.sh" 2>"$work/recover-r2.err"; then ok "recover.sh: 0 after $((SECONDS - t)) s"; else bad "recover.sh failed: $(cat "$work/recover-r2.err")"; fi
sed 's/^/      /' "$work/recover-r2.err"
if ready_wait r2 120 "$good_id"; then ok "r2 ready on the known-good image"; else bad "r2 not ready after recover"; fi
rc=0
IPERF_TIME=5 "$tb/measure.sh" >"$work/measure-r2b.json" 2>"$work/measure-r2b.err" || rc=$?
if [ $rc -eq 0 ]; then measure_ok r2 "$work/measure-r2b.json"; else bad "r2 after recovery: measure.sh $rc"; fi

step "corrupt firmware slot on r1 (bad checksum: bricked)"
tbenv r1
# A few KB of garbage inside the slot's payload, then a reboot.
ip netns exec "$ROUTER_NS" ssh -n -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	-o LogLevel=ERROR -i "$ROUTER_KEY" "root@$ROUTER_HOST" \
	'dd if=/dev/urandom of=/dev/vda bs=512 seek=4096 count=8 conv=fsync 2>/dev/null && sync' ||
	bad "could not write the flash"
"$tb/reboot.sh" 2>/dev/null || bad "reboot.sh failed"
for _ in $(seq 60); do grep -q '^bricked' "$LAB_STATE/r1/state" 2>/dev/null && break; sleep 0.5; done
grep -q '^bricked' "$LAB_STATE/r1/state" && ok "supervisor: $(cat "$LAB_STATE/r1/state")" || bad "r1 not bricked: $(cat "$LAB_STATE/r1/state")"
"$tb/ready.sh" >/dev/null 2>&1 && bad "r1 ready while bricked" || ok "ready.sh: 75"
t=$SECONDS
if "$tb/recover.sh" 2>"$work/recover-r1b.err"; then ok "recover.sh: 0 after $((SECONDS - t)) s"; else bad "recover.sh failed: $(cat "$work/recover-r1b.err")"; fi
if ready_wait r1 120 "$good_id"; then ok "r1 ready on the known-good image"; else bad "r1 not ready after recover"; fi

step "stop both"
"$lab" stop r1
"$lab" stop r2
trap - EXIT
left=$(pgrep -af "qemu-system-arm.*$LAB_STATE" || true)
[ -z "$left" ] && ok "no QEMU left" || bad "QEMU left: $left"
left=$(ip netns list | grep -E '^lab-r[12]-' || true)
[ -z "$left" ] && ok "no namespace left" || bad "namespaces left: $left"
left=$(ip -o link show | awk -F': ' '{ print $2 }' | grep -E '^lab[12][btv][lw]' || true)
[ -z "$left" ] && ok "no bridge, tap or veth left" || bad "links left: $left"
for n in r1 r2; do
	p=$(cat "$LAB_STATE/$n/supervisor.pid" 2>/dev/null || true)
	[ -z "$p" ] || ! kill -0 "$p" 2>/dev/null || bad "$n's supervisor still runs"
done

step "done: $fails failure(s), $((SECONDS - T0)) s"
[ $fails -eq 0 ]
