#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# natbench on the modelled routers: the flag table of the Cortex-A9
# (BCM47094) and MIPS 1004Kc (MT7621) builds, scored by tuner's uarch
# plugin (MODELLED cycles, not a router measurement).
#
#   bench/natbench-router.sh [TUNER] [a9|1004k|both]
#
# For each flag set, built on 5 layout seeds (pad + link order) by tuner
# itself: modelled Mbit/s as the mean over the seeds, the change against
# -O2 with a 95% interval (Welch, seeds as the replicates), the layout
# spread ((max - min) / mean over the seeds), the fast path's code bytes
# (size-fp.sh, mean over the seeds), and the split
# of -O2's cycles by cause; then the CPU seconds of one scoring run and
# of one build, and a determinism check (one binary scored twice). The
# flag sets are the seeds' space and its calibration rows:
#   -O2 -fno-reorder-blocks -fno-tree-ch  OpenWrt 4.19's flags (the base
#                                         of the seeds' comparisons)
#   -O2 -fno-tree-ch                      its RFC "drop -fno-reorder-blocks"
#   ... -DNB_DMA_ALIGN=32                 .align 5 on the two DMA
#                                         maintenance functions
# NB_BENCH_SEEDS overrides the number of layout seeds (default 5).
# About 8-9 minutes per target on 2 cores (measured: 470-552 s, 2026-12-01).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
which=${2:-both}
seeds=${NB_BENCH_SEEDS:-5}
work=$(mktemp -d /tmp/tuner-nbrouter.XXXXXX)
trap 'rm -rf "$work"' EXIT

FLAGS=(
	"-O2"
	"-Os"
	"-O3"
	"-O2 -fno-reorder-blocks"
	"-O2 -fno-tree-ch"
	"-O2 -fno-reorder-blocks -fno-tree-ch"
	"-O2 -fno-reorder-blocks -fno-tree-ch -DNB_DMA_ALIGN=32"
	"-O2 -falign-functions=32"
	"-O2 -falign-functions=64"
)

# The awk both summaries share. add() takes a row of `tuner uarch --csv`
# ("FLAGS seed N run R",cycles,c_insn,c_l1i,c_l1d,c_l2,c_taken,
# c_mispredict,mbps,...) into its flag set's sums; change(A, B) sets D,
# B's change against A in % of A's mean Mbit/s, and H, the half width of
# its 95% interval (Welch, the layout seeds as replicates).
STATS_AWK='
function add(line,   lab, c, f, j) {
	lab = line; sub(/",.*/, "", lab); sub(/^"/, "", lab)
	split(line, c, ",")
	f = lab; sub(/ seed [0-9]+ run [0-9]+$/, "", f)
	n[f]++; s[f] += c[9]; ss[f] += c[9] * c[9]
	for (j = 2; j <= 8; j++) cause[f, j] += c[j]
	if (!(f in lo) || c[9] < lo[f]) lo[f] = c[9]
	if (!(f in hi) || c[9] > hi[f]) hi[f] = c[9]
}
function mean(f) { return s[f] / n[f] }
function var(f,   m, v) { m = mean(f); v = n[f] > 1 ? (ss[f] - n[f] * m * m) / (n[f] - 1) : 0; return v < 0 ? 0 : v }
function change(a, b,   df, t) {
	# t quantile for n[a] + n[b] - 2 degrees of freedom (5 + 5 seeds: 2.31 at 8)
	df = n[a] + n[b] - 2; t = df >= 30 ? 2.04 : (df >= 18 ? 2.10 : (df >= 8 ? 2.31 : 2.78))
	D = (mean(b) / mean(a) - 1) * 100
	H = t * sqrt(var(a) / n[a] + var(b) / n[b]) / mean(a) * 100
}
# cmean(f, j): mean cycles per packet of cause column j (2 total, 3 insns,
# 4 L1I, 5 L1D, 6 L2, 7 taken, 8 mispredicts)
function cmean(f, j) { return cause[f, j] / n[f] }
'

# cpu COMMAND...: runs it (output dropped; a failure fails the bench) and
# prints its user + system CPU seconds, one job, nothing else running of
# the bench's.
cpu() {
	local t
	t=$(mktemp "$work/time.XXXXXX")
	env MAKEFLAGS= TUNER_FLAGS=-O2 TUNER_JOBS=1 /usr/bin/time -o "$t" -f '%U %S' "$@" >/dev/null || return 1
	awk '{ printf "%.2f", $1 + $2 }' "$t"
}

