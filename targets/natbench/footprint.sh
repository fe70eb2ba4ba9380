#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Measures the fast path's instruction footprint: how much x86-64 code of
# the fp_* files a scoring run executes, and how often.
#
#   footprint.sh [ARTIFACT [PACKETS]]     (default: $TUNER_ARTIFACT, 50000)
#
# Method: callgrind --dump-instr=yes records every executed instruction
# address with its execution count and source file (inlined code keeps the
# file it came from: fp_util.h counts). Instructions of fp_* files are
# grouped by 32-byte line (the Cortex-A9 L1 line); a line's rate is the
# execution count of its most executed instruction divided by the packets.
# Printed: all executed lines, and the lines at rates of at least 0.001,
# 0.01, 0.05, 0.2 and 0.5 per packet, in KB (lines x 32 B). "Hot" below
# means at least once per 1000 packets. An instruction that straddles a
# line boundary counts for its first line only (a slight undercount).
# Also per file with --files.
set -eu

files=0
if [ "${1:-}" = --files ]; then
	files=1
	shift
fi
art=${1:-${TUNER_ARTIFACT:-}}
packets=${2:-50000}
[ -n "$art" ] || { echo "usage: footprint.sh [--files] ARTIFACT [PACKETS]" >&2; exit 2; }

tmp=$(mktemp -d /tmp/natbench-fp.XXXXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
(cd / && env -i /usr/bin/valgrind --tool=callgrind --dump-instr=yes \
	--callgrind-out-file="$tmp/cg" "$art" --packets "$packets") \
	>/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }

awk -v P="$packets" -v files="$files" '
function hex(s,   i, v) {
	v = 0
	for (i = 3; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
# Callgrind compresses names: "(id) name" the first time, "(id)" after.
function name(s,   id, rest) {
	if (match(s, /^\([0-9]+\)/)) {
		id = substr(s, 2, RLENGTH - 2)
		rest = substr(s, RLENGTH + 1)
		sub(/^ /, "", rest)
		if (rest != "")
			names[id] = rest
		return names[id]
	}
	return s
}
function base(p,   n, parts) { n = split(p, parts, "/"); return parts[n] }
/^(fl|fi|fe)=/ { cur = base(name(substr($0, 4))); fp = cur ~ /^fp_/; next }
/^(cfi|cfl)=/ { name(substr($0, 5)); next }
/^calls=/ { skip = 1; next }
/^(0x[0-9a-f]+|[+-][0-9]+|\*)/ {
	a = $1
	if (a ~ /^0x/) addr = hex(a)
	else if (a ~ /^\+/) addr += substr(a, 2)
	else if (a ~ /^-/) addr -= substr(a, 2)
	if (skip) { skip = 0; next }    # the inclusive cost of a call
	if (!fp) next
	l = int(addr / 32)
	if ($NF + 0 > cnt[l]) cnt[l] = $NF + 0
	file[l] = cur
	next
}
END {
	split("0.001 0.01 0.05 0.2 0.5", th, " ")
	for (l in cnt) {
		all++
		for (i = 1; i <= 5; i++)
			if (cnt[l] >= th[i] * P) n[i]++
		if (cnt[l] >= 0.001 * P) hotf[file[l]]++
		allf[file[l]]++
	}
	printf "fast-path code executed: %.1f KB (%d lines of 32 B), %d packets\n", all * 32 / 1024, all, P
	printf "hot (>= 0.001 per packet): %.1f KB\n", n[1] * 32 / 1024
	printf "by rate per packet:"
	for (i = 1; i <= 5; i++)
		printf " >=%s %.1f KB%s", th[i], n[i] * 32 / 1024, i < 5 ? ";" : "\n"
	if (files)
		for (f in allf)
			printf "  %-16s %6.1f KB (hot %5.1f KB)\n", f, allf[f] * 32 / 1024, hotf[f] * 32 / 1024
}' "$tmp/cg"
