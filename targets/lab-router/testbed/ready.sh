#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Testbed ready probe (one quick try; tuner polls it): the router answers
# over ssh and says it is up: /tmp/router.ready exists (written at the end
# of its boot, once the interfaces, NAT and ssh are configured; on an
# OpenWrt router /etc/rc.local can write it). Prints its content (the
# lab's: image=ID). Environment: common.sh's.
# Exit 0: ready; 75: not yet, or unreachable.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
out=$(rssh 'cat /tmp/router.ready' </dev/null 2>/dev/null) || exit $EX_TEMPFAIL
[ -n "$out" ] || exit $EX_TEMPFAIL
printf '%s\n' "$out"
exit 0
