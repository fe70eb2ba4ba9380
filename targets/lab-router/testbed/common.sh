# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Sourced by the testbed scripts: the router's ssh from the environment.
# Generic: OpenSSH's client against any ssh server (dropbear on OpenWrt
# and in the lab); nothing here knows about the lab.
#
#   ROUTER_HOST   the router's address (required)
#   ROUTER_PORT   ssh port (default 22)
#   ROUTER_USER   (default root)
#   ROUTER_KEY    identity file (default: ssh's own)
#   ROUTER_NS     network namespace from which the router is reached
#                 (default: this host's)
#   ROUTER_SSH_TIMEOUT  ssh ConnectTimeout (default 5)
# Values are only ever passed as arguments, never spliced into shell text;
# the commands the router runs are fixed strings.

EX_TEMPFAIL=75
: "${ROUTER_HOST:?ROUTER_HOST not set}"
ROUTER_PORT=${ROUTER_PORT:-22}
ROUTER_USER=${ROUTER_USER:-root}
case $ROUTER_PORT in '' | *[!0-9]*) echo "${0##*/}: bad ROUTER_PORT '$ROUTER_PORT'" >&2; exit 1 ;; esac

# in_ns CMD...: CMD in ROUTER_NS (or here).
in_ns() {
	if [ -n "${ROUTER_NS:-}" ]; then
		ip netns exec "$ROUTER_NS" "$@"
	else
		"$@"
	fi
}

# rssh REMOTE-COMMAND: runs it on the router; ssh's exit status (255: no
# connection, or the connection dropped).
rssh() {
	local a=(ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
		-o LogLevel=ERROR -o ConnectTimeout="${ROUTER_SSH_TIMEOUT:-5}"
		-o ServerAliveInterval=5 -o ServerAliveCountMax=2 -p "$ROUTER_PORT")
	[ -n "${ROUTER_KEY:-}" ] && a+=(-i "$ROUTER_KEY" -o IdentitiesOnly=yes)
	in_ns "${a[@]}" -- "$ROUTER_USER@$ROUTER_HOST" "$@"
}

# boot_id: the router's boot id on stdout (changes with every boot);
# non-zero when it does not answer.
boot_id() {
	rssh 'cat /proc/sys/kernel/random/boot_id' </dev/null 2>/dev/null
}

# gone_from OLD-BOOT-ID: waits until the boot OLD-BOOT-ID is over (the
# router answers with another boot id, or not at all), for at most
# ROUTER_DOWN_WAIT seconds (default 120). A router that was told to reboot
# still answers for a while: without this wait, a probe right after
# sysupgrade or reboot would see the old system up. 0 gone, 1 not.
gone_from() {
	local id deadline=$((SECONDS + ${ROUTER_DOWN_WAIT:-120}))
	while [ $SECONDS -lt $deadline ]; do
		id=$(boot_id) || return 0
		[ -n "$id" ] && [ "$id" != "$1" ] && return 0
		sleep 1
	done
	return 1
}
