#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Does the demo's short scoring rank the programs as a long one does?
# Scores every distinct program of a finished `make demo` (its layout
# seed 0 builds, one per code id) at SHORT and at LONG packets with
# targets/natbench/score-uarch.sh (qemu-arm and the uarch plugin: MODELLED),
# weighs the counters with the study's core (tuner uarch --csv), and
# prints the rank agreement: Spearman's rho, the pairs the two order
# differently with their gap at LONG, and the ratio of the values.
#
#   bench/demo-packets.sh [TUNER] [RESULTS] [SHORT] [LONG]
#
# RESULTS: a results directory of spaces/natbench-a9.yaml (default
# results/natbench-a9, after make demo); SHORT 5000 and LONG 30000 by
# default (the study's and score-uarch.sh's own). About 5 minutes on
# 2 cores for the demo's 72 programs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
results=$(readlink -f "${2:-$root/results/natbench-a9}")
short=${3:-5000}
long=${4:-30000}
plugin=$(dirname "$tuner")/tuner-uarch.so
[ -r "$plugin" ] || { echo "demo-packets: no $plugin (make plugin)" >&2; exit 1; }
if [ ! -r "$results/journal.jsonl" ]; then
	# make bench runs every bench: this one needs make demo's results
	echo "demo-packets: skipped: no $results/journal.jsonl (run make demo first)"
	exit 0
fi
work=$(mktemp -d /tmp/tuner-demo-packets.XXXXXX)
trap 'rm -rf "$work"' EXIT

# key, flags and PGO of the first seed-0 build of each code id
python3 - "$results/journal.jsonl" >"$work/list" <<'PY'
import json, sys
seen = set()
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "build" and r.get("status") == "ok" and r.get("seed") == 0 \
            and r.get("code") and r["code"] not in seen and r.get("artifact"):
        seen.add(r["code"])
        print(r["key"], r["artifact"])
PY
n=$(wc -l <"$work/list")
echo "demo-packets: $n programs, $short and $long packets each" >&2

score() { # key artifact packets
	local out=$work/$3/$1
	mkdir -p "$out"
	TUNER_ARTIFACT=$2 TUNER_OUT=$out TUNER_RUN=0 NB_SCORE_PACKETS=$3 \
		TUNER_UARCH=preset=cortex-a9 TUNER_UARCH_PLUGIN=$plugin \
		sh "$root/targets/natbench/score-uarch.sh" >/dev/null
}
export -f score
export work root plugin
for p in "$short" "$long"; do
	# two at a time: the machine's two cores
	xargs -P 2 -L 1 bash -c 'score "$0" "$1" '"$p" <"$work/list"
	"$tuner" uarch --study "$root/spaces/natbench-a9.yaml" --csv "$work/$p"/* >"$work/$p.csv"
done

python3 - "$work/$short.csv" "$work/$long.csv" "$short" "$long" <<'PY'
import csv, sys
def load(path):
    rows = list(csv.DictReader(open(path)))
    # report: "DIR/KEY run 0"; mbps: the modelled Mbit/s
    return {r["report"].split("/")[-1].split()[0]: float(r["mbps"]) for r in rows}
a, b = load(sys.argv[2]), load(sys.argv[1])  # long, short
keys = sorted(set(a) & set(b))
la, lb = [a[k] for k in keys], [b[k] for k in keys]
def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0] * len(v)
    for pos, i in enumerate(order):
        r[i] = pos
    return r
ra, rb, n = ranks(la), ranks(lb), len(keys)
rho = 1 - 6 * sum((x - y) ** 2 for x, y in zip(ra, rb)) / (n * (n * n - 1))
disc = [abs(la[i] - la[j]) / min(la[i], la[j]) for i in range(n) for j in range(i + 1, n)
        if (la[i] - la[j]) * (lb[i] - lb[j]) < 0]
ratio = [y / x for x, y in zip(la, lb)]
print(f"demo-packets: {n} programs (MODELLED Mbit/s), {sys.argv[3]} against {sys.argv[4]} packets: "
      f"Spearman {rho:.4f}; {len(disc)} of {n * (n - 1) // 2} pairs ordered otherwise, "
      f"at most {100 * max(disc, default=0):.2f}% apart at {sys.argv[4]}; "
      f"values {min(ratio):.3f}-{max(ratio):.3f} of the long run's")
PY
