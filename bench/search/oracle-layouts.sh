#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The search benchmark's second dataset (bench/search/layouts/, README.md
# "The layout-mean dataset"): every configuration of
# spaces/search-oracle.yaml built on 6 layout seeds (0..5) and scored on
# the A9 router model (MODELLED), so that a configuration's truth is the
# mean over its layouts, the flags' effect without one layout's luck, and
# the noise the replay adds is the spread between layouts pooled over the
# whole space. The fast path compiles once per flag set (NB_CCACHE_FP=1:
# the other seeds only link again), so the cost is the scoring: about
# 6,900 runs of the model.
#
#   bench/search/oracle-layouts.sh [--seeds N] [TUNER]            run what is missing, then write
#   bench/search/oracle-layouts.sh [--seeds N] --extract [TUNER]  only write, from the results
#
# --seeds N: layout seeds 0..N-1 per configuration (default 6); the
# dataset is written from those, and seeds a run with more seeds measured
# are kept in the journal, unused.
#
# Resumable: stopped at any point (Ctrl-C, a crash, the machine's end of
# day), it builds and scores only what its journal does not hold.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
extract=0 seeds=6
while [ $# -gt 0 ]; do
	case $1 in
	--extract) extract=1; shift ;;
	--seeds)
		[[ ${2:-} =~ ^[2-9]$ ]] || { echo "oracle-layouts.sh: --seeds takes 2..9, not '${2:-}'" >&2; exit 2; }
		seeds=$2; shift 2 ;;
	*) break ;;
	esac
done
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
res=$root/results/search-oracle-layouts
out=$root/bench/search/layouts
tmp=$(mktemp -d /tmp/tuner-oracle-layouts.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

. "$root/bench/search/derive.sh"
derive_study "$root" search-oracle-layouts "{strategy: exhaustive, seed: 1}" \
	's/NB_ARCH=a9$/NB_ARCH=a9 NB_CCACHE_FP=1/' \
	"s/layout: {samples: 6}\$/layout: {samples: $seeds}/" >"$tmp/layouts.yaml"
grep -q "^layout: {samples: $seeds}\$" "$tmp/layouts.yaml" ||
	{ echo "oracle-layouts.sh: derive.sh's layout line changed; update the sed" >&2; exit 1; }
grep -q 'NB_CCACHE_FP=1' "$tmp/layouts.yaml" ||
	{ echo "oracle-layouts.sh: spaces/search-oracle.yaml's build command changed; update the sed" >&2; exit 1; }
if [ "$extract" = 0 ]; then
	"$tuner" run -q --retry-failed --results "$res" "$tmp/layouts.yaml" >/dev/null
fi
[ -s "$res/results.csv" ] || { echo "oracle-layouts.sh: no $res/results.csv (run without --extract)" >&2; exit 1; }
mkdir -p "$out"

/usr/bin/python3 - "$tmp/layouts.yaml" "$res" "$out" "$root/bench/search" <<'PY'
import collections, datetime, json, math, statistics, sys
import yaml
study_path, res, out, here = sys.argv[1:5]
sys.path.insert(0, here)
import oracle as O

study = yaml.safe_load(open(study_path))
dims = [(name, [str(v) for v in values]) for name, values in study["space"].items()]
radix = [len(v) for _, v in dims]
SEEDS = study["layout"]["samples"]

# A configuration by its flags as a set of words (every dimension's value
# is one flag or none).
by_flags = {}
for i in range(math.prod(radix)):
    pick, x = [], i
    for r in reversed(radix):
        pick.append(x % r)
        x //= r
    words = [dims[d][1][v] for d, v in enumerate(reversed(pick)) if dims[d][1][v]]
    by_flags[frozenset(words)] = i

def when(r):
    return datetime.datetime.strptime(r["time"], "%Y-%m-%dT%H:%M:%SZ")

# The journal: every build (a configuration on a layout seed) and the code
# it holds; every measurement, by build. A build gcc was predicted to make
# alike (build.equivalent: skip) and a build of the same code as a
# measured one (measure.same_code: share) are measured through the build
# of that code, so values are looked up by code. Only the measurement key
# of the newest run counts (an older one measured with other inputs).
builds, measured, spans, run_start, open_runs = {}, {}, [], None, 0
records = [json.loads(line) for line in open(res + "/journal.jsonl")]
mkey = None
for r in records:
    if r["type"] == "measure" and r.get("ok"):
        mkey = r["mkey"]
for r in records:
    t = r["type"]
    if t == "build" and r["status"] == "ok":
        builds[r["key"]] = r
    elif t == "measure" and r.get("ok") and r["mkey"] == mkey:
        measured.setdefault(r["build"], []).append(r["values"]["throughput"])
    elif t == "run":
        if run_start is not None:
            open_runs += 1
        run_start = when(r)
    elif t == "end" and run_start is not None:
        spans.append((when(r) - run_start).total_seconds())
        run_start = None
if run_start is not None:
    open_runs += 1
by_code = {}
for key, values in measured.items():
    if key in builds:
        by_code.setdefault(builds[key]["code"], values[0])
cells = collections.defaultdict(dict)   # index -> seed -> (throughput, size)
for b in builds.values():
    i = by_flags.get(frozenset(b["flags"].split()))
    if i is None:
        sys.exit("oracle-layouts.sh: build %s has flags %r, not the space's" % (b["key"], b["flags"]))
    if b["code"] in by_code:
        cells[i][b["seed"]] = (by_code[b["code"]], b["size"])

values, rel = {}, {"throughput": [], "size": []}
short = []
for i in range(math.prod(radix)):
    got = cells.get(i, {})
    if any(k not in got for k in range(SEEDS)):
        short.append(i)
        continue
    t = [got[k][0] for k in range(SEEDS)]
    s = [got[k][1] for k in range(SEEDS)]
    values[i] = (statistics.mean(t), statistics.mean(s))
    rel["throughput"].append(statistics.stdev(t) / statistics.mean(t))
    rel["size"].append(statistics.stdev(s) / statistics.mean(s))
if short:
    sys.exit("oracle-layouts.sh: %d configurations lack some of layout seeds 0..%d (e.g. index %d): "
             "run without --extract" % (len(short), SEEDS - 1, short[0]))
sigma = {o: math.sqrt(sum(x * x for x in v) / len(v)) for o, v in rel.items()}
wall = sum(spans)
end = max(when(r) for r in records if "time" in r)
O.write(out, "search-oracle", dims, values, sigma,
        {"configurations": len(values), "layout_seeds": SEEDS,
         "throughput_rel_sd_quantiles": [round(q, 6) for q in
                                         statistics.quantiles(rel["throughput"], n=10)],
         "size_rel_sd_max": round(max(rel["size"]), 6)},
        {"command": "bench/search/oracle-layouts.sh", "wall_seconds": round(wall),
         "sessions": len(spans) + open_runs, "sessions_without_end": open_runs,
         "date": end.strftime("%Y-%m-%d")},
        {"layout_seeds": SEEDS, "of": "the mean over layout seeds 0..%d" % (SEEDS - 1)})
print("oracle-layouts: %d configurations, the mean of %d layout seeds each; layout noise %.4f "
      "(throughput) %.4f (size), pooled over all of them; %d s over %d sessions%s"
      % (len(values), SEEDS, sigma["throughput"], sigma["size"], wall, len(spans) + open_runs,
         " (%d without an end record, not counted)" % open_runs if open_runs else ""))
PY
