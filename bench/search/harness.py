# SPDX-License-Identifier: GPL-2.0-or-later
"""The search benchmark (bench/search.sh; bench/search/README.md): every
strategy, one trace per (strategy, budget, seed), all through the same noisy
evaluator (oracle.py) and budget, then the table of what they found."""
import argparse
import json
import math
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import oracle as oraclemod  # noqa: E402

PY = "/usr/bin/python3"  # Debian's, with python3-optuna
STRATEGIES = ["random", "exhaustive", "optuna-nsga2", "optuna-tpe", "irace",
              "tuner-nsga2", "tuner-nsga2-race", "tuner-surrogate", "tuner-surrogate-race",
              "tuner-random"]
SHORT = ["random", "exhaustive", "optuna-nsga2", "tuner-nsga2", "tuner-surrogate",
         "tuner-surrogate-race"]
BUDGETS = [5, 10, 25, 50]
TRACE_TIMEOUT = 1800  # seconds one trace may take (a strategy that hangs)


class StrategyError(Exception):
    """A strategy failed or broke the protocol; the trace so far is kept."""


class Evaluator:
    """The trace of one (strategy, budget, seed): each evaluation of a
    configuration is its k-th measurement (k = its earlier evaluations in
    this trace) under the seed."""

    def __init__(self, oracle, seed):
        self.oracle = oracle
        self.seed = seed
        self.count = {}
        self.rows = []  # (index, k, throughput, size)

    def __call__(self, index):
        k = self.count.get(index, 0)
        self.count[index] = k + 1
        t, s = self.oracle.measure(self.seed, index, k)
        self.rows.append((index, k, t, s))
        return t, s


# The strategies: each evaluates `budget` configurations through `ev`, and
# returns a note for the trace (or None).

def run_random(ctx, oracle, budget, seed, ev):
    for i in random.Random(seed).sample(range(oracle.n), budget):
        ev(i)


def run_exhaustive(ctx, oracle, budget, seed, ev):
    for i in range(budget):
        ev(i)


def run_optuna(kind):
    def run(ctx, oracle, budget, seed, ev):
        import warnings
        import optuna
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if kind == "nsga2":
            sampler = optuna.samplers.NSGAIISampler(seed=seed)
        else:
            sampler = optuna.samplers.TPESampler(seed=seed, multivariate=True)
        study = optuna.create_study(directions=["maximize", "minimize"], sampler=sampler)
        for _ in range(budget):
            trial = study.ask()
            values = [trial.suggest_categorical(name, list(range(len(vals))))
                      for name, vals in oracle.dims]
            study.tell(trial, list(ev(oracle.index_of(values))))
    return run


def run_tuner(name, race=False):
    def run(ctx, oracle, budget, seed, ev):
        cmd = [ctx["tuner"], "propose", ctx["study"], "--strategy", name,
               "--budget", str(budget), "--seed", str(seed), "-q"] + (["--race"] if race else [])
        with open(ctx["stem"] + ".stderr", "w") as err:
            proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=err, text=True, bufsize=1)
            timer = threading.Timer(TRACE_TIMEOUT, proc.kill)
            timer.start()
            done = False
            problem = None
            try:
                for line in proc.stdout:
                    line = line.rstrip("\n")
                    if done:
                        problem = problem or "a line after 'done': %r" % line
                        continue
                    if line == "done":
                        done = True
                        continue
                    try:
                        index = parse_proposal(oracle, line)
                    except ValueError as e:
                        problem = "proposal %d: %s" % (len(ev.rows) + 1, e)
                        break
                    t, s = ev(index)
                    proc.stdin.write("%r %r\n" % (t, s))
                    proc.stdin.flush()
            except BrokenPipeError:
                problem = "tuner closed its stdin early"
            finally:
                try:
                    proc.stdin.close()
                except BrokenPipeError:
                    pass
                if problem:
                    proc.kill()
                rc = proc.wait()
                timer.cancel()
        if problem:
            raise StrategyError("%s (%s)" % (problem, " ".join(cmd)))
        if rc != 0:
            raise StrategyError("%s: exit %d%s: %s" % (" ".join(cmd), rc,
                                                        " (killed: over %d s)" % TRACE_TIMEOUT
                                                        if rc == -9 else "",
                                                        tail(ctx["stem"] + ".stderr")))
        if not done:
            raise StrategyError("%s: no 'done' line" % " ".join(cmd))
        if len(ev.rows) > budget:
            raise StrategyError("%s: %d proposals" % (" ".join(cmd), len(ev.rows)))
        # A strategy may be done before its budget is (tuner propose --help).
        if len(ev.rows) < budget:
            return {"stopped": len(ev.rows)}
    return run


