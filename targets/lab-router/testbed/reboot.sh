#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Testbed reboot: `reboot` on the router over ssh; returns once the running
# system has gone down (gone_from; then poll ready.sh). Environment:
# common.sh's.
# Exit 0: reboot started; 75: the router does not answer over ssh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
rssh true </dev/null 2>/dev/null || { echo "reboot.sh: router $ROUTER_HOST does not answer over ssh" >&2; exit $EX_TEMPFAIL; }
old=$(boot_id </dev/null) || { echo "reboot.sh: router $ROUTER_HOST does not answer over ssh" >&2; exit $EX_TEMPFAIL; }
rc=0
rssh 'reboot' </dev/null || rc=$?
# 255 here: the connection dropped as the router went down.
if [ $rc -eq 0 ] || [ $rc -eq 255 ]; then
	gone_from "$old" || { echo "reboot.sh: $ROUTER_HOST did not go down within ${ROUTER_DOWN_WAIT:-120} s" >&2; exit 1; }
	echo "reboot.sh: $ROUTER_HOST rebooting" >&2
	exit 0
fi
echo "reboot.sh: reboot on $ROUTER_HOST failed ($rc)" >&2
exit 1
