#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The real kernel on the modelled router (spaces/qemu-linux-model.yaml,
# targets/qemu-linux/model.sh): MODELLED Cortex-A9 cycles per forwarded
# packet of Debian's linux-source-6.1 as a NAT router in QEMU, traffic made
# inside the guest, counted deterministically. Three parts:
#
# 1. determinism: BOOTS boots of one kernel (-O2, layout seed 0), each a
#    fresh QEMU: the counters must be identical; prints cycles and
#    instructions per packet per boot, the spread, and the wall time of one
#    evaluation (boot + warm-up + counted window);
# 2. the flag table: `tuner run` of the model study with the seeds' flag
#    sets (CONFIGS) on K layout seeds each (0 = plain link; N > 0 = a
#    seed-derived pad linked ahead of the kernel's text, build.sh), then
#    per flag set: zImage bytes, cycles/packet mean over the layouts, the
#    layout spread (sd and range), and the change against -O2 with a 95%
#    interval over the layouts (Welch);
# 3. `tuner compare` -O2 against -O2 -fno-reorder-blocks on the same
#    journal (nothing built or measured again): its verdict.
#
#   bench/kernel/model.sh [--seeds K] [--boots N] [--configs 'A;B;...']
#                         [--results DIR] [--tuner TUNER]
#
# Measured: 58 min from a warm ccache for -O2 and -Os, a cold one for
# the other three (2026-12-03); 15 min to measure all again.
# Defaults: K 5, N 3, CONFIGS '-O2;-Os;-O2 -fno-reorder-blocks;-O2
# -fno-tree-ch;-O2 -falign-functions=32', results results/kernel-model
# (a rerun resumes from its journal). A new flag set is a full kernel
# build (6-15 min here); its other layout seeds relink from ccache
# (about 1 min); a model evaluation about 1 min. Opt-in (`make
# bench-kernel`, which installs what it needs first: make deps-kernel,
# scripts/install-kernel-deps.sh and the kernel source; run directly, this
# script installs nothing).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tuner=$root/build/release/tuner
seeds=5 boots=3
configs='-O2;-Os;-O2 -fno-reorder-blocks;-O2 -fno-tree-ch;-O2 -falign-functions=32'
res=$root/results/kernel-model
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
	case $1 in
	--seeds) seeds=${2:?--seeds needs a number}; shift 2 ;;
	--boots) boots=${2:?--boots needs a number}; shift 2 ;;
	--configs) configs=${2:?--configs needs a list}; shift 2 ;;
	--results) res=${2:?--results needs a directory}; shift 2 ;;
	--tuner) tuner=${2:?--tuner needs a path}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "kernel/model.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
	esac
done
for v in "$seeds" "$boots"; do
	case $v in '' | *[!0-9]* | 0) echo "kernel/model.sh: '$v' is not a positive number" >&2; exit 2 ;; esac
done
case $configs in -O2\;* | -O2) ;; *) echo "kernel/model.sh: the first flag set must be -O2 (the baseline)" >&2; exit 2 ;; esac
tuner=$(readlink -f "$tuner")
[ -x "$tuner" ] || { echo "kernel/model.sh: no tuner at $tuner (make)" >&2; exit 2; }
mkdir -p "$res"
res=$(readlink -f "$res")
t0=$(date +%s)

echo "== kernel source"
"$root/targets/qemu-linux/prepare-source.sh"

# The study: spaces/qemu-linux-model.yaml with one dimension, the flag
# sets, K layout seeds, and its paths made absolute.
study=$res/kernel-model.yaml
{
	sed -e "s|^source: {repo: \.\./|source: {repo: $root/|" \
		-e "s|\\\$TUNER_STUDY_DIR/\.\./|$root/|g" -e "s|\.\./targets/|$root/targets/|g" \
		-e '/^space:$/,/^layout:/d' "$root/spaces/qemu-linux-model.yaml"
	echo "space:"
	printf '  flags: ['
	IFS=';' read -ra list <<<"$configs"
	for i in "${!list[@]}"; do
		[ "$i" -gt 0 ] && printf ', '
		printf '"%s"' "${list[$i]}"
	done
	printf ']\nlayout: {samples: %s}\n' "$seeds"
} >"$study.tmp"
mv "$study.tmp" "$study"
"$tuner" check "$study" >/dev/null

echo "== tuner run: ${#list[@]} flag sets x $seeds layout seeds ($study)"
"$tuner" run --results "$res" "$study"
j=$res/journal.jsonl

# dir FLAGS SEED: the build directory of that build.
dir() {
	jq -r --arg f "$1" --argjson s "$2" 'select(.type == "build" and .flags == $f and .seed == $s
		and .status == "ok") | .dir' "$j" | tail -1
}

echo "== determinism: $boots boots of the -O2 kernel (layout seed 0)"
b=$(dir -O2 0)
[ -n "$b" ] || { echo "kernel/model.sh: no -O2 build in $j" >&2; exit 1; }
plugin=$(dirname "$tuner")/tuner-uarch.so
# Kept per kernel, plugin and measurement scripts: a change to any of them
# boots again.
q=$root/targets/qemu-linux
dkey=$(cat "$b/arch/arm/boot/zImage" "$plugin" "$q/model.sh" "$q/natgen.c" "$q/router-init.sh" \
	"$q/router-nat.sh" "$q/mk-initramfs.sh" | sha1sum | cut -c1-12)
