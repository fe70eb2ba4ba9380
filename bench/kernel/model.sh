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
#   bench/kernel/model.sh [--board vexpress|malta] [--seeds K] [--boots N]
#                         [--configs 'A;B;...'] [--gro off|on|both]
#                         [--align5] [--before] [--results DIR]
#                         [--tuner TUNER]
#
# --board malta: the MT7621's side (spaces/qemu-linux-mt7621.yaml: the
# kernel for QEMU's malta on the modelled 1004Kc, preset mt7621, results
# results/kernel-mt7621 by default); everything below the same, but no
# --align5 and no --before (both are the A9's).
#
# 4. --gro both: every build measured with the router's GRO off and on
#    (two testbeds, gro-off and gro-on, each with its own table);
# 5. --align5: also -O2 built from a kernel commit that puts `.align 5`
#    before v7_dma_inv_range and v7_dma_clean_range (the seeds' 000 fix;
#    a branch tuner-align5 of the work area's kernel repository, made the
#    same way every time), on the same layout seeds;
# 6. the top 15 functions by modelled cycles of -O2, layout seed 0
#    (`tuner profile`), per testbed, and the DMA maintenance's share;
# 7. the sender's share: the -O2 kernel (layout seed 0) booted with
#    natgen's frames sent to no NIC (TUNER_KERNEL_MODEL_SENDONLY=1), its
#    cycles per frame sent against those per frame forwarded, per GRO
#    setting, and its top functions;
# 8. the counters that explain dropping -fno-reorder-blocks from the 4.19
#    flags: per testbed, the modelled cycles split by cause and the
#    events per packet of both flag sets, mean over the layout seeds
#    (`tuner uarch --csv` on the results directory).
# --before scores the way the model did before the DMA path (2026-12-07):
# virtio's own path (TUNER_KERNEL_MODEL_PATH=virtio) and the cortex-a9
# preset (no cache maintenance, device or front-end costs); its
# measurements are kept apart from the others' in the same journal.
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
seeds=5 boots=3 gro=off align5=0 before=0 board=vexpress res=
configs='-O2;-Os;-O2 -fno-reorder-blocks;-O2 -fno-tree-ch;-O2 -falign-functions=32'
usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
	case $1 in
	--board) board=${2:?--board needs vexpress or malta}; shift 2 ;;
	--seeds) seeds=${2:?--seeds needs a number}; shift 2 ;;
	--boots) boots=${2:?--boots needs a number}; shift 2 ;;
	--configs) configs=${2:?--configs needs a list}; shift 2 ;;
	--results) res=${2:?--results needs a directory}; shift 2 ;;
	--gro) gro=${2:?--gro needs off, on or both}; shift 2 ;;
	--align5) align5=1; shift ;;
	--before) before=1; shift ;;
	--tuner) tuner=${2:?--tuner needs a path}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "kernel/model.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
	esac
done
for v in "$seeds" "$boots"; do
	case $v in '' | *[!0-9]* | 0) echo "kernel/model.sh: '$v' is not a positive number" >&2; exit 2 ;; esac
done
case $configs in -O2\;* | -O2) ;; *) echo "kernel/model.sh: the first flag set must be -O2 (the baseline)" >&2; exit 2 ;; esac
case $gro in off | on | both) ;; *) echo "kernel/model.sh: --gro '$gro': off, on or both" >&2; exit 2 ;; esac
# The board's study, preset, image, DMA maintenance functions and the
# seeds' figures for dropping -fno-reorder-blocks (thread 004).
case $board in
vexpress)
	space=qemu-linux-model.yaml preset=bcm47094 image=arch/arm/boot/zImage
	res=${res:-$root/results/kernel-model}
	dmafns='v7_dma_inv_range|l2c210_inv_range|v7_dma_clean_range|l2c210_clean_range|dma_cache_maint_page|__dma_page_dev_to_cpu|__dma_page_cpu_to_dev|l2c210_sync'
	seedfig="the seeds' BCM47094: +14.1% GRO off, +4.3% GRO on"
	dmaseed="the seeds' BCM47094: about 25%"
	;;
malta)
	space=qemu-linux-mt7621.yaml preset=mt7621 image=vmlinuz
	res=${res:-$root/results/kernel-mt7621}
	dmafns='r4k_dma_cache_inv|r4k_dma_cache_wback_inv|mips_sc_inv|mips_sc_wback_inv|dma_sync_phys|arch_sync_dma_for_device|arch_sync_dma_for_cpu|blast_inv_scache_range|blast_dcache_range|blast_inv_dcache_range|blast_scache_range'
	seedfig="the seeds' MT7621: +0.07% GRO off, -16.09% GRO on (-18.20% in a second run)"
	dmaseed="no MT7621 profile in the seeds"
	[ "$align5" = 1 ] || [ "$before" = 1 ] &&
		{ echo "kernel/model.sh: --align5 and --before are the vexpress board's" >&2; exit 2; }
	;;
