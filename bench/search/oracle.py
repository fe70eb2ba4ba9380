# SPDX-License-Identifier: GPL-2.0-or-later
"""The search benchmark's oracle (bench/search/README.md): the dataset of
every configuration of one enumerable space measured once, the seeded noisy
evaluator every strategy goes through, and the metrics of a trace.

As a command:
  oracle.py [--data DIR] [--noise-scale F] eval --seed S --k K INDEX
      one measurement, "THROUGHPUT SIZE" (irace's target runner)
  oracle.py [--data DIR] [--noise-scale F] eval --seed S --batch FILE
      one measurement per line "INDEX K" of FILE, in order
  oracle.py [--data DIR] info
      what the data is: its study, noise, true front

Standard library only (it is started once per irace batch).
"""
import argparse
import csv
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CSV_DIMS = ["opt", "reorder", "tree_ch", "align", "inline", "sched2", "unroll", "jumps"]


class DataError(Exception):
    """The dataset is missing or malformed."""


class Oracle:
    """A space of configurations with their true values, and the noise.

    dims: [(name, [values...]), ...] in order; the last varies fastest in
    a configuration's index. throughput[i], size[i]: configuration i's
    true values (throughput to maximize, size to minimize). sigma: the
    log-normal noise's standard deviation per objective, as a relative
    spread (throughput, size)."""

    def __init__(self, dims, throughput, size, sigma, study="", meta=None):
        self.dims = [(name, list(values)) for name, values in dims]
        self.radix = [len(values) for _, values in self.dims]
        self.n = 1
        for r in self.radix:
            self.n *= r
        if len(throughput) != self.n or len(size) != self.n:
            raise DataError("%d configurations in the space, %d and %d values"
                            % (self.n, len(throughput), len(size)))
        self.throughput = [float(t) for t in throughput]
        self.size = [float(s) for s in size]
        self.sigma = tuple(float(s) for s in sigma)
        self.study = study
        self.meta = meta or {}
        # The hypervolume's reference point: the worst of each objective.
        self.ref = (min(self.throughput), max(self.size))
        self.front = nondominated(list(zip(self.throughput, self.size)))
        self.front_points = sorted({(self.throughput[i], self.size[i]) for i in self.front},
                                   reverse=True)
        self.front_hv = hypervolume(self.front_points, self.ref)
        # The front point whose loss costs the most hypervolume, and that
        # cost over the front's (a search that never measures it cannot
        # reach 1 - heaviest_share).
        self.heaviest, self.heaviest_share = None, 0.0
        for p in self.front_points:
            rest = hypervolume([q for q in self.front_points if q != p], self.ref)
            share = (self.front_hv - rest) / self.front_hv if self.front_hv else 0.0
            if share > self.heaviest_share:
                self.heaviest, self.heaviest_share = p, share
        # The configurations with its true values (twins: the same code).
        self.heaviest_configs = {i for i in self.front
                                 if (self.throughput[i], self.size[i]) == self.heaviest}

    # The space.
    def values_of(self, index):
        """The value indices of configuration `index`, in dimension order."""
        out = []
        for r in reversed(self.radix):
            out.append(index % r)
            index //= r
        return out[::-1]

    def index_of(self, values):
        """The configuration's index from its value indices (dimension order)."""
        return index_of(self.radix, values)

    def flags(self, index):
        """The flags of a configuration: its non-empty values joined by spaces."""
        return " ".join(v for (_, values), x in zip(self.dims, self.values_of(index))
                        for v in [values[x]] if v)

    # The evaluator.
    def measure(self, seed, index, k):
        """Configuration `index`'s k-th measurement (k = 0 the first time in a
        trace) under noise seed `seed`: (throughput, size), each its true value
        times exp(sigma * z), z ~ N(0, 1) drawn from (seed, index, k, objective)
        alone, so that every strategy sees the same noise."""
        out = []
        for o, (true, sigma) in enumerate(((self.throughput[index], self.sigma[0]),
                                           (self.size[index], self.sigma[1]))):
            if sigma == 0:
                out.append(true)
                continue
            z = random.Random("%d:%d:%d:%d" % (seed, index, k, o)).gauss(0.0, 1.0)
            out.append(true * math.exp(sigma * z))
        return tuple(out)


