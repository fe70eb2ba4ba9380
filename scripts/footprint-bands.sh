#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The per-packet instruction footprint by rate, from the lines file the
# uarch plugin writes with lines=on (one "0xADDR COUNT" line per executed
# 32-byte line of counted code, COUNT the executions of its busiest
# instruction):
#
#   footprint-bands.sh LINES_FILE PACKETS [LABEL]
#
# A line's rate is COUNT / PACKETS. Prints the code executed at all, and
# the KB of 32-byte lines run at least 0.001, 0.01, 0.05, 0.2 and 0.5
# times per packet, one line:
#   LABEL: executed 104.2 KB; >=0.001 54.7 KB; >=0.01 50.1 KB; ...
# (natbench's and the kernel's footprint.sh both print through this, so
# the two are measured the same way).
set -eu

if [ $# -lt 2 ] || [ ! -r "$1" ]; then
	echo "usage: footprint-bands.sh LINES_FILE PACKETS [LABEL]" >&2
	exit 2
fi
case $2 in '' | *[!0-9]*) echo "footprint-bands.sh: packets '$2' is not a count" >&2; exit 2 ;; esac
[ "$2" -gt 0 ] || { echo "footprint-bands.sh: no packets" >&2; exit 2; }
awk -v P="$2" -v label="${3:-footprint}" '
BEGIN { split("0.001 0.01 0.05 0.2 0.5", th, " ") }
/^#/ { next }
NF != 2 || $2 !~ /^[0-9]+$/ { printf "footprint-bands.sh: %s:%d: not \"0xADDR COUNT\"\n", FILENAME, NR > "/dev/stderr"; bad = 1; exit 1 }
{
	all++
	for (i = 1; i <= 5; i++)
		if ($2 >= th[i] * P)
			n[i]++
}
END {
	if (bad)
		exit 1
	printf "%s: executed %.1f KB", label, all * 32 / 1024
	for (i = 1; i <= 5; i++)
		printf "; >=%s %.1f KB", th[i], (n[i] + 0) * 32 / 1024
	printf " (%d packets)\n", P
}' "$1"