def parse_proposal(oracle, line):
    """A proposal line '<i0>,...,<i7>\\t<flags>' -> the configuration's index;
    its flags must be the configuration's (as a set of words)."""
    values, sep, flags = line.partition("\t")
    if not sep:
        raise ValueError("no tab in %r" % line)
    index = oracle.index_of([int(x) for x in values.split(",")])
    if sorted(flags.split()) != sorted(oracle.flags(index).split()):
        raise ValueError("flags %r, but its value indices give %r" % (flags, oracle.flags(index)))
    return index


def run_irace(ctx, oracle, budget, seed, ev):
    trace = ctx["stem"] + ".irace.csv"
    cmd = ["Rscript", os.path.join(HERE, "irace.R"), "--data", ctx["data"],
           "--seed", str(seed), "--budget", str(budget), "--trace", trace, "--python", PY,
           "--oracle", os.path.join(HERE, "oracle.py"), "--noise-scale", repr(ctx["noise_scale"]),
           "--workdir", os.path.dirname(ctx["stem"])]
    with open(ctx["stem"] + ".stderr", "w") as err:
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=err, text=True,
                               timeout=TRACE_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise StrategyError("irace: over %d s" % TRACE_TIMEOUT)
    out = p.stdout.strip()
    if p.returncode == 3 and out.startswith("irace-refused:"):
        return {"refused": out[len("irace-refused: "):]}
    if p.returncode != 0:
        raise StrategyError("irace: exit %d: %s" % (p.returncode, tail(ctx["stem"] + ".stderr")))
    # Replayed through the evaluator: the same values, or irace.R's k or
    # its oracle.py calls went wrong.
    with open(trace) as f:
        rows = [line.strip().split(",") for line in f][1:]
    if len(rows) > budget:
        raise StrategyError("irace: %d experiments, budget %d" % (len(rows), budget))
    for n, (index, k, t, s) in enumerate(rows, start=1):
        got = ev(int(index))
        if ev.rows[-1][1] != int(k) or got != (float(t), float(s)):
            raise StrategyError("irace trace row %d: %s,%s,%s,%s, the evaluator gives %r"
                                % (n, index, k, t, s, ev.rows[-1]))
    os.unlink(trace)
    return {"settings": out[len("irace-settings: "):] if out.startswith("irace-settings:") else out}


RUNNERS = {
    "random": run_random,
    "exhaustive": run_exhaustive,
    "optuna-nsga2": run_optuna("nsga2"),
    "optuna-tpe": run_optuna("tpe"),
    "irace": run_irace,
    "tuner-nsga2": run_tuner("nsga2"),
    # with --race: it may measure a configuration again, as `tuner run` does
    # by default (search.race)
    "tuner-nsga2-race": run_tuner("nsga2", race=True),
    "tuner-surrogate": run_tuner("surrogate"),
    "tuner-surrogate-race": run_tuner("surrogate", race=True),
    "tuner-random": run_tuner("random"),
}


def tail(path, lines=5):
    try:
        with open(path) as f:
            return " | ".join(f.read().strip().split("\n")[-lines:])
    except OSError:
        return ""


_oracle = None


def _init(data, noise_scale, optuna):
    global _oracle
    _oracle = oraclemod.load(data, noise_scale)
    if optuna:  # once per worker, not in the first trace's wall time
        import optuna  # noqa: F401


