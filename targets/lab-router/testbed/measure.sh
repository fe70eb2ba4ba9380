#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Testbed measure: one `iperf3 -J` TCP run from the LAN side through the
# router (NAT) to $WAN_ADDR; prints the client's JSON document on stdout
# (tuner's iperf3 parser), with "testbed": {"router_boot_id", and, when this
# script ran the server, "server_saw": the client address the server saw
# (the router's WAN address if it masqueraded)} added.
#
# Environment: common.sh's (the router's ssh: probed before and after),
#   WAN_ADDR        the iperf3 server's address (required)
#   LAN_NS          namespace of the client (default: this host)
#   WAN_NS          namespace of the server (default: this host)
#   IPERF_SERVER    start (default): this script runs `iperf3 -s -1` (in
#                   WAN_NS) for the run; external: one is already running
#                   at WAN_ADDR (a real bench's server)
#   IPERF_PORT      (default 5201)
#   IPERF_TIME      seconds (default 10); IPERF_OMIT warm-up seconds
#                   (default 1)
#   ROUTER_WAN_ADDR the router's WAN address: with IPERF_SERVER=start the
#                   server must have seen it as its client (else exit 1)
#   ROUTER_QDISC    pinned setting, applied over ssh before the run: every
#                   interface's root qdisc (tc qdisc replace ... root KIND,
#                   unless it is KIND already: busybox tc cannot replace)
#   ROUTER_RPS      pinned setting: hex CPU mask into every rx queue's
#                   rps_cpus
# Exit 0: measured. 75: the testbed's fault, not the build's: the router
# does not answer over ssh (before or after), it rebooted or went away
# during the run (a power cut: the lab cannot tell one from a crash), the
# iperf3 server is down or refused, a pinned setting could not be applied.
# 1: anything else (the router is up, same boot, yet no valid run: e.g. no
# forwarding or no masquerade).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
say() { echo "measure.sh: $*" >&2; }
tempfail() { say "$* (testbed fault)"; exit $EX_TEMPFAIL; }
die() { say "$*"; exit 1; }

wan=${WAN_ADDR:?WAN_ADDR not set}
itime=${IPERF_TIME:-10}
iomit=${IPERF_OMIT:-1}
port=${IPERF_PORT:-5201}
server=${IPERF_SERVER:-start}
for v in "$itime" "$iomit" "$port"; do
	case $v in '' | *[!0-9]*) die "bad number '$v' in IPERF_TIME/IPERF_OMIT/IPERF_PORT" ;; esac
done
case $server in start | external) ;; *) die "IPERF_SERVER: start or external, not '$server'" ;; esac
case ${ROUTER_QDISC:-} in *[!a-z0-9_]*) die "bad ROUTER_QDISC '$ROUTER_QDISC'" ;; esac
case ${ROUTER_RPS:-} in *[!0-9a-fA-F,]*) die "bad ROUTER_RPS '$ROUTER_RPS'" ;; esac

wns() { if [ -n "${WAN_NS:-}" ]; then ip netns exec "$WAN_NS" "$@"; else "$@"; fi; }
lns() { if [ -n "${LAN_NS:-}" ]; then ip netns exec "$LAN_NS" "$@"; else "$@"; fi; }