def load(data_dir=None, noise_scale=1.0):
    """Loads oracle.csv and oracle.json from data_dir (default: this
    directory), checking every field; noise_scale multiplies the noise's
    sigmas (0: noise-free). Raises DataError."""
    data_dir = data_dir or HERE
    csv_path = os.path.join(data_dir, "oracle.csv")
    json_path = os.path.join(data_dir, "oracle.json")
    for p in (csv_path, json_path):
        if not os.path.exists(p):
            raise DataError("%s: missing (the oracle's dataset: bench/search/README.md, "
                            "\"The dataset\")" % p)
    try:
        with open(json_path) as f:
            meta = json.load(f)
    except ValueError as e:
        raise DataError("%s: %s" % (json_path, e))
    try:
        dims = [(d["name"], list(d["values"])) for d in meta["dims"]]
        objectives = [(o["name"], o["goal"]) for o in meta["objectives"]]
        noise = meta["noise"]
        sigma = []
        for name in ("throughput", "size"):
            lay = float(noise[name]["layout_rel_sd"])
            run = float(noise[name]["run_rel_sd"])
            if lay < 0 or run < 0:
                raise DataError("%s: noise of %s below 0" % (json_path, name))
            sigma.append(noise_scale * math.sqrt(lay * lay + run * run))
    except (KeyError, TypeError, ValueError) as e:
        raise DataError("%s: malformed (%s: %s)" % (json_path, type(e).__name__, e))
    if objectives != [("throughput", "max"), ("size", "min")]:
        raise DataError("%s: objectives %r, want throughput (max) then size (min)"
                        % (json_path, objectives))
    names = [d[0] for d in dims]
    header = ["index"] + names + ["throughput", "size"]
    radix = [len(values) for _, values in dims]
    n = 1
    for r in radix:
        n *= r
    throughput = [None] * n
    size = [None] * n
    with open(csv_path, newline="") as f:
        rows = csv.reader(f)
        got = next(rows, None)
        if got != header:
            raise DataError("%s: header %r, want %r" % (csv_path, got, header))
        for line, row in enumerate(rows, start=2):
            where = "%s:%d" % (csv_path, line)
            if len(row) != len(header):
                raise DataError("%s: %d fields, want %d" % (where, len(row), len(header)))
            try:
                index = int(row[0])
                values = [int(x) for x in row[1:1 + len(names)]]
                t = float(row[-2])
                s = int(row[-1])
            except ValueError as e:
                raise DataError("%s: %s" % (where, e))
            try:
                want = index_of(radix, values)
            except ValueError as e:
                raise DataError("%s: %s" % (where, e))
            if index != want:
                raise DataError("%s: index %d, but its values give %d" % (where, index, want))
            if throughput[index] is not None:
                raise DataError("%s: configuration %d again" % (where, index))
            if not (math.isfinite(t) and t > 0 and s > 0):
                raise DataError("%s: values must be positive" % where)
            throughput[index] = t
            size[index] = s
    missing = [i for i, t in enumerate(throughput) if t is None]
    if missing:
        raise DataError("%s: %d configurations missing (the first %d)"
                        % (csv_path, len(missing), missing[0]))
    meta = dict(meta, noise_scale=noise_scale)
    return Oracle(dims, throughput, size, sigma, meta.get("study", ""), meta)


