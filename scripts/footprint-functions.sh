#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Which functions make up a footprint: the lines file of the uarch plugin
# (lines=on) attributed to the functions of a symbol table.
#
#   footprint-functions.sh LINES_FILE PACKETS NM_FILE [RATE] [TOP]
#
# NM_FILE is `nm -n` output of the program (or a kernel's System.map). A
# 32-byte line goes to the function holding its first byte (a line shared
# by two functions goes to the one it starts in; one before any symbol, to
# the first symbol inside it). Prints the TOP (default 40) functions by KB
# of lines run at least RATE (default 0.5) times per packet: function,
# those KB, all its executed KB, and its busiest line's rate; then the
# totals.
set -eu

if [ $# -lt 3 ] || [ ! -r "$1" ] || [ ! -r "$3" ]; then
	echo "usage: footprint-functions.sh LINES_FILE PACKETS NM_FILE [RATE] [TOP]" >&2
	exit 2
fi
awk -v P="$2" -v R="${4:-0.5}" -v TOP="${5:-40}" '
function hexval(s,    i, v) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
FNR == NR {
	# nm: ADDR TYPE NAME; code symbols only.
	if (NF >= 3 && $2 ~ /^[tTwW]$/ && $3 !~ /^\$/) { a[++n] = hexval($1); name[n] = $3 }
	next
}
/^#/ { next }
{
	addr = hexval($1); c = $2
	# binary search: the last symbol at or below the line start
	lo = 1; hi = n; f = 0
	while (lo <= hi) { mid = int((lo + hi) / 2); if (a[mid] <= addr) { f = mid; lo = mid + 1 } else hi = mid - 1 }
	if (!f && n && a[1] <= addr + 31) f = 1
	fn = f ? name[f] : "?"
	all[fn] += 32
	if (c >= R * P) hot[fn] += 32
	if (c / P > top[fn]) top[fn] = c / P
	tot += 32
	if (c >= R * P) thot += 32
}
END {
	for (fn in all) { k++; key[k] = fn }
	# sort by hot bytes, then all bytes (insertion sort: few hundred)
	for (i = 2; i <= k; i++) {
		v = key[i]; j = i - 1
		while (j > 0 && (hot[key[j]] < hot[v] || (hot[key[j]] == hot[v] && all[key[j]] < all[v]))) { key[j + 1] = key[j]; j-- }
		key[j + 1] = v
	}
	printf "%-40s %9s %9s %9s\n", "function", "KB>=" R, "KB all", "max/pkt"
	for (i = 1; i <= k && i <= TOP; i++)
		printf "%-40s %9.2f %9.2f %9.3f\n", key[i], hot[key[i]] / 1024, all[key[i]] / 1024, top[key[i]]
	printf "%-40s %9.2f %9.2f   (%d functions)\n", "total", thot / 1024, tot / 1024, k
}' "$3" "$1"