def one_trace(job):
    """Runs one (strategy, budget, seed), writes its trace file, returns its
    summary (a dict)."""
    ctx, strategy, budget, seed = job
    oracle = _oracle
    stem = os.path.join(ctx["work"], "%s-b%d-s%d" % (strategy, budget, seed))
    ctx = dict(ctx, stem=stem)
    ev = Evaluator(oracle, seed)
    out = {"strategy": strategy, "budget": budget, "seed": seed, "error": None, "note": None}
    start = time.monotonic()
    try:
        note = RUNNERS[strategy](ctx, oracle, budget, seed, ev)
        out["note"] = note
    except StrategyError as e:
        out["error"] = str(e)
    except Exception as e:  # a peer's library failing is a result to show
        out["error"] = "%s: %s" % (type(e).__name__, e)
    out["wall"] = time.monotonic() - start
    if out["note"] and "refused" in out["note"]:
        out["refused"] = out["note"]["refused"]
    m = oraclemod.TraceMetrics(oracle, [(i, t, s) for i, _, t, s in ev.rows])
    out.update(evaluations=m.evaluations, final=m.final, to95=m.to95, to99=m.to99,
               missed=m.missed, repeats=m.repeats, distinct=len(ev.count), reach=m.reach,
               heaviest=m.heaviest)
    with open(stem + ".csv", "w") as f:
        f.write("# %s\n" % json.dumps(out, sort_keys=True))
        f.write("n,index,k,throughput,size,hv_ratio\n")
        for n, ((index, k, t, s), r) in enumerate(zip(ev.rows, m.ratio), start=1):
            f.write("%d,%d,%d,%r,%r,%r\n" % (n, index, k, t, s, r))
    return out


# Statistics for the table.

def quantile(xs, q):
    """The q-quantile of xs, linear between order statistics."""
    xs = sorted(xs)
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    if xs[lo] == xs[hi] or pos == lo:  # also inf == inf; inf * 0 would be NaN
        return xs[lo]
    if math.isinf(xs[hi]):
        return math.inf
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def fmt_int(x):
    return "%d" % round(x) if x == round(x) else "%.1f" % x


def mann_whitney_p(a, b):
    """Two-sided p-value of the Mann-Whitney U test, normal approximation
    with the tie correction."""
    pooled = sorted((v, g) for g, xs in ((0, a), (1, b)) for v in xs)
    ranks = {}
    j = 0
    n = len(pooled)
    ties = 0.0
    while j < n:
        k = j
        while k < n and pooled[k][0] == pooled[j][0]:
            k += 1
        ranks[pooled[j][0]] = (j + 1 + k) / 2.0
        t = k - j
        ties += t * t * t - t
        j = k
    n1, n2 = len(a), len(b)
    u = sum(ranks[v] for v in a) - n1 * (n1 + 1) / 2.0
    var = n1 * n2 / 12.0 * ((n1 + n2 + 1) - ties / ((n1 + n2) * (n1 + n2 - 1)))
    if var <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2.0) - 0.5) / math.sqrt(var)
    return max(0.0, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2))))


def ceiling(oracle, seeds):
    """Every configuration evaluated once: the HV ratio and misses per seed."""
    out = []
    for s in seeds:
        trace = [(i,) + oracle.measure(s, i, 0) for i in range(oracle.n)]
        means = [(t, z) for _, t, z in trace]
        found = oraclemod.nondominated(means)
        pts = [(oracle.throughput[i], oracle.size[i]) for i in found]
        have = set(pts)
        out.append((oraclemod.hypervolume(pts, oracle.ref) / oracle.front_hv,
                    sum(1 for p in oracle.front_points if p not in have)))
    return out


def usable(results, st, b):
    """The traces of strategy st at budget b that ran to their end (no
    error, not refused): the ones the tables count."""
    return [r for r in results if r["strategy"] == st and r["budget"] == b
            and not r["error"] and not r.get("refused")]


