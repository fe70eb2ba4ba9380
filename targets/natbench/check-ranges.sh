#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks a build's natbench.ranges (ranges.sh) against symbol tables:
#
#   check-ranges.sh OUT [NM]
#
# OUT is the build's directory (TUNER_OUT), NM the nm of its machine
# (default nm; arm-linux-gnueabihf-nm, mipsel-linux-gnu-nm). The file must
# be well formed (KIND 0xLO 0xHI, LO < HI, sorted, no overlap, touching
# ranges of one kind merged), and in the artifact:
#   - every function the fast-path objects define (fp_*.o) lies in an fp
#     range, as many times as they define it;
#   - every function the harness objects define lies in an own range, and
#     in no fp range;
#   - no other function (libc, libgcc, gcov, the C runtime) lies in any.
# Counting, not just names, since a static function's name may be defined
# by several objects (and by libc). Prints what is wrong; exit 1 if
# anything is, 0 otherwise.
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: check-ranges.sh OUT [NM]" >&2
	exit 2
fi
out=$1
nm=${2:-nm}
for f in "$out/natbench" "$out/natbench.ranges" "$out/natbench.map"; do
	if [ ! -f "$f" ]; then
		echo "check-ranges.sh: no $f" >&2
		exit 2
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-ranges.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# Functions: text symbols, without ARM mapping symbols ($a, $d, $t).
funcs() {
	"$nm" --defined-only "$@" | awk 'NF == 3 && $2 ~ /^[TtWw]$/ && $3 !~ /^\$/ { print $3 }'
}
# The objects this link took, from the map's LOAD lines (an output
# directory may hold objects of another build: a plant, a pad, a test's).
map="$out/natbench.map"
awk '$1 == "LOAD" { print $2 }' "$map" >"$tmp/loaded"
grep '/fp_[^/]*\.o$' "$tmp/loaded" >"$tmp/fpobj" || true
grep -E '/(main|gen[a-z_]*|wire|verify|config[a-z_]*|apps_tab|pad)\.o$' "$tmp/loaded" >"$tmp/ownobj" || true
if [ ! -s "$tmp/fpobj" ] || [ ! -s "$tmp/ownobj" ]; then
	echo "check-ranges.sh: $map loads no fast-path or no harness object" >&2
	exit 1
fi
# (Object paths without spaces: the Makefile cannot have them either.)
# shellcheck disable=SC2046
funcs $(cat "$tmp/fpobj") >"$tmp/fp"
# shellcheck disable=SC2046
funcs $(cat "$tmp/ownobj") >"$tmp/own"
"$nm" -n --defined-only "$out/natbench" |
	awk 'NF == 3 && $2 ~ /^[TtWw]$/ && $3 !~ /^\$/ { print $1, $3 }' >"$tmp/bin"

awk -v rfile="$out/natbench.ranges" -v fpfile="$tmp/fp" -v ownfile="$tmp/own" '
function hexval(s,    i, v, c) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (c == 0)
			return -1
		v = v * 16 + c - 1
	}
	return v
}
function bad(msg) {
	print "check-ranges: " msg
	nbad++
}
# The kind of the range holding address a ("" if none): binary search.
function kindof(a,    l, h, m) {
	l = 1
	h = n
	while (l <= h) {
		m = int((l + h) / 2)
		if (a < lo[m])
			h = m - 1
		else if (a >= hi[m])
			l = m + 1
		else
			return kind[m]
	}
	return ""
}
FILENAME == rfile {
	if (NF != 3 || $1 !~ /^(fp|own)$/ || $2 !~ /^0x[0-9a-f]+$/ || $3 !~ /^0x[0-9a-f]+$/) {
		bad("malformed line " FNR ": " $0)
		next
	}
	n++
	kind[n] = $1
	lo[n] = hexval($2)
	hi[n] = hexval($3)
	if (lo[n] >= hi[n])
		bad("empty range: " $0)
	if (n > 1 && lo[n] < hi[n - 1])
		bad("unsorted or overlapping: " $0)
	if (n > 1 && lo[n] == hi[n - 1] && kind[n] == kind[n - 1])
		bad("not merged with the range before: " $0)
	next
}
FILENAME == fpfile { fpdef[$1]++; names[$1] = 1; next }
FILENAME == ownfile { owndef[$1]++; names[$1] = 1; next }
{
	k = kindof(hexval($1))
	if (k == "fp")
		infp[$2]++
	else if (k == "own")
		inown[$2]++
	if (k != "")
		names[$2] = 1
}
END {
	if (n == 0)
		bad("no ranges")
	for (s in names) {
		if (infp[s] + 0 != fpdef[s] + 0)
			bad(s ": defined " fpdef[s] + 0 " times by the fast path, " \
			    infp[s] + 0 " times in fp ranges")
		if (inown[s] + 0 != owndef[s] + 0)
			bad(s ": defined " owndef[s] + 0 " times by the harness, " \
			    inown[s] + 0 " times in own ranges")
		if (fpdef[s])
			nfp++
		if (owndef[s])
			nown++
	}
	if (!nbad)
		printf "check-ranges: %d ranges, %d fast-path and %d harness functions where they belong\n", n, nfp, nown
	exit nbad ? 1 : 0
}' "$out/natbench.ranges" "$tmp/fp" "$tmp/own" "$tmp/bin"