table() {
	local arch=$1 preset=$2 study=natbench-$1-table
	local res=$work/res-$arch
	{
		echo "study: $study"
		echo "source: {repo: $root, rev: HEAD, path: targets/natbench}"
		echo "space:"
		printf '  flags: ['
		local sep=
		for f in "${FLAGS[@]}"; do printf '%s"%s"' "$sep" "$f"; sep=', '; done
		echo ']'
		echo '  pgo: [off]'
		cat <<EOF
build: {command: 'make -s -j"\$TUNER_JOBS" -f "\$TUNER_SRC/Makefile" NB_ARCH=$arch', artifact: natbench, timeout: 900}
size: {of: artifact, measure: command, command: '"\$TUNER_SRC/size-fp.sh"'}
measure: {command: '"\$TUNER_SRC/score-uarch.sh"', parser: uarch-model, timeout: 900, uarch: {preset: $preset}}
layout: {samples: $seeds}
objectives:
  - {name: throughput, unit: Mbit/s (modelled), goal: max}
  - {name: size, unit: bytes of fast-path code, goal: min}
EOF
	} >"$work/$study.yaml"
	local start
	start=$(date +%s)
	"$tuner" run -q --results "$res" "$work/$study.yaml" >/dev/null
	echo "== natbench-$arch ($preset preset): ${#FLAGS[@]} flag sets x $seeds layout seeds built and scored in $(( $(date +%s) - start )) s"
	echo "throughput is MODELLED (tuner's uarch plugin, the $preset preset), not measured"
	"$tuner" uarch --preset "$preset" --csv "$res" >"$work/$arch.csv"
	# fast-path code bytes per flags (mean over the seeds) from results.csv: config,flags,pgo,...,size at column 13
	awk -F, 'NR > 1 { print $2 "\t" $13 }' "$res/results.csv" >"$work/$arch.sizes"
	printf '%s\n' "${FLAGS[@]}" >"$work/order"
	awk -F'\t' "$STATS_AWK"'
	FILENAME == ARGV[1] { want[++nw] = $0; next }
	FILENAME == ARGV[2] { size[$1] = $2; next }
	FNR > 1 { add($0) }
	END {
		base = "-O2"
		printf "%-56s %9s %18s %7s %6s %9s\n", "flags", "Mbit/s", "vs -O2 [95% CI]", "layout", "seeds", "fp code B"
		for (i = 1; i <= nw; i++) {
			f = want[i]
			if (!(f in n)) continue
			change(base, f)
			printf "%-56s %9.2f %+7.2f%% [%+.1f, %+.1f] %6.2f%% %6d %9.0f\n", f, mean(f), D, D - H, D + H,
				(hi[f] - lo[f]) / mean(f) * 100, n[f], size[f]
		}
		printf "\n-O2 cycles/packet %.0f = insns %.0f + L1I %.0f + L1D %.0f + L2 %.0f + taken %.0f + mispredicts %.0f (means over its seeds)\n",
			cmean(base, 2), cmean(base, 3), cmean(base, 4), cmean(base, 5), cmean(base, 6), cmean(base, 7), cmean(base, 8)
	}' "$work/order" "$work/$arch.sizes" "$work/$arch.csv"
	echo "(layout = (max - min) / mean over the layout seeds; the interval uses the seeds as replicates)"
	calibration "$arch" "$work/$arch.csv"

	# Cost and determinism on the -O2 seed-0 build.
	local dir art
	dir=$(grep -h '"type":"build"' "$res/journal.jsonl" | grep '"flags":"-O2"' | grep '"seed":0,' |
		sed -E 's/.*"dir":"([^"]*)".*/\1/' | head -n 1)
	art=$dir/natbench
	local t1 t2
	export TUNER_ARTIFACT=$art TUNER_OUT=$work/det TUNER_UARCH_PLUGIN
	TUNER_UARCH_PLUGIN=$(dirname "$tuner")/tuner-uarch.so
	mkdir -p "$work/det"
	TUNER_UARCH=$(sed -n 's/^config //p' "$dir/uarch.out.0")
	export TUNER_UARCH
	t1=$(cpu env TUNER_RUN=a "$root/targets/natbench/score-uarch.sh")
	t2=$(cpu env TUNER_RUN=b "$root/targets/natbench/score-uarch.sh")
	if cmp -s "$work/det/uarch.out.a" "$work/det/uarch.out.b"; then
		echo "determinism: one -O2 binary scored twice: identical counters"
	else
		echo "determinism: one -O2 binary scored twice: COUNTERS DIFFER"
		return 1
	fi
	echo "CPU seconds per scoring run (user+sys): $t1, $t2"
	# The builds the study made, from its exported source (HEAD's): a
	# plain -O2 build, and one PGO configuration as tuner runs it
	# (instrumented build, training under qemu-user, the build that uses
	# the profile), each with one job.
	local src p=$work/pgo-$arch bt g tr u
	# (results/src/TREE is the exported targets/natbench itself.)
	src=$(ls -d "$res"/src/*/ | head -n 1)
	[ -f "$src/Makefile" ] || { echo "natbench-router: no exported source in $res/src" >&2; return 1; }
	bt=$(cpu env TUNER_OUT="$work/b-$arch" make -s -f "$src/Makefile" NB_ARCH="$arch")
	echo "CPU seconds per -O2 build (user+sys, one job): $bt"
	# As in a study: the harness from the study's ccache (TUNER_CACHE),
	# filled by a first build in another directory.
	mkdir -p "$work/cache-$arch"
	cpu env TUNER_CACHE="$work/cache-$arch" TUNER_OUT="$work/bc1-$arch" \
		make -s -f "$src/Makefile" NB_ARCH="$arch" >/dev/null
	bt=$(cpu env TUNER_CACHE="$work/cache-$arch" TUNER_OUT="$work/bc2-$arch" \
		make -s -f "$src/Makefile" NB_ARCH="$arch")
	echo "CPU seconds per -O2 build with the harness from the study's ccache: $bt"
	mkdir -p "$p/gen" "$p/use" "$p/prof"
	g=$(cpu env TUNER_OUT="$p/gen" TUNER_PGO=generate make -s -f "$src/Makefile" NB_ARCH="$arch")
	tr=$(cpu env TUNER_ARTIFACT="$p/gen/natbench" TUNER_OUT="$p/gen" TUNER_PROFILE_DIR="$p/prof" \
		sh "$src/train.sh")
	u=$(cpu env TUNER_OUT="$p/use" TUNER_PGO=use TUNER_PROFILE_DIR="$p/prof" \
		make -s -f "$src/Makefile" NB_ARCH="$arch")
	echo "$g $tr $u" | awk '{ printf "CPU seconds per -O2 PGO configuration (user+sys, one job): %.1f = instrumented build %.1f + training %.1f + build with the profile %.1f\n", $1 + $2 + $3, $1, $2, $3 }'
	echo
}

# calibration ARCH CSV: the seeds' facts beside the model's answers for the
# same changes (never used to set the model's penalties), with the
# model's cycles per packet by cause, B - A.
calibration() {
	local arch=$1
	echo
	echo "calibration: natbench-$arch (MODELLED) beside the seeds' real routers (../shared/seeds)"
	awk -v arch="$arch" "$STATS_AWK"'
	FNR > 1 { add($0) }
	function row(title, a, b, seeds) {
		if (!(a in n) || !(b in n)) return
		change(a, b)
		printf "  %s\n    model: %+.1f%% [%+.1f, %+.1f]   seeds: %s\n", title, D, D - H, D + H, seeds
		printf "    model cycles/packet B - A: total %+.0f = insns %+.0f, L1I %+.0f, L1D %+.0f, L2 %+.0f, taken %+.0f, mispredicts %+.0f\n",
			cmean(b, 2) - cmean(a, 2), cmean(b, 3) - cmean(a, 3), cmean(b, 4) - cmean(a, 4),
			cmean(b, 5) - cmean(a, 5), cmean(b, 6) - cmean(a, 6), cmean(b, 7) - cmean(a, 7),
			cmean(b, 8) - cmean(a, 8)
	}
	END {
		a419 = "-O2 -fno-reorder-blocks -fno-tree-ch"
		if (arch == "a9") {
			rb = "+14.1% (BCM47094, LAN->WAN, GRO off; +4.3% with GRO on; 004)"
			v54 = "+25% (bcm53xx 256 -> 320 Mb/s, together with the 4.19 -> 5.4 kernel upgrade; 002)"
			dma = "+3.3% from 4.19 layout (737.5 -> 761.5 Mb/s), -0.7% from a luckier one (768 -> 765); 000"
			lay = "+4.3% (741 -> 773 Mb/s, one exported unused symbol; 000), -3.5% (003), -3.3% (938 -> 907; 002)"
		} else {
			rb = "-16.1% (MT7621, LAN->WAN, GRO on; -18.2% another run; +0.1% with GRO off; 004)"
			v54 = "none published"
			dma = "none published (a MIPS kernel has other cache maintenance)"
			lay = "none published for MT7621"
		}
		printf "  A -> B, each mean over the layout seeds; 95%% interval with the seeds as replicates\n"
		row("drop -fno-reorder-blocks: " a419 " -> -O2 -fno-tree-ch", a419, "-O2 -fno-tree-ch", rb)
		row("OpenWrt 4.19 -> 5.4 flags: " a419 " -> -O2", a419, "-O2", v54)
		row(".align 5 on v7_dma_inv_range and v7_dma_clean_range: " a419 " -> ... -DNB_DMA_ALIGN=32",
			a419, a419 " -DNB_DMA_ALIGN=32", dma)
		row("-Os instead of -O2", "-O2", "-Os", "none published (suggested in 000, not measured)")
		f = "-O2"
		printf "  an unrelated commit (layout only): -O2 over %d layout seeds: spread (max - min) / mean %.1f%%, sd %.1f%%\n    seeds: %s\n",
			n[f], (hi[f] - lo[f]) / mean(f) * 100, sqrt(var(f)) / mean(f) * 100, lay
	}' "$2"
}

command -v /usr/bin/time >/dev/null || { echo "natbench-router: needs /usr/bin/time (Debian: time)" >&2; exit 1; }
case $which in
a9) table a9 cortex-a9 ;;
1004k) table 1004k 1004k ;;
both) table a9 cortex-a9; table 1004k 1004k ;;
*) echo "usage: bench/natbench-router.sh [TUNER] [a9|1004k|both]" >&2; exit 2 ;;
esac
