#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Testbed recovery: power-cycles the router into its failsafe image
# (`$ROUTER_POWER cycle failsafe`: the PDU, and the reset button held), waits
# until it answers over ssh and is up, then, when ROUTER_GOOD_IMAGE is set,
# sysupgrades that known-good image (deploy.sh) and waits until the router
# answers again from a new boot. Environment: common.sh's, plus
#   ROUTER_POWER       executable: the power switch (arguments: cycle failsafe)
#   ROUTER_GOOD_IMAGE  known-good firmware image (optional)
#   RECOVER_WAIT       seconds to wait for each boot (default 240)
# Exit 0: the router is back on a known-good image (poll ready.sh); 1: not.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
die() { echo "recover.sh: $*" >&2; exit 1; }
wait_s=${RECOVER_WAIT:-240}
case $wait_s in '' | *[!0-9]*) die "bad RECOVER_WAIT '$wait_s'" ;; esac
power=${ROUTER_POWER:?ROUTER_POWER not set}
[ -x "$power" ] || die "ROUTER_POWER $power is not executable"
t0=$SECONDS

# up_from OLD_BOOT_ID: waits until the router is up (ready marker) with
# another boot id; prints the new one.
up_from() {
	local old=$1 id deadline=$((SECONDS + wait_s))
	while [ $SECONDS -lt $deadline ]; do
		id=$(boot_id) && [ -n "$id" ] && [ "$id" != "$old" ] &&
			rssh 'test -s /tmp/router.ready' </dev/null 2>/dev/null && { echo "$id"; return 0; }
		sleep 2
	done
	return 1
}

old=$(boot_id) || old=none
"$power" cycle failsafe || die "$power cycle failsafe failed"
id=$(up_from "$old") || die "no answer over ssh within $wait_s s after the power cycle"
echo "recover.sh: $ROUTER_HOST up on its failsafe image after $((SECONDS - t0)) s" >&2
if [ -n "${ROUTER_GOOD_IMAGE:-}" ]; then
	TUNER_ARTIFACT=$ROUTER_GOOD_IMAGE "$here/deploy.sh" || die "sysupgrade of $ROUTER_GOOD_IMAGE failed"
	up_from "$id" >/dev/null || die "no answer within $wait_s s after the sysupgrade"
	echo "recover.sh: $ROUTER_HOST up on $ROUTER_GOOD_IMAGE after $((SECONDS - t0)) s" >&2
fi
exit 0