def table(results, budgets, strategies, pct):
    lines = ["| strategy | budget | evaluations | HV ratio, median (IQR) | evaluations to 95% (seeds) "
             "| evaluations to 99% (seeds) | true-front points missed, median (IQR) "
             "| repeats, median | distinct configurations, median "
             "| HV ratio reached (chosen by true values), median "
             "| heaviest true-front point measured (seeds) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for st in strategies:
        for b in budgets:
            rs = [r for r in results if r["strategy"] == st and r["budget"] == b]
            label = "%d (%s%%)" % (b, pct[b])
            ok = usable(results, st, b)
            if not rs:
                continue
            if not ok:
                why = rs[0].get("refused") or "failed: see below"
                lines.append("| %s | %s | %s | | | | | | | | |" % (st, label, why.replace("|", "\\|")))
                continue
            ev = [r["evaluations"] for r in ok]
            evs = fmt_int(statistics.median(ev)) if min(ev) == max(ev) else \
                "%s (%d-%d)" % (fmt_int(statistics.median(ev)), min(ev), max(ev))
            fin = [r["final"] for r in ok]
            cells = ["%.3f (%.3f-%.3f)" % (statistics.median(fin), quantile(fin, 0.25),
                                          quantile(fin, 0.75))]
            for key in ("to95", "to99"):
                xs = [r[key] if r[key] is not None else math.inf for r in ok]
                reached = sum(1 for x in xs if x != math.inf)
                med = quantile(xs, 0.5)
                cells.append("%s (%d/%d)" % ("not reached" if med == math.inf else fmt_int(med),
                                             reached, len(ok)))
            mi = [r["missed"] for r in ok]
            cells.append("%s (%s-%s)" % (fmt_int(statistics.median(mi)), fmt_int(quantile(mi, 0.25)),
                                         fmt_int(quantile(mi, 0.75))))
            cells.append(fmt_int(statistics.median([r["repeats"] for r in ok])))
            cells.append(fmt_int(statistics.median([r["distinct"] for r in ok])))
            cells.append("%.3f" % statistics.median([r["reach"] for r in ok]))
            cells.append("%d/%d" % (sum(1 for r in ok if r.get("heaviest")), len(ok)))
            bad = len(rs) - len(ok)
            name = st if not bad else "%s (%d of %d traces failed)" % (st, bad, len(rs))
            lines.append("| %s | %s | %s | %s |" % (name, label, evs, " | ".join(cells)))
    return lines


def median_gap(a, b, resamples=2000, seed=0):
    """median(b) - median(a), with a bootstrap 95% interval (each side
    resampled on its own: two strategies' noise draws are not paired)."""
    rng = random.Random(seed)
    gaps = sorted(statistics.median(rng.choices(b, k=len(b))) -
                  statistics.median(rng.choices(a, k=len(a))) for _ in range(resamples))
    return (statistics.median(b) - statistics.median(a),
            quantile(gaps, 0.025), quantile(gaps, 0.975))


def margins(results, budgets, strategies, pct):
    """Per budget, the best peer (by median HV ratio) against tuner's
    default, the racing surrogate: the gap of the medians with its 95%
    interval, and how many seeds of each ended at 99% or more. Empty
    unless both took part."""
    peers = [s for s in strategies if not s.startswith("tuner-")]
    ours = "tuner-surrogate-race"
    if not peers or ours not in strategies:
        return []

    def finals(st, b):
        return [r["final"] for r in usable(results, st, b)]
    lines = ["| budget | best peer, median | tuner surrogate, racing, median "
             "| gap (95% interval) | seeds at 99% or more (peer, tuner) |",
             "| --- | --- | --- | --- | --- |"]
    for b in budgets:
        t = finals(ours, b)
        got = [(statistics.median(f), st, f) for st in peers for f in (finals(st, b),) if len(f) > 1]
        if len(t) < 2 or not got:
            continue
        _, best, f = max(got, key=lambda g: g[0])
        gap, lo, hi = median_gap(f, t)
        lines.append("| %d (%s%%) | %s %.3f | %.3f | %+.3f (%+.3f to %+.3f) | %d/%d, %d/%d |"
                     % (b, pct[b], best, statistics.median(f), statistics.median(t), gap, lo, hi,
                        sum(1 for x in f if x >= 0.99), len(f), sum(1 for x in t if x >= 0.99), len(t)))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bench/search.sh", description=__doc__.split("\n\n")[0])
    ap.add_argument("tuner", nargs="?", default=os.path.join(ROOT, "build/release/tuner"),
                    help="the tuner binary (default: build/release/tuner)")
    ap.add_argument("--short", action="store_true",
                    help="one budget (10 percent), 3 seeds, strategies %s (make check)" % ", ".join(SHORT))
    ap.add_argument("--seeds", type=int, help="seeds 1..N (default 20)")
    ap.add_argument("--budgets", help="percentages of the space, comma-separated (default 5,10,25,50)")
    ap.add_argument("--strategies", help="comma-separated, of: " + ", ".join(STRATEGIES))
    ap.add_argument("--keep", metavar="DIR", help="write the traces to DIR and keep them")
    ap.add_argument("--data", help="the dataset's directory (default bench/search)")
    ap.add_argument("--noise-scale", type=float, default=1.0,
                    help="multiplies the noise's sigmas (0: noise-free; default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="traces run at once (default 2)")
    ap.add_argument("--study", default=os.path.join(ROOT, "spaces/search-oracle.yaml"),
                    help="the study tuner propose reads")
    args = ap.parse_args(argv)

    seeds = list(range(1, (args.seeds or (3 if args.short else 20)) + 1))
    try:
        pcts = [float(x) for x in args.budgets.split(",")] if args.budgets else \
            ([10] if args.short else BUDGETS)
    except ValueError:
        ap.error("--budgets: percentages, comma-separated")
    strategies = args.strategies.split(",") if args.strategies else (SHORT if args.short else STRATEGIES)
    for s in strategies:
        if s not in RUNNERS:
            ap.error("no strategy %r (%s)" % (s, ", ".join(STRATEGIES)))
    if any(not 0 < p <= 100 for p in pcts):
        ap.error("--budgets: percentages in (0, 100]")
    data = os.path.abspath(args.data or HERE)
    try:
        oracle = oraclemod.load(data, args.noise_scale)
    except oraclemod.DataError as e:
        print("bench: search: %s" % e, file=sys.stderr)
        return 2
    pct = {max(1, math.floor(p / 100.0 * oracle.n + 0.5)): "%g" % p for p in pcts}
    budgets = sorted(pct)
    tuner = os.path.abspath(args.tuner)
    if any(s.startswith("tuner-") for s in strategies):
        problem = check_tuner(tuner, args.study, oracle)
        if problem:
            print("bench: search: %s" % problem, file=sys.stderr)
            return 1
    versions = []
    if any(s.startswith("optuna-") for s in strategies):
        try:
            import optuna
        except ImportError as e:
            print("bench: search: Optuna's strategies need python3-optuna for %s (%s)" % (PY, e),
                  file=sys.stderr)
            return 1
        versions.append("Optuna %s" % optuna.__version__)
    if "irace" in strategies:
        try:
            p = subprocess.run(["Rscript", "-e", 'cat(format(packageVersion("irace")))'],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        except OSError as e:
            p = subprocess.CompletedProcess([], 1, str(e))
        if p.returncode != 0:
            print("bench: search: irace needs Rscript and r-cran-irace (%s)" % p.stdout.strip(),
                  file=sys.stderr)
            return 1
        versions.append("irace %s" % p.stdout.strip())

    if args.keep:
        work = os.path.abspath(args.keep)
        os.makedirs(work, exist_ok=True)
    else:
        work = tempfile.mkdtemp(prefix="tuner-bench-search.")
    ctx = {"tuner": tuner, "study": os.path.abspath(args.study), "data": data,
           "noise_scale": args.noise_scale, "work": work}
    # The longest first, so that the two workers end together.
    cost = {"optuna-tpe": 4, "irace": 3, "tuner-surrogate": 2, "tuner-surrogate-race": 2}
    jobs = sorted(((ctx, st, b, s) for st in strategies for b in budgets for s in seeds),
                  key=lambda j: -(j[2] * cost.get(j[1], 1)))

    for line in oraclemod.describe(oracle):
        print(line)
    print("strategies: %s%s; budgets: %s of %d configurations; seeds %d..%d; traces in %s%s"
          % (", ".join(strategies), " (%s)" % ", ".join(versions) if versions else "", ", ".join(str(b) for b in budgets), oracle.n,
             seeds[0], seeds[-1], work, "" if args.keep else " (removed at the end)"))
    sys.stdout.flush()
    start = time.monotonic()
    results = []
    with multiprocessing.get_context("fork").Pool(max(1, args.jobs), initializer=_init,
                                                  initargs=(data, args.noise_scale,
                                                            any(s.startswith("optuna-")
                                                                for s in strategies))) as pool:
        for r in pool.imap_unordered(one_trace, jobs):
            results.append(r)
    wall = time.monotonic() - start
    with open(os.path.join(work, "summary.json"), "w") as f:
        json.dump({"data": data, "noise_scale": args.noise_scale, "budgets": budgets,
                   "seeds": seeds, "strategies": strategies, "wall_seconds": wall,
                   "traces": sorted(results, key=lambda r: (r["strategy"], r["budget"], r["seed"]))},
                  f, indent=1, sort_keys=True)

    ceil = ceiling(oracle, seeds)
    print("ceiling: every configuration evaluated once (%d evaluations), over the seeds: "
          "HV ratio median %.3f, true-front points missed median %s"
          % (oracle.n, statistics.median([c[0] for c in ceil]),
             fmt_int(statistics.median([c[1] for c in ceil]))))
    print()
    for line in table(results, budgets, strategies, pct):
        print(line)
    print()
    lines = margins(results, budgets, strategies, pct)
    for line in lines:
        print(line)
    if lines:
        print()
    print("| strategy | traces | wall seconds, total | per trace, median |")
    print("| --- | --- | --- | --- |")
    for st in strategies:
        ws = [r["wall"] for r in results if r["strategy"] == st]
        print("| %s | %d | %.1f | %.2f |" % (st, len(ws), sum(ws), statistics.median(ws)))
    print()
    settings = {}
    for r in results:
        if r["note"] and "settings" in r["note"]:
            key = (r["strategy"], r["budget"], r["note"]["settings"].split(";")[0])
            settings[key] = settings.get(key, 0) + 1
    for (st, b, name), count in sorted(settings.items()):
        print("%s, budget %d: %s (%d seeds)" % (st, b, name, count))
    stopped = {}
    for r in results:
        if r["note"] and "stopped" in r["note"]:
            stopped.setdefault((r["strategy"], r["budget"]), []).append(r["note"]["stopped"])
    for (st, b), ns in sorted(stopped.items()):
        print("%s, budget %d: done before its budget in %d of %d seeds (after %s evaluations)"
              % (st, b, len(ns), len(seeds), ", ".join(str(n) for n in sorted(ns))))
    if "tuner-random" in strategies and "random" in strategies:
        for b in budgets:
            a = [r["final"] for r in results if r["strategy"] == "random" and r["budget"] == b]
            t = [r["final"] for r in results if r["strategy"] == "tuner-random" and r["budget"] == b
                 and not r["error"]]
            if len(a) > 1 and len(t) > 1:
                print("plumbing: tuner-random against random, budget %d: final HV ratio median %.3f "
                      "against %.3f, Mann-Whitney p = %.2f" % (b, statistics.median(t),
                                                               statistics.median(a),
                                                               mann_whitney_p(t, a)))
    errors = [r for r in results if r["error"]]
    for r in sorted(errors, key=lambda r: (r["strategy"], r["budget"], r["seed"])):
        print("error: %s, budget %d, seed %d: %s" % (r["strategy"], r["budget"], r["seed"], r["error"]))
    print("search: %d traces in %.0f s on %d workers%s" % (len(results), wall, args.jobs,
                                                         ", %d failed" % len(errors) if errors else ""))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if errors else 0


def check_tuner(tuner, study, oracle):
    """Why tuner's strategies cannot run (None: they can): no binary, no
    propose command, or a study whose space is not the dataset's."""
    if not os.access(tuner, os.X_OK):
        return "%s: not an executable (build it: make)" % tuner
    p = subprocess.run([tuner, "propose", "--help"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return "%s propose --help: exit %d: %s" % (tuner, p.returncode, p.stdout.strip()[:300])
    try:
        import yaml
        with open(study) as f:
            space = yaml.safe_load(f)["space"]
        got = [(name, ["" if v is None else str(v) for v in vals]) for name, vals in space.items()]
    except (OSError, KeyError, TypeError, ImportError) as e:
        return "%s: cannot read its space (%s)" % (study, e)
    if got != oracle.dims:
        return "%s: its space %r is not the dataset's %r" % (study, got, oracle.dims)
    return None


if __name__ == "__main__":
    sys.exit(main())
