# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads the traces `bench/search.sh --keep DIR` kept (DIR/summary.json
and one DIR/STRATEGY-bBUDGET-sSEED.csv per trace) and answers three
questions the table does not:

  share DIR --dim NAME --value V   per strategy and budget, the mean and
                                   median share of evaluations whose
                                   dimension NAME has the value V (-Os)
  paired A B [--strategy S]        two runs of the same seeds (two builds
                                   of tuner), seed by seed: the medians,
                                   the seeds better and worse in B (by
                                   more than 1e-9), and a
                                   paired bootstrap 95% interval of the
                                   change of the median
  low DIR --strategy S --budget N  the seeds that ended below --below
                                   (0.99): how many measured the true
                                   front's heaviest point, and how many had
                                   explored what would have reached it

Usage: /usr/bin/python3 bench/search/traces.py COMMAND ... (--help); a
value that starts with "-" goes as --value=-Os."""
import argparse
import json
import os
import random
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import harness  # noqa: E402
import oracle as oraclemod  # noqa: E402


# Ratios closer than this are one: twin configurations (the same true
# values) on two fronts give the same hypervolume summed in another order.
TIE = 1e-9


def load(keep):
    """The kept run's summary.json (a dict; "traces" its traces' summaries)."""
    path = os.path.join(keep, "summary.json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit("traces.py: %s: not a kept run of bench/search.sh (%s)" % (path, e))


def indices(keep, r):
    """The configuration indices a trace evaluated, in order."""
    path = os.path.join(keep, "%s-b%d-s%d.csv" % (r["strategy"], r["budget"], r["seed"]))
    with open(path) as f:
        return [int(line.split(",")[1]) for line in f.read().splitlines()[2:]]


def share(keep, dim, value):
    """Lines: per strategy and budget, the share of evaluations at value."""
    run = load(keep)
    oracle = oraclemod.load(run["data"])
    names = [name for name, _ in oracle.dims]
    if dim not in names:
        raise SystemExit("traces.py: no dimension %r (%s)" % (dim, ", ".join(names)))
    d = names.index(dim)
    if value not in oracle.dims[d][1]:
        raise SystemExit("traces.py: %s has no value %r (%s)" % (dim, value, oracle.dims[d][1]))
    v = oracle.dims[d][1].index(value)
    lines = ["| strategy | budget | share at %s %s, mean | median |" % (dim, value or '""'),
             "| --- | --- | --- | --- |"]
    for st in run["strategies"]:
        for b in run["budgets"]:
            sh = []
            for r in harness.usable(run["traces"], st, b):
                idx = indices(keep, r)
                sh.append(sum(1 for i in idx if oracle.values_of(i)[d] == v) / len(idx))
            if sh:
                lines.append("| %s | %d | %.2f | %.2f |" % (st, b, statistics.mean(sh),
                                                             statistics.median(sh)))
    return lines


def paired_gap(a, b, resamples=2000, seed=0):
    """median(b) - median(a) over seeds paired by position, with a bootstrap
    95% interval resampling the seeds (both sides together)."""
    rng = random.Random(seed)
    n = len(a)
    gaps = []
    for _ in range(resamples):
        pick = [rng.randrange(n) for _ in range(n)]
        gaps.append(statistics.median(b[i] for i in pick) - statistics.median(a[i] for i in pick))
    gaps.sort()
    return (statistics.median(b) - statistics.median(a),
            harness.quantile(gaps, 0.025), harness.quantile(gaps, 0.975))


def paired(keep_a, keep_b, strategy):
    """Lines: per budget, A against B on the seeds both ran."""
    ra, rb = load(keep_a), load(keep_b)
    lines = ["| budget | seeds | median A | median B | change (95% interval) | B better | B worse |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for b in ra["budgets"]:
        fa = {r["seed"]: r["final"] for r in harness.usable(ra["traces"], strategy, b)}
        fb = {r["seed"]: r["final"] for r in harness.usable(rb["traces"], strategy, b)}
        seeds = sorted(set(fa) & set(fb))
        if len(seeds) < 2:
            continue
        xa, xb = [fa[s] for s in seeds], [fb[s] for s in seeds]
        gap, lo, hi = paired_gap(xa, xb)
        lines.append("| %d | %d | %.4f | %.4f | %+.4f (%+.4f to %+.4f) | %d | %d |"
                     % (b, len(seeds), statistics.median(xa), statistics.median(xb), gap, lo, hi,
                        sum(1 for x, y in zip(xa, xb) if y > x + TIE),
                        sum(1 for x, y in zip(xa, xb) if y < x - TIE)))
    return lines


def low(keep, strategy, budget, below):
    """Lines: the seeds below `below`, split by what they measured."""
    rs = harness.usable(load(keep)["traces"], strategy, budget)
    lo = [r for r in rs if r["final"] < below]
    return ["%s, budget %d: %d of %d seeds ended below %g; of them, %d measured the true front's "
            "heaviest point, %d had explored what would have reached %g (chosen by true values)"
            % (strategy, budget, len(lo), len(rs), below, sum(1 for r in lo if r["heaviest"]),
               sum(1 for r in lo if r["reach"] >= below), below)]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="traces.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("share", help="the share of evaluations at one value of a dimension")
    sp.add_argument("keep")
    sp.add_argument("--dim", required=True)
    sp.add_argument("--value", required=True, help="the value as the space has it (\"\" for none)")
    pp = sub.add_parser("paired", help="two runs of the same seeds, seed by seed")
    pp.add_argument("a")
    pp.add_argument("b")
    pp.add_argument("--strategy", default="tuner-surrogate-race")
    lp = sub.add_parser("low", help="the seeds that ended below a ratio")
    lp.add_argument("keep")
    lp.add_argument("--strategy", default="tuner-surrogate-race")
    lp.add_argument("--budget", type=int, required=True)
    lp.add_argument("--below", type=float, default=0.99)
    args = ap.parse_args(argv)
    if args.cmd == "share":
        lines = share(args.keep, args.dim, args.value)
    elif args.cmd == "paired":
        lines = paired(args.a, args.b, args.strategy)
    else:
        lines = low(args.keep, args.strategy, args.budget, args.below)
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