*) echo "kernel/model.sh: --board '$board': vexpress or malta" >&2; exit 2 ;;
esac
tuner=$(readlink -f "$tuner")
[ -x "$tuner" ] || { echo "kernel/model.sh: no tuner at $tuner (make)" >&2; exit 2; }
mkdir -p "$res"
res=$(readlink -f "$res")
t0=$(date +%s)

echo "== kernel source"
"$root/targets/qemu-linux/prepare-source.sh"

# The testbeds: GRO off (local, the default), on, or both.
# --before: a testbed of its own, so its measurements stay apart.
testbeds() {
	if [ "$before" = 1 ]; then
		echo 'testbeds: [before]'
		return
	fi
	case $gro in
	on) echo 'testbeds: [{name: gro-on, env: {ROUTER_GRO: "on"}}]' ;;
	both)
		echo 'testbeds: [local, {name: gro-on, env: {ROUTER_GRO: "on"}}]'
		echo 'lab: {mode: all}' ;;
	esac
}
[ "$before" = 1 ] && [ "$gro" != off ] && { echo "kernel/model.sh: --before measures GRO off only" >&2; exit 2; }

# The study: spaces/qemu-linux-model.yaml with one dimension, the flag
# sets, K layout seeds, and its paths made absolute.
study=$res/kernel-model.yaml
{
	sed -e "s|^source: {repo: \.\./|source: {repo: $root/|" \
		-e "s|\\\$TUNER_STUDY_DIR/\.\./|$root/|g" -e "s|\.\./targets/|$root/targets/|g" \
		-e '/^space:$/,/^layout:/d' "$root/spaces/$space" |
		if [ "$before" = 1 ]; then
			sed -e "s|^  command: '\"$root/targets/qemu-linux/model.sh\"'|  command: 'TUNER_KERNEL_MODEL_PATH=virtio \"$root/targets/qemu-linux/model.sh\"'|" \
				-e 's|uarch: {preset: bcm47094}|uarch: {preset: cortex-a9}|'
		else cat; fi
	testbeds
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
penv= bpreset=$preset
[ "$before" = 1 ] && preset=cortex-a9 penv=virtio

# --align5: a commit of the kernel with `.align 5` (32 bytes) before the
# two DMA maintenance functions, on branch tuner-align5 (fixed identity
# and dates: the same commit every time), -O2 on the same layout seeds.
# Builds of that commit (from an earlier --align5) are told apart in any
# case.
linux=$(sed -n 's|^source: {repo: \([^,]*\),.*|\1|p' "$study")
a5=$(git -C "$linux" rev-parse -q --verify "refs/heads/tuner-align5^{commit}" || true)
if [ "$align5" = 1 ]; then
	base=$(git -C "$linux" rev-parse HEAD)
	if ! a5=$(git -C "$linux" rev-parse -q --verify "refs/heads/tuner-align5^{commit}"); then
		wt=$(mktemp -d /tmp/tuner-align5.XXXXXX)
		trap 'git -C "$linux" worktree remove --force "$wt" 2>/dev/null' EXIT
		git -C "$linux" worktree add -q --detach "$wt" "$base"
		sed -i -e 's/^v7_dma_inv_range:$/\t.align\t5\n&/' -e 's/^v7_dma_clean_range:$/\t.align\t5\n&/' \
			"$wt/arch/arm/mm/cache-v7.S"
		[ "$(grep -c '^	.align	5$' "$wt/arch/arm/mm/cache-v7.S")" = 2 ] ||
			{ echo "kernel/model.sh: could not add .align 5 to cache-v7.S" >&2; exit 1; }
		GIT_AUTHOR_NAME=tuner GIT_AUTHOR_EMAIL=tuner@example.invalid GIT_AUTHOR_DATE=2000-01-01T00:00:00Z \
		GIT_COMMITTER_NAME=tuner GIT_COMMITTER_EMAIL=tuner@example.invalid GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
			git -C "$wt" commit -q -a -m "ARM: .align 5 on v7_dma_inv_range and v7_dma_clean_range"
		git -C "$linux" branch tuner-align5 "$(git -C "$wt" rev-parse HEAD)"
		git -C "$linux" worktree remove --force "$wt"
		trap - EXIT
		a5=$(git -C "$linux" rev-parse tuner-align5)
	fi
	sed -e "s|^source: {repo: \([^,]*\), rev: [^}]*}|source: {repo: \1, rev: tuner-align5}|" \
		-e '/^space:$/,$d' "$study" >"$res/kernel-model-align5.yaml"
	printf 'space:\n  flags: ["-O2"]\nlayout: {samples: %s}\n' "$seeds" >>"$res/kernel-model-align5.yaml"
	echo "== tuner run: -O2 with .align 5 ($a5), $seeds layout seeds"
	"$tuner" run --results "$res" "$res/kernel-model-align5.yaml"
fi

# dir FLAGS SEED: the build directory of that build (of the base commit).
dir() {
	jq -r --arg f "$1" --argjson s "$2" --arg a5 "$a5" 'select(.type == "build" and .flags == $f
		and .seed == $s and .status == "ok" and .commit != $a5) | .dir' "$j" | tail -1
}