tmp=$(mktemp -d /tmp/lab-measure.XXXXXX)
srv_pid=
cleanup() {
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null && wait "$srv_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

boot0=$(boot_id) && [ -n "$boot0" ] || tempfail "router $ROUTER_HOST does not answer over ssh"

# Pinned settings: values go to the router on stdin, not in the command.
if [ -n "${ROUTER_QDISC:-}" ]; then
	printf '%s\n' "$ROUTER_QDISC" | rssh 'read -r q; for d in /sys/class/net/*; do
		d=${d##*/}; [ "$d" = lo ] && continue
		tc qdisc show dev "$d" | grep -q "^qdisc $q " && continue
		tc qdisc replace dev "$d" root "$q" || exit 1; done' ||
		tempfail "cannot set qdisc $ROUTER_QDISC on the router"
fi
if [ -n "${ROUTER_RPS:-}" ]; then
	printf '%s\n' "$ROUTER_RPS" | rssh 'read -r m; n=0; for f in /sys/class/net/*/queues/rx-*/rps_cpus; do
		[ -e "$f" ] || continue; echo "$m" >"$f" || exit 1; n=$((n + 1)); done; [ $n -gt 0 ]' ||
		tempfail "cannot set rps_cpus $ROUTER_RPS on the router"
fi

if [ $server = start ]; then
	# Not through wns: $! must be the server itself (ip netns exec execs
	# it), for the cleanup's kill.
	srv=(iperf3 -s -1 -B "$wan" -p "$port" -J)
	[ -n "${WAN_NS:-}" ] && srv=(ip netns exec "$WAN_NS" "${srv[@]}")
	"${srv[@]}" >"$tmp/server.json" 2>"$tmp/server.err" &
	srv_pid=$!
	up=0
	for _ in $(seq 50); do
		if wns ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; then up=1; break; fi
		kill -0 "$srv_pid" 2>/dev/null || break
		sleep 0.1
	done
	[ $up = 1 ] || tempfail "the iperf3 server did not start on $wan:$port: $(cat "$tmp/server.err")"
fi

rc=0
lns timeout -k 5 $((itime + iomit + 40)) iperf3 -c "$wan" -p "$port" -t "$itime" -O "$iomit" -J \
	--connect-timeout 5000 --snd-timeout 10000 >"$tmp/client.json" 2>"$tmp/client.err" || rc=$?
# iperf3 3.12 can exit 0 with an "error" in its document (e.g. "unable to
# send control message" when the router went away mid-run).
if [ $rc -eq 0 ] && ! jq -e '(.error // "") == "" and .end.sum_received.bytes > 0' \
	"$tmp/client.json" >/dev/null 2>&1; then
	rc=1
fi
if [ $rc -ne 0 ]; then
	err=$(jq -r '.error // empty' "$tmp/client.json" 2>/dev/null)
	err="${err:-$(tail -c 300 "$tmp/client.err")}"
	[ $rc -eq 124 ] && err="timed out${err:+; $err}"
	boot1=$(boot_id) || tempfail "iperf3 failed ($rc: $err) and the router no longer answers over ssh: it went away"
	[ "$boot1" = "$boot0" ] || tempfail "iperf3 failed ($rc: $err) and the router rebooted meanwhile"
	case $err in
	*"Connection refused"* | *"connection refused"* | *"server is busy"*)
		tempfail "the iperf3 server at $wan:$port refused: $err" ;;
	esac
	if [ $server = start ] && ! kill -0 "$srv_pid" 2>/dev/null && [ ! -s "$tmp/server.json" ]; then
		tempfail "the iperf3 server died: $(cat "$tmp/server.err")"
	fi
	die "iperf3 failed ($rc) through a router that stayed up: $err"
fi
boot1=$(boot_id) || tempfail "the router stopped answering over ssh right after the run"
[ "$boot1" = "$boot0" ] || tempfail "the router rebooted during the run"
jq -e '.end.sum_received.bytes > 0' "$tmp/client.json" >/dev/null 2>&1 ||
	die "iperf3 gave no valid document"

saw=null
if [ $server = start ]; then
	wait "$srv_pid" 2>/dev/null
	srv_pid=
	saw=$(jq -c '.start.connected[0].remote_host // null' "$tmp/server.json" 2>/dev/null) || saw=null
	if [ -n "${ROUTER_WAN_ADDR:-}" ] && [ "$saw" != "\"$ROUTER_WAN_ADDR\"" ]; then
		die "the server saw $saw, not the router's WAN address $ROUTER_WAN_ADDR: no masquerade?"
	fi
fi
jq --arg b "$boot0" --argjson s "$saw" '. + {testbed: ({router_boot_id: $b} +
	(if $s == null then {} else {server_saw: $s} end))}' "$tmp/client.json" ||
	die "cannot print the document"
