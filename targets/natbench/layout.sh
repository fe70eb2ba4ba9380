#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Prints the link order of the fast-path objects for a layout seed:
#   layout.sh SEED OBJECT...
# Seed 0: the objects as given (sorted by the caller). Otherwise a
# Fisher-Yates shuffle driven by a Park-Miller generator seeded from SEED,
# in awk with integers below 2^53 so any awk gives the same order.
seed=$1
shift
if [ "$seed" = 0 ]; then
	echo "$@"
	exit 0
fi
printf '%s\n' "$@" | awk -v seed="$seed" '
	{ o[n++] = $0 }
	END {
		x = (seed * 7919 + 1) % 2147483647
		if (x <= 0) x += 2147483646
		for (i = n - 1; i > 0; i--) {
			x = (x * 48271) % 2147483647
			j = x % (i + 1)
			t = o[i]; o[i] = o[j]; o[j] = t
		}
		for (i = 0; i < n; i++) printf "%s%s", o[i], (i < n - 1 ? " " : "\n")
	}'
