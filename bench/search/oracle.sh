#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerates the search benchmark's dataset (bench/search/oracle.csv and
# oracle.json, bench/search/README.md "The dataset"):
#   1. every configuration of spaces/search-oracle.yaml built and scored
#      once on the A9 router model (MODELLED throughput, fast-path bytes):
#      tuner run into results/search-oracle;
#   2. the layout noise: 8 of its configurations (a seeded random sample)
#      on 6 layout seeds each, into results/search-oracle-noise; the
#      relative spread between a configuration's layout seeds, pooled
#      (root mean square) over the 8, is the noise the replay adds;
#   3. the CSV and JSON, the wall time of step 1 from its journal.
# The model is deterministic (tuner's uarch plugin: two runs of one binary
# give the same counters), so the run noise is 0 and the layout noise is
# all there is. About 2 hours on 2 cores.
#
#   bench/search/oracle.sh [TUNER]            run what is missing, then write
#   bench/search/oracle.sh --extract [TUNER]  only write, from the results
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
extract=0
if [ "${1:-}" = --extract ]; then extract=1; shift; fi
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
study=$root/spaces/search-oracle.yaml
res=$root/results/search-oracle
noise=$root/results/search-oracle-noise
tmp=$(mktemp -d /tmp/tuner-oracle.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The noise study: the same study, 8 configurations, 6 layout seeds.
. "$root/bench/search/derive.sh"
derive_study "$root" search-oracle-noise "{strategy: random, budget: 8, seed: 11}" >"$tmp/noise.yaml"
if [ "$extract" = 0 ]; then
	"$tuner" run -q --results "$res" "$study" >/dev/null
	"$tuner" run -q --results "$noise" "$tmp/noise.yaml" >/dev/null
fi
for f in "$res/results.csv" "$noise/results.csv"; do
	[ -s "$f" ] || { echo "oracle.sh: no $f (run without --extract)" >&2; exit 1; }
done

/usr/bin/python3 - "$study" "$res" "$noise" "$root/bench/search" <<'PY'
import csv, datetime, json, math, os, sys
import yaml
study_path, res, noise, out = sys.argv[1:5]
study = yaml.safe_load(open(study_path))
dims = [(name, [str(v) for v in values]) for name, values in study["space"].items()]
radix = [len(v) for _, v in dims]

def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))

def pick_of(row):
    return [values.index(row["dim:" + name]) for name, values in dims]

def index_of(pick):
    i = 0
    for r, v in zip(radix, pick):
        i = i * r + v
    return i

data = {}
for row in rows(os.path.join(res, "results.csv")):
    if row["status"] != "ok":
        sys.exit("oracle.sh: %s (%s) is %s: the dataset needs every configuration"
                 % (row["config"], row["flags"], row["status"]))
    data[index_of(pick_of(row))] = (float(row["throughput"]), float(row["size"]))
n = math.prod(radix)

# The layout noise: each sampled configuration's spread between its layout
# seeds (its samples' standard deviation: one run on each seed's build,
# measure.repeats 1), relative to its mean, pooled as a root mean square.
rel = {"throughput": [], "size": []}
noise_rows = rows(os.path.join(noise, "results.csv"))
for row in noise_rows:
    if row["status"] != "ok" or row["throughput_n"] != "6":
        sys.exit("oracle.sh: %s has %s samples, want 6 (one per layout seed)"
                 % (row["config"], row["throughput_n"]))
    for o in rel:
        rel[o].append(float(row[o + "_sd"] or 0) / float(row[o]))
sigma = {o: math.sqrt(sum(x * x for x in v) / len(v)) for o, v in rel.items()}

# Step 1's wall time: from its journal's first record to its results.csv.
start = None
with open(os.path.join(res, "journal.jsonl")) as f:
    for line in f:
        r = json.loads(line)
        if r.get("type") == "run":
            start = datetime.datetime.strptime(r["time"], "%Y-%m-%dT%H:%M:%SZ").replace(
                tzinfo=datetime.timezone.utc)
            break
end = datetime.datetime.fromtimestamp(os.path.getmtime(os.path.join(res, "results.csv")),
                                      datetime.timezone.utc)
sys.path.insert(0, out)
import oracle as O
O.write(out, study["study"], dims, data, sigma,
        {"configurations": len(noise_rows), "layout_seeds": 6,
         "throughput_rel_sd": [round(x, 6) for x in rel["throughput"]],
         "size_rel_sd": [round(x, 6) for x in rel["size"]]},
        {"command": "bench/search/oracle.sh", "wall_seconds": round((end - start).total_seconds()),
         "date": end.strftime("%Y-%m-%d")},
        {"layout_seeds": 1, "of": "layout seed 0's measurement"})
print("oracle: %d configurations, layout noise %.4f (throughput) %.4f (size) over %d "
      "configurations, step 1 took %d s" % (n, sigma["throughput"], sigma["size"],
                                            len(noise_rows), (end - start).total_seconds()))
PY