echo "== determinism: $boots boots of the -O2 kernel (layout seed 0)"
b=$(dir -O2 0)
[ -n "$b" ] || { echo "kernel/model.sh: no -O2 build in $j" >&2; exit 1; }
plugin=$(dirname "$tuner")/tuner-uarch.so
# Kept per kernel, plugin, measurement scripts and model: a change to any
# of them boots again.
q=$root/targets/qemu-linux
dkey=$( (cat "$b/$image" "$plugin" "$q/model.sh" "$q/natgen.c" "$q/router-init.sh" \
	"$q/router-nat.sh" "$q/mk-initramfs.sh" "$q/mk-dtb.sh"; echo "$preset $penv") | sha1sum | cut -c1-12)
det=$res/determinism/$dkey
mkdir -p "$det"
for i in $(seq "$boots"); do
	o=$det/boot$i.out
	if [ ! -s "$o" ]; then
		TUNER_ARTIFACT=$b/$image TUNER_UARCH=preset=$preset TUNER_UARCH_PLUGIN=$plugin \
			TUNER_KERNEL_MODEL_PATH=${penv:-dma} "$root/targets/qemu-linux/model.sh" "$board" >"$o.tmp"
		mv "$o.tmp" "$o"
	fi
	"$tuner" uarch --preset "$preset" --csv "$o" | tail -1 | sed "s/^/boot $i,/"
done >"$det/scores.csv"
"$tuner" uarch --preset "$preset" --csv "$det/boot1.out" | head -1 >"$det/header.csv"
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

# The sender alone: natgen's frames sent to MAC addresses no NIC has
# (TUNER_KERNEL_MODEL_SENDONLY=1), so the router forwards none; its cycles
# per frame sent against the forwarding run's per frame forwarded, same
# kernel, same GRO setting.
echo "== the sender's share: the -O2 kernel (layout seed 0) with natgen's frames going nowhere"
case $gro in both) gros='off on' ;; *) gros=$gro ;; esac
[ "$before" = 1 ] && gros=off
for g in $gros; do
	o=$det/sender-gro-$g.out
	if [ ! -s "$o" ]; then
		mkdir -p "$det/sender-gro-$g"
		TUNER_OUT=$det/sender-gro-$g TUNER_RUN=0 TUNER_ARTIFACT=$b/$image \
			TUNER_UARCH=preset=$preset TUNER_UARCH_PLUGIN=$plugin \
			TUNER_KERNEL_MODEL_PATH=${penv:-dma} TUNER_KERNEL_MODEL_GRO=$g \
			TUNER_KERNEL_MODEL_SENDONLY=1 "$root/targets/qemu-linux/model.sh" "$board" >"$o.tmp"
		mv "$o.tmp" "$o"
	fi
	fwd=$det/boot1.out
	if [ "$g" = on ]; then
		fwd=$b/model.report.gro-on.0
		[ -f "$fwd" ] || { echo "  GRO on: no forwarding report $fwd"; continue; }
	fi
	s=$("$tuner" uarch --preset "$preset" --csv "$o" | awk -F, 'NR == 2 { print $2 }')
	f=$("$tuner" uarch --preset "$preset" --csv "$fwd" | awk -F, 'NR == 2 { print $2 }')
	awk -v g="$g" -v s="$s" -v f="$f" 'BEGIN {
		printf "  GRO %s: the sender alone %.1f cycles per frame sent, forwarding %.1f per frame forwarded: %.1f%%\n",
			g, s, f, s / f * 100 }'
