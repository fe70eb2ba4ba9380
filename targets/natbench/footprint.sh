#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Measures the fast path's instruction footprint: how much of its code a
# scoring run executes, and how often per packet.
#
#   footprint.sh [--functions] [ARTIFACT [PACKETS]]
#       (default: $TUNER_ARTIFACT, 30000 packets of seed 1, as scored)
#
# A line's rate is the execution count of its busiest instruction divided
# by the packets; printed (scripts/footprint-bands.sh, as the kernel's
# targets/qemu-linux/footprint.sh prints its own): all executed 32-byte
# lines, and those run at least 0.001, 0.01, 0.05, 0.2 and 0.5 times per
# packet, in KB. --functions also lists the functions by hot KB
# (scripts/footprint-functions.sh).
#
# ARM and MIPS builds (NB_ARCH=a9, 1004k) run under qemu-user with tuner's
# uarch plugin (lines=on; $TUNER_UARCH_PLUGIN, default the repository's
# build/release/tuner-uarch.so), counting the "fp" ranges of the build's
# natbench.ranges. A host build runs under callgrind --dump-instr=yes,
# counting instructions of fp_* source files (inlined code keeps its
# file: fp_util.h counts); an instruction straddling a line boundary
# counts for its first line only.
# Runs from the repository (it uses scripts/).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
funcs=0
if [ "${1:-}" = --functions ]; then
	funcs=1
	shift
fi
art=${1:-${TUNER_ARTIFACT:-}}
packets=${2:-30000}
[ -n "$art" ] || { echo "usage: footprint.sh [--functions] ARTIFACT [PACKETS]" >&2; exit 2; }
[ -f "$art" ] || { echo "footprint.sh: no artifact $art" >&2; exit 2; }
art=$(cd "$(dirname "$art")" && pwd)/$(basename "$art")

tmp=$(mktemp -d /tmp/natbench-fp.XXXXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# The ELF machine: 62 is x86-64 (the host here), anything else is emulated.
lo=$(od -An -tu1 -j18 -N1 "$art" | tr -d ' \n')
hi=$(od -An -tu1 -j19 -N1 "$art" | tr -d ' \n')
machine=$((hi * 256 + lo))
if [ "$machine" = 62 ]; then
	nm=nm
	(cd / && env -i /usr/bin/valgrind --tool=callgrind --dump-instr=yes \
		--callgrind-out-file="$tmp/cg" "$art" --seed 1 --packets "$packets") \
		>/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
	# Callgrind's instruction-level costs, per 32-byte line of fp_* code:
	# "0xADDR COUNT" lines, as the uarch plugin writes them.
	awk '
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
	/^(fl|fi|fe)=/ { fp = base(name(substr($0, 4))) ~ /^fp_/; next }
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
		next
	}
	END { for (l in cnt) printf "0x%x %d\n", l * 32, cnt[l] }' "$tmp/cg" >"$tmp/lines"
else
	nm=$(case $machine in 40) echo arm-linux-gnueabihf-nm ;; 8) echo mipsel-linux-gnu-nm ;; *) echo nm ;; esac)
	plugin=${TUNER_UARCH_PLUGIN:-$root/build/release/tuner-uarch.so}
	[ -f "$plugin" ] || { echo "footprint.sh: no uarch plugin $plugin (make builds it)" >&2; exit 1; }
	ranges=$(dirname "$art")/natbench.ranges
	[ -r "$ranges" ] || { echo "footprint.sh: no $ranges" >&2; exit 1; }
	cp "$art" "$tmp/natbench"
	cp "$ranges" "$tmp/ranges"
	(cd / && env -i PATH=/usr/bin:/bin QEMU_RAND_SEED=1 \
		QEMU_PLUGIN="$plugin,preset=cortex-a9,ranges=$tmp/ranges,out=$tmp/report,lines=on" \
		QEMU_UNSET_ENV=PATH,QEMU_RAND_SEED,QEMU_PLUGIN,QEMU_UNSET_ENV \
		"$here/run.sh" "$tmp/natbench" --seed 1 --packets "$packets") \
		>"$tmp/out" 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
	grep -v '^#' "$tmp/report.lines" >"$tmp/lines"
fi
"$root/scripts/footprint-bands.sh" "$tmp/lines" "$packets" "fast path per packet"
if [ $funcs = 1 ]; then
	"$nm" -n "$art" >"$tmp/nm"
	"$root/scripts/footprint-functions.sh" "$tmp/lines" "$packets" "$tmp/nm" 0.5 60
fi