det=$res/determinism/$dkey
mkdir -p "$det"
for i in $(seq "$boots"); do
	o=$det/boot$i.out
	if [ ! -s "$o" ]; then
		TUNER_ARTIFACT=$b/arch/arm/boot/zImage TUNER_UARCH=preset=cortex-a9 TUNER_UARCH_PLUGIN=$plugin \
			"$root/targets/qemu-linux/model.sh" >"$o.tmp"
		mv "$o.tmp" "$o"
	fi
	"$tuner" uarch --preset cortex-a9 --csv "$o" | tail -1 | sed "s/^/boot $i,/"
done >"$det/scores.csv"
"$tuner" uarch --preset cortex-a9 --csv "$det/boot1.out" | head -1 >"$det/header.csv"
python3 - "$det" "$boots" <<'PY'
import csv, sys, filecmp
d, n = sys.argv[1], int(sys.argv[2])
head = next(csv.reader(open(d + "/header.csv")))
rows = [dict(zip(["boot"] + head, r)) for r in csv.reader(open(d + "/scores.csv"))]
cyc = [float(r["cycles"]) for r in rows]
ins = [float(r["insns"]) for r in rows]
# The reports without the packets line's wall time: identical counters?
def body(i):
    return [l for l in open("%s/boot%d.out" % (d, i)) if not l.startswith("packets=")]
same = all(body(i) == body(1) for i in range(2, n + 1))
wall = [float(l.split("wall_seconds=")[1]) for i in range(1, n + 1)
        for l in open("%s/boot%d.out" % (d, i)) if l.startswith("packets=")]
for i, r in enumerate(rows):
    print("  boot %d: cycles/packet %.1f, insns/packet %.1f, %.0f s" % (i + 1, cyc[i], ins[i], wall[i]))
spread = (max(cyc) - min(cyc)) / min(cyc) * 100
print("  spread %.4f%% of cycles/packet; counters %s" % (spread, "byte-identical in all %d boots" % n if same else "DIFFER"))
print("  one evaluation (boot + warm-up + window): %.0f-%.0f s wall" % (min(wall), max(wall)))
PY

echo "== flag sets on $seeds layout seeds (MODELLED cycles per forwarded packet, Cortex-A9)"
python3 - "$j" "$configs" "$seeds" <<'PY'
import json, math, statistics as st, sys
j, configs, k = sys.argv[1], sys.argv[2].split(";"), int(sys.argv[3])
builds, size, cyc = {}, {}, {}
for line in open(j):
    r = json.loads(line)
    if r.get("type") == "build" and r.get("status") == "ok":
        builds[r["key"]] = (r["flags"], r["seed"])
        size[(r["flags"], r["seed"])] = int(r["size"]) if r.get("size") is not None else None
    elif r.get("type") == "measure" and r.get("ok") and r["build"] in builds:
        cyc.setdefault(builds[r["build"]][0], {})[builds[r["build"]][1]] = r["values"]["cycles"]
# Two-sided 95% Student t quantiles by degrees of freedom.
T = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23}
def t95(df):
    return T.get(int(df), 2.0) if df >= 1 else float("nan")
base = [cyc.get("-O2", {}).get(s) for s in range(k)]
if None in base:
    sys.exit("kernel/model.sh: -O2 lacks layout seeds: %s" % sorted(cyc.get("-O2", {})))
bm = st.mean(base)
print("  %-32s %11s %12s %8s %18s %26s" % ("flags", "zImage B", "cycles/pkt", "layout", "range", "vs -O2 (95% CI)"))
for c in configs:
    v = [cyc.get(c, {}).get(s) for s in range(k)]
    if None in v:
        print("  %-32s missing layout seeds: %s" % (c, sorted(cyc.get(c, {}))))
        continue
    m = st.mean(v)
    sd = st.stdev(v) if k > 1 else 0.0
    row = "  %-32s %11s %12.1f %7.2f%% %8.1f-%8.1f" % (c, size.get((c, 0)), m, sd / m * 100, min(v), max(v))
    if c != "-O2" and k > 1:
        se = math.sqrt(st.variance(v) / k + st.variance(base) / k)
        df = se ** 4 / ((st.variance(v) / k) ** 2 / (k - 1) + (st.variance(base) / k) ** 2 / (k - 1)) if se > 0 else k - 1
        d = (m - bm) / bm * 100
        h = t95(df) * se / bm * 100
        # Fewer cycles per packet is faster: throughput changes by bm/m - 1.
        row += "   %+6.2f%% [%+.2f, %+.2f] cycles, %+.2f%% Mbit/s" % (d, d - h, d + h, (bm / m - 1) * 100)
    print(row)
PY

echo "== tuner compare -O2 (A) vs -O2 -fno-reorder-blocks (B) on this journal"
if grep -q -- '-O2 -fno-reorder-blocks' <<<"$configs"; then
	"$tuner" compare "$study" --a -O2 --b "-O2 -fno-reorder-blocks" --layout "$seeds" --repeats 1 \
		--results "$res" || true
fi
echo "kernel/model.sh: $(( $(date +%s) - t0 )) s"