done
echo "  where the sender's cycles go (GRO off, per frame sent):"
"$tuner" profile --preset "$preset" --elf "$b/vmlinux" --packets "$(grep -ho 'packets=[0-9]*' \
	"$det/sender-gro-off.out" | cut -d= -f2)" --top 8 "$det/sender-gro-off/model.blocks.0" | sed 's/^/  /'

echo "== flag sets on $seeds layout seeds (MODELLED cycles per forwarded packet, preset $preset${penv:+, path $penv})"
python3 - "$j" "$configs" "$seeds" "$a5" "$seedfig" "${image##*/}" <<'PY'
import json, math, statistics as st, sys
j, configs, k, a5 = sys.argv[1], sys.argv[2].split(";"), int(sys.argv[3]), sys.argv[4]
seedfig, image = sys.argv[5], sys.argv[6]
builds, size, cyc = {}, {}, {}
for line in open(j):
    r = json.loads(line)
    if r.get("type") == "build" and r.get("status") == "ok":
        label = r["flags"] + (" +align5" if a5 and r.get("commit") == a5 else "")
        builds[r["key"]] = (label, r["seed"])
        size[(label, r["seed"])] = int(r["size"]) if r.get("size") is not None else None
    elif r.get("type") == "measure" and r.get("ok") and r["build"] in builds:
        lab, seed = builds[r["build"]]
        cyc.setdefault(r.get("testbed", "local"), {}).setdefault(lab, {})[seed] = r["values"]["cycles"]
# Two-sided 95% Student t quantiles by degrees of freedom.
T = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
     11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12}
def t95(df):
    return T.get(int(df), 2.0) if df >= 1 else float("nan")
def welch(v, base):
    """(change of mean cycles in %, half-width of its 95% interval)."""
    bm, m = st.mean(base), st.mean(v)
    se = math.sqrt(st.variance(v) / len(v) + st.variance(base) / len(base))
    df = se ** 4 / ((st.variance(v) / len(v)) ** 2 / (len(v) - 1) +
                    (st.variance(base) / len(base)) ** 2 / (len(base) - 1)) if se > 0 else len(v) - 1
    return (m - bm) / bm * 100, t95(df) * se / bm * 100
rows = configs + (["-O2 +align5"] if a5 and any("-O2 +align5" in c for c in cyc.values()) else [])
for tb in sorted(cyc):
    c = cyc[tb]
    base = [c.get("-O2", {}).get(s) for s in range(k)]
    if None in base:
        print("  testbed %s: -O2 lacks layout seeds: %s" % (tb, sorted(c.get("-O2", {}))))
        continue
    bm = st.mean(base)
    print("  testbed %s%s" % (tb, {"local": " (GRO off)", "gro-on": " (GRO on)", "before": " (before: virtio, cortex-a9)"}.get(tb, "")))
    print("  %-36s %11s %12s %8s %8s %19s %32s" % ("flags", image + " B", "cycles/pkt", "layout sd", "range", "min-max", "vs -O2 (95% CI)"))
    for cf in rows:
        v = [c.get(cf, {}).get(s) for s in range(k)]
        if not c.get(cf):
            continue  # not measured on this testbed
        if None in v:
            print("  %-36s missing layout seeds: %s" % (cf, sorted(c.get(cf, {}))))
            continue
        m = st.mean(v)
        sd = st.stdev(v) if k > 1 else 0.0
        row = "  %-36s %11s %12.1f %7.2f%% %7.2f%% %9.1f-%9.1f" % (cf, size.get((cf, 0)), m, sd / m * 100,
                                                               (max(v) - min(v)) / m * 100, min(v), max(v))
        if cf != "-O2" and k > 1:
            d, h = welch(v, base)
            # Fewer cycles per packet is faster: throughput changes by bm/m - 1.
            row += "   %+6.2f%% [%+.2f, %+.2f] cycles, %+.2f%% Mbit/s" % (d, d - h, d + h, (bm / m - 1) * 100)
        print(row)
    a, b = "-O2 -fno-reorder-blocks -fno-tree-ch", "-O2 -fno-tree-ch"
    va = [c.get(a, {}).get(s) for s in range(k)]
    vb = [c.get(b, {}).get(s) for s in range(k)]
    if None not in va and None not in vb and k > 1:
        d, h = welch(vb, va)
        lo, hi = 100 / (1 + (d + h) / 100) - 100, 100 / (1 + (d - h) / 100) - 100
        print("  dropping -fno-reorder-blocks from '%s': %+.2f%% modelled Mbit/s [%+.2f, %+.2f]"
              " (cycles %+.2f%%); %s"
              % (a, (st.mean(va) / st.mean(vb) - 1) * 100, lo, hi, d, seedfig))
