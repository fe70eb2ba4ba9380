#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Is the oracle's heaviest front point a flag effect or layout luck?
# The dataset (bench/search/oracle.csv) scores every configuration on one
# layout (layout seed 0); the replay adds the pooled layout noise on top.
# This builds the -O2 alignment grid of spaces/search-oracle.yaml (align x
# jumps, every other dimension at its first value: 12 configurations,
# among them the heaviest point, -O2 -falign-functions=64
# -falign-jumps=16) on 6 layout seeds each (0..5, 0 being the dataset's),
# and prints per configuration the dataset's throughput beside the mean
# and spread over the 6 layouts (MODELLED, the A9 model). 72 builds and
# scorings: 8 min 50 s on 2 cores shared with other work (2026-12-03).
#
#   bench/search/heaviest.sh [TUNER]   results in results/search-oracle-heaviest
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
res=$root/results/search-oracle-heaviest
tmp=$(mktemp -d /tmp/tuner-heaviest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# Every dimension but align and jumps held at its first value.
. "$root/bench/search/derive.sh"
derive_study "$root" search-oracle-heaviest "{strategy: exhaustive, seed: 1}" \
	's/^\(  \(opt\|reorder\|tree_ch\|inline\|sched2\|unroll\): *\)\[\([^,]*\),.*$/\1[\3]/' \
	>"$tmp/heaviest.yaml"
"$tuner" check "$tmp/heaviest.yaml" >"$tmp/check" ||
	{ cat "$tmp/check" >&2; exit 1; }
grep -q '12 configurations' "$tmp/check" ||
	{ echo "heaviest.sh: the derived study is not the 12-configuration grid:" >&2; cat "$tmp/check" >&2; exit 1; }
"$tuner" run -q --results "$res" "$tmp/heaviest.yaml" >/dev/null

/usr/bin/python3 - "$res/journal.jsonl" "$root/bench/search" <<'PY'
import json, statistics, sys
sys.path.insert(0, sys.argv[2])
import oracle as O

o = O.load()
by_flags = {tuple(sorted(o.flags(i).split())): i for i in range(o.n)}
builds, values = {}, {}
with open(sys.argv[1]) as f:
    for line in f:
        r = json.loads(line)
        if r.get("type") == "build" and r.get("status") == "ok":
            builds[r["key"]] = (r["flags"], r["seed"])
        elif r.get("type") == "measure" and r.get("ok") and r["build"] in builds:
            flags, seed = builds[r["build"]]
            values.setdefault(flags, {})[seed] = r["values"]["throughput"]
rows = []
for flags, by_seed in values.items():
    if sorted(by_seed) != list(range(6)):
        sys.exit("heaviest.sh: %s has layout seeds %s, want 0..5" % (flags or "-O2", sorted(by_seed)))
    i = by_flags[tuple(sorted(flags.split()))]
    v = [by_seed[k] for k in range(6)]
    rows.append(dict(flags=flags, size=o.size[i], data=o.throughput[i], seed0=v[0],
                     mean=statistics.mean(v), sd=statistics.stdev(v), lo=min(v), hi=max(v)))
if len(rows) != 12:
    sys.exit("heaviest.sh: %d configurations measured, want 12" % len(rows))
for key in ("data", "mean"):
    for k, r in enumerate(sorted(rows, key=lambda r: -r[key]), start=1):
        r["rank_" + key] = k
print("throughput MODELLED (Mbit/s, the A9 model), 6 layout seeds each; the dataset scored seed 0")
print("| configuration | size | dataset (rank) | seed 0 here | mean of 6 layouts (rank) "
      "| sd over the layouts | lowest - highest |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for r in sorted(rows, key=lambda r: -r["data"]):
    print("| %s | %d | %.1f (%d) | %.1f | %.1f (%d) | %.1f (%.2f%%) | %.1f - %.1f |"
          % (r["flags"], r["size"], r["data"], r["rank_data"], r["seed0"], r["mean"],
             r["rank_mean"], r["sd"], 100 * r["sd"] / r["mean"], r["lo"], r["hi"]))
PY
