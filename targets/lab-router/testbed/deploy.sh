#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Testbed deploy: copies $TUNER_ARTIFACT (a firmware image) to the router
# over ssh (`cat >/tmp/sysupgrade.img`: needs no scp or sftp server on the
# router) and runs `sysupgrade -n /tmp/sysupgrade.img` there. Returns once
# the upgrade started: the router flashes and reboots by itself (poll
# ready.sh), once the running system has gone down (gone_from). Environment:
# common.sh's, TUNER_ARTIFACT.
# Exit 0: upgrade under way; 75: the router did not answer over ssh
# (the testbed's fault); 1: anything else (image refused...), reason on
# stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
die() { echo "deploy.sh: $2" >&2; exit "$1"; }

img=${TUNER_ARTIFACT:?TUNER_ARTIFACT not set}
[ -f "$img" ] || die 1 "no image $img"
rssh true </dev/null 2>/dev/null || die $EX_TEMPFAIL "router $ROUTER_HOST does not answer over ssh"
rssh 'rm -f /tmp/sysupgrade.img; cat >/tmp/sysupgrade.img' <"$img" ||
	die $EX_TEMPFAIL "copying $img to $ROUTER_HOST:/tmp failed"
want=$(stat -c %s "$img")
got=$(rssh 'wc -c </tmp/sysupgrade.img' </dev/null | tr -d ' \r') || die $EX_TEMPFAIL "router went away after the copy"
[ "$got" = "$want" ] || die 1 "copied $got of $want bytes (no room in /tmp?)"
old=$(boot_id </dev/null) || die $EX_TEMPFAIL "router went away after the copy"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
rssh 'sysupgrade -n /tmp/sysupgrade.img' </dev/null >"$out" 2>&1 || rc=$?
cat "$out" >&2
# OpenWrt's sysupgrade closes the ssh sessions when it starts flashing
# (ssh then exits 255): its message says it started.
if [ $rc -eq 0 ] || { [ $rc -eq 255 ] && grep -qE 'Commencing upgrade|writing image' "$out"; }; then
	gone_from "$old" || die 1 "sysupgrade on $ROUTER_HOST started, but the router did not reboot within ${ROUTER_DOWN_WAIT:-120} s"
	echo "deploy.sh: $img ($want bytes) on $ROUTER_HOST: upgrade started, the old system is down" >&2
	exit 0
fi
die 1 "sysupgrade on $ROUTER_HOST failed ($rc)"