def write(out_dir, study, dims, values, sigma, noise_sample, generated, truth):
    """Writes a dataset, oracle.csv and oracle.json, into out_dir: what
    load() reads. dims: [(name, [values...]), ...]; values: {index:
    (throughput, size)} for every configuration of the space; sigma:
    {"throughput": rel_sd, "size": rel_sd}, the layout noise the replay
    adds (the model's run noise is 0); noise_sample: how sigma was
    estimated; generated: the command, its wall time and date; truth:
    what a configuration's value is (e.g. {"layout_seeds": 1, "of":
    "seed 0"}). Raises DataError when a configuration has no value."""
    radix = [len(v) for _, v in dims]
    n = math.prod(radix)
    missing = [i for i in range(n) if i not in values]
    if missing:
        raise DataError("%d of %d configurations have no value (e.g. index %d)"
                        % (len(missing), n, missing[0]))
    with open(os.path.join(out_dir, "oracle.csv"), "w") as f:
        f.write("index," + ",".join(name for name, _ in dims) + ",throughput,size\n")
        for i in range(n):
            pick, x = [], i
            for r in reversed(radix):
                pick.append(x % r)
                x //= r
            t, sz = values[i]
            f.write("%d,%s,%.6f,%d\n" % (i, ",".join(map(str, reversed(pick))), t, round(sz)))
    meta = {
        "study": study,
        "dims": [{"name": name, "values": list(v)} for name, v in dims],
        "objectives": [{"name": "throughput", "goal": "max", "unit": "Mbit/s (modelled)"},
                       {"name": "size", "goal": "min", "unit": "bytes of fast-path code"}],
        "truth": truth,
        "noise": {o: {"layout_rel_sd": round(sigma[o], 6), "run_rel_sd": 0}
                  for o in ("throughput", "size")},
        "noise_sample": noise_sample,
        "generated": dict(generated, configurations=n),
    }
    with open(os.path.join(out_dir, "oracle.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")


def index_of(radix, values):
    """The index of the configuration of value indices `values` in a space of
    `radix` values per dimension (mixed radix, the last varying fastest).
    Raises ValueError."""
    if len(values) != len(radix):
        raise ValueError("%d values for %d dimensions" % (len(values), len(radix)))
    index = 0
    for v, r in zip(values, radix):
        if not 0 <= v < r:
            raise ValueError("value index %d out of 0..%d" % (v, r - 1))
        index = index * r + v
    return index


# Metrics. Points are (throughput, size): throughput maximized, size minimized.

def dominates(a, b):
    """a is at least as good as b in both objectives and better in one."""
    return a[0] >= b[0] and a[1] <= b[1] and (a[0] > b[0] or a[1] < b[1])


def nondominated(points):
    """The positions of the points no other point dominates (points with
    identical values all kept), in increasing order."""
    order = sorted(range(len(points)), key=lambda j: (-points[j][0], points[j][1]))
    keep = []
    best = math.inf  # the smallest size among points of higher throughput
    k = 0
    while k < len(order):
        # A group of equal throughput: only its smallest size can survive.
        t = points[order[k]][0]
        group_end = k
        while group_end < len(order) and points[order[group_end]][0] == t:
            group_end += 1
        smin = points[order[k]][1]
        if smin < best:
            keep.extend(j for j in order[k:group_end] if points[j][1] == smin)
            best = smin
        k = group_end
    return sorted(keep)


def hypervolume(points, ref):
    """The 2-D area the points dominate up to the reference point ref
    (throughput no higher, size no lower than every point's): computed on
    the distinct points, so that a set and its duplicates give the same
    number to the last bit."""
    pts = sorted({p for p in points if p[0] > ref[0] and p[1] < ref[1]}, reverse=True)
    area = 0.0
    best = ref[1]
    for j, (t, s) in enumerate(pts):
        best = min(best, s)
        t_next = pts[j + 1][0] if j + 1 < len(pts) else ref[0]
        area += (t - t_next) * (ref[1] - best)
    return area


class TraceMetrics:
    """What a trace found, evaluation by evaluation.

    ratio[n-1]: after n evaluations, the hypervolume at TRUE values of the
    configurations non-dominated at their MEASURED values (the mean of their
    measurements), over the true front's. to95, to99: the first n whose
    ratio reaches 0.95, 0.99 (None: never). missed: the true front's
    distinct points (configurations of identical true values count once)
    that no configuration of the final found set has. found: the final
    found set (configuration indices). repeats: evaluations of a
    configuration already evaluated in the trace. reach: the ratio had the
    found set been chosen by TRUE values among every configuration the
    trace measured (what the search reached; final - reach is what the
    noise cost it in choosing)."""

    def __init__(self, oracle, trace):
        sums = {}
        found = []  # the found set, configuration indices
        self.ratio = []
        self.repeats = 0
        for index, t, s in trace:
            if index in sums:
                self.repeats += 1
                st, ss, c = sums[index]
                sums[index] = (st + t, ss + s, c + 1)
                # Its mean moved: the found set is computed anew.
                keys = list(sums)
                means = [(sums[i][0] / sums[i][2], sums[i][1] / sums[i][2]) for i in keys]
                found = [keys[j] for j in nondominated(means)]
            else:
                sums[index] = (t, s, 1)
                p = (t, s)
                if not any(dominates(_mean(sums[q]), p) for q in found):
                    found = [q for q in found if not dominates(p, _mean(sums[q]))] + [index]
            self.ratio.append(self._ratio(oracle, found))
        self.found = sorted(found)
        self.evaluations = len(self.ratio)
        self.to95 = _first(self.ratio, 0.95)
        self.to99 = _first(self.ratio, 0.99)
        self.final = self.ratio[-1] if self.ratio else 0.0
        self.reach = self._ratio(oracle, list(sums))
        self.heaviest = any(i in oracle.heaviest_configs for i in sums)
        have = {(oracle.throughput[i], oracle.size[i]) for i in self.found}
        self.missed = sum(1 for p in oracle.front_points if p not in have)

    @staticmethod
    def _ratio(oracle, found):
        pts = [(oracle.throughput[i], oracle.size[i]) for i in found]
        return hypervolume(pts, oracle.ref) / oracle.front_hv


def _mean(acc):
    return (acc[0] / acc[2], acc[1] / acc[2])


def _first(ratio, target):
    for n, r in enumerate(ratio, start=1):
        if r >= target:
            return n
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="oracle.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="the directory of oracle.csv and oracle.json (default: %s)" % HERE)
    ap.add_argument("--noise-scale", type=float, default=1.0,
                    help="multiplies the noise's sigmas (0: noise-free)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ev = sub.add_parser("eval", help="measure configurations")
    ev.add_argument("--seed", type=int, required=True)
    ev.add_argument("--k", type=int, help="how many times INDEX was measured before in the trace")
    ev.add_argument("--batch", help="a file of lines 'INDEX K'")
    ev.add_argument("index", type=int, nargs="?")
    sub.add_parser("info", help="what the data is")
    args = ap.parse_args(argv)
    try:
        oracle = load(args.data, args.noise_scale)
    except DataError as e:
        print("oracle.py: %s" % e, file=sys.stderr)
        return 2
    if args.cmd == "info":
        for line in describe(oracle):
            print(line)
        return 0
    if args.batch is not None:
        if args.index is not None or args.k is not None:
            ap.error("eval: --batch or --k K INDEX, not both")
        with open(args.batch) as f:
            jobs = [tuple(int(x) for x in line.split()) for line in f if line.strip()]
    else:
        if args.index is None or args.k is None:
            ap.error("eval: --k K INDEX or --batch FILE")
        jobs = [(args.index, args.k)]
    out = []
    for index, k in jobs:
        if not 0 <= index < oracle.n or k < 0:
            print("oracle.py: no configuration %d (0..%d), or k %d < 0" % (index, oracle.n - 1, k),
                  file=sys.stderr)
            return 2
        out.append("%r %r" % oracle.measure(args.seed, index, k))
    sys.stdout.write("".join(line + "\n" for line in out))
    return 0


def describe(oracle):
    """Lines saying what the data is."""
    m = oracle.meta
    gen = m.get("generated", {})
    noise = m.get("noise", {})
    configs = len(oracle.front)
    seeds = m.get("truth", {}).get("layout_seeds", 1)
    truth = ("every one measured once (layout seed 0)" if seeds == 1 else
             "each the mean of its %d layout seeds" % seeds)
    lines = [
        "data: %s, %d configurations (%s), %s; generated %s (%s s): %s"
        % (oracle.study, oracle.n, " x ".join(str(r) for r in oracle.radix), truth,
           gen.get("date", "?"), gen.get("wall_seconds", "?"), gen.get("command", "?")),
        "throughput is MODELLED (Mbit/s, to maximize); size in bytes (to minimize)",
        "noise (log-normal, per evaluation%s): throughput sigma %.4g (layout %s, run %s), "
        "size sigma %.4g (layout %s, run %s)"
        % ("" if m.get("noise_scale", 1) == 1 else ", sigmas scaled by %g" % m["noise_scale"],
           oracle.sigma[0], noise.get("throughput", {}).get("layout_rel_sd"),
           noise.get("throughput", {}).get("run_rel_sd"),
           oracle.sigma[1], noise.get("size", {}).get("layout_rel_sd"),
           noise.get("size", {}).get("run_rel_sd")),
        "true front: %d distinct points (%d configurations), hypervolume %.6g "
        "(reference: throughput %.6g, size %.6g, the worst of each)"
        % (len(oracle.front_points), configs, oracle.front_hv, oracle.ref[0], oracle.ref[1]),
    ]
    if oracle.heaviest:
        lines.append("its heaviest point: throughput %.6g, size %.6g (%s), %.1f%% of the hypervolume alone"
                     % (oracle.heaviest + (" | ".join(oracle.flags(i) or "(no flags)"
                                                      for i in sorted(oracle.heaviest_configs)),
                                           100 * oracle.heaviest_share)))
    return lines


if __name__ == "__main__":
    sys.exit(main())