PY

echo "== the counters that explain dropping -fno-reorder-blocks (tuner uarch, mean per packet over the layout seeds)"
# Each build's reports weighed again (tuner uarch on the results directory,
# nothing run): the split of the modelled cycles, and the events, of the
# 4.19 flags and of the same without -fno-reorder-blocks. Reports of the
# other preset's machine are not this table's (tuner uarch says so on
# stderr, silenced here).
"$tuner" uarch --preset "$preset" --csv "$res" 2>/dev/null >"$res/uarch.csv" || true
python3 - "$res/uarch.csv" "$seeds" "$preset" <<'PY'
import csv, re, statistics as st, sys
path, k, preset = sys.argv[1], int(sys.argv[2]), sys.argv[3]
a, b = "-O2 -fno-reorder-blocks -fno-tree-ch", "-O2 -fno-tree-ch"
rows = {}
for r in csv.DictReader(open(path)):
    m = re.match(r"^(.*) seed (\d+) run (?:(.+)\.)?0$", r["report"])
    if not m or m.group(1) not in (a, b) or int(m.group(2)) >= k:
        continue
    tb = m.group(3) or "local"
    rows.setdefault(tb, {}).setdefault(m.group(1), {})[int(m.group(2))] = r
parts = [("cycles", "cycles"), ("insns", "c_insn"), ("L1I", "c_l1i"), ("L1D", "c_l1d"), ("L2", "c_l2"),
         ("taken", "c_taken"), ("mispredict", "c_mispredict"), ("device", "c_io"), ("fetch split", "c_fetch")]
events = [("insns", "insns"), ("L1I misses", "l1i_misses"), ("L1D misses", "l1d_misses"),
          ("L2 misses", "l2_misses"), ("taken", "taken"), ("mispredicts", "mispredicts"),
          ("fetch splits", "fetch_splits")]
for tb in sorted(rows):
    va, vb = rows[tb].get(a, {}), rows[tb].get(b, {})
    seeds = sorted(set(va) & set(vb))
    if not seeds:
        continue
    def mean(v, key):
        return st.mean(float(v[s][key]) for s in seeds)
    print("  testbed %s (%s, %d layout seeds)" % (tb, preset, len(seeds)))
    print("  A = %s, B = %s" % (a, b))
    print("  %-22s %10s %10s %10s %s" % ("cycles per packet", "A", "B", "B - A", "of A's cycles"))
    ca = mean(va, "cycles")
    for name, key in parts:
        x, y = mean(va, key), mean(vb, key)
        print("  %-22s %10.1f %10.1f %+10.1f %+8.2f%%" % (name, x, y, y - x, (y - x) / ca * 100))
    print("  %-22s %10s %10s %10s %s" % ("events per packet", "A", "B", "B - A", "change"))
    for name, key in events:
        x, y = mean(va, key), mean(vb, key)
        print("  %-22s %10.1f %10.1f %+10.1f %+8.2f%%" % (name, x, y, y - x, (y - x) / x * 100 if x else 0))
PY

echo "== where the cycles go: -O2, layout seed 0 (tuner profile --top 15)"
for tb in $(jq -r 'select(.type == "measure") | .testbed // "local"' "$j" | sort -u); do
	suffix=
	[ "$tb" = local ] || suffix=$tb.
	f=$b/model.blocks.${suffix}0
	[ -f "$f" ] || continue
	p=$bpreset
	[ "$tb" = before ] && p=cortex-a9
	echo "  testbed $tb"
	# Per packet: tuner profile takes them from the measure log beside $f.
	"$tuner" profile --preset "$p" --elf "$b/vmlinux" "$f" | sed 's/^/  /'
	"$tuner" profile --preset "$p" --elf "$b/vmlinux" --csv "$f" | awk -F, -v fns="$dmafns" -v seed="$dmaseed" '
		$1 ~ "\"(" fns ")\"" { s += $3 }
		END { printf "  the DMA maintenance functions: %.2f%% of the modelled cycles (%s)\n", s, seed }'
done

if printf '%s\n' "${list[@]}" | grep -qx -- '-O2 -fno-reorder-blocks' && [ "$gro" != both ]; then
	echo "== tuner compare -O2 (A) vs -O2 -fno-reorder-blocks (B) on this journal"
	"$tuner" compare "$study" --a -O2 --b "-O2 -fno-reorder-blocks" --layout "$seeds" --repeats 1 \
		--results "$res" || true
fi
echo "kernel/model.sh: $(( $(date +%s) - t0 )) s"
