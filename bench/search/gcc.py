# SPDX-License-Identifier: GPL-2.0-or-later
"""The large-space comparison (bench/search/gcc.sh; bench/search/README.md):
tuner's strategies, random search and Optuna's multi-objective TPE on the
space of every optimisation switch of arm-linux-gnueabihf-gcc 12 at -O2
(spaces/search-gcc.yaml, about 1.5e56 configurations), each evaluation a
real build of natbench scored on the A9 model (MODELLED throughput,
fast-path bytes), at one budget and several seeds; then per strategy the
hypervolume of the front it measured (in a box common to every run), the
best throughput and the smallest size it found, and what the surrogate's
model says matters.

Every run builds one pinned commit (the HEAD when the bench started), in its
own results directory, so a run that is there already is taken from its
journal: the bench resumes. Optuna goes through tuner too: each batch of
its proposals becomes the values of one dimension of a generated study that
`tuner run` builds and measures (the journal answers the earlier ones); a
configuration Optuna proposes again costs an evaluation and is told its
earlier measurement."""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import oracle as oraclemod  # noqa: E402  (its exact hypervolume)

STUDY = os.path.join(ROOT, "spaces", "search-gcc.yaml")
STRATEGIES = ["tuner-surrogate", "tuner-nsga2", "tuner-random", "optuna-tpe", "optuna-tpe-base"]


def pinned_study(text, rev, space=None):
    """The study's text with its source at an absolute path and a fixed
    commit; with space (a list of flag strings), that as its one
    dimension and no search section."""
    text = re.sub(r"^source: \{repo: \.\.,", "source: {repo: %s," % ROOT, text, flags=re.M)
    text = re.sub(r"rev: HEAD", "rev: %s" % rev, text)
    if space is not None:
        lines, out, skipping = text.split("\n"), [], False
        for line in lines:
            if re.match(r"^(space|search):", line):
                skipping = True
                if line.startswith("space:"):
                    out.append("space:")
                    out.append("  flags:")
                    out.extend("    - %s" % json.dumps(f) for f in space)
                continue
            if skipping and (line.startswith(" ") or line.startswith("#") or not line):
                continue
            skipping = False
            out.append(line)
        text = "\n".join(out)
    return text


def dims_of(text):
    """The study's dimensions: [(name, [values])], in order."""
    import yaml
    doc = yaml.safe_load(text)
    return [(k, ["" if v is None else str(v) for v in vals]) for k, vals in doc["space"].items()]


def read_results(path):
    """results.csv as (flags value of dim col, throughput, size, ok) rows."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            ok = r["status"] == "ok"
            rows.append((r, float(r["throughput"]) if ok else None,
                         float(r["size"]) if ok else None, ok))
    return rows


def tuner(cmd, out):
    """Runs tuner; exit 3 (some builds failed: the assembler refuses some
    combinations of switches) is a result like any other."""
    with open(out + ".stderr", "a") as err:
        rc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err).returncode
    if rc not in (0, 3):
        sys.exit("%s failed with status %d (see %s.stderr)" % (" ".join(cmd), rc, out))


def run_tuner(args, strategy, seed, study_path, out):
    cmd = [args.tuner, "run", "-q", "-j", str(args.jobs), "--strategy", strategy,
           "--budget", str(args.budget), "--seed", str(seed), "--results", out, study_path]
    tuner(cmd, out)


def run_optuna(args, text, seed, rev, out, base=False):
    import warnings
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
    dims = dims_of(text)
    study = optuna.create_study(directions=["maximize", "minimize"],
                                sampler=optuna.samplers.TPESampler(seed=seed, multivariate=True))
    if base:
        # What an Optuna user would do first: the compiler's own -O2 (every
        # dimension's first value), as tuner's surrogate measures first.
        study.enqueue_trial({name: 0 for name, _ in dims})
    flags, told, evals = [], {}, 0
    path = out + ".yaml"
    os.makedirs(out, exist_ok=True)
    while evals < args.budget:
        batch = []
        for _ in range(min(args.jobs, args.budget - evals)):
            trial = study.ask()
            pick = [trial.suggest_categorical(name, list(range(len(vals)))) for name, vals in dims]
            f = " ".join(vals[i] for (_, vals), i in zip(dims, pick) if vals[i])
            batch.append((trial, f))
            if f not in flags:
                flags.append(f)
        evals += len(batch)
        with open(path, "w") as fh:
            fh.write(pinned_study(text, rev, flags))
        tuner([args.tuner, "run", "-q", "-j", str(args.jobs), "--results", out, path], out)
        for r, t, s, ok in read_results(os.path.join(out, "results.csv")):
            told[r["dim:flags"]] = (t, s) if ok else None
        for trial, f in batch:
            v = told.get(f)
            if v is None:
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
            else:
                study.tell(trial, list(v))


def points(out):
    """The run's measured (throughput, size) of every configuration that
    built and measured, and how many failed."""
    pts, failed = [], 0
    for r, t, s, ok in read_results(os.path.join(out, "results.csv")):
        if ok:
            pts.append((t, s))
        else:
            failed += 1
    return pts, failed


def hv(pts, ref):
    """Hypervolume of pts (throughput max, size min) in the box up to ref
    (lowest throughput, largest size)."""
    return oraclemod.hypervolume(pts, ref)


def what_matters(out):
    notes = []
    try:
        with open(out + ".stderr") as f:
            for line in f:
                if "what matters to" in line:
                    notes.append(line.strip().replace("tuner: note: ", ""))
    except OSError:
        pass
    return list(dict.fromkeys(notes))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tuner", nargs="?", default=os.path.join(ROOT, "build", "release", "tuner"))
    ap.add_argument("--budget", type=int, default=150, help="evaluations per run (150)")
    ap.add_argument("--seeds", type=int, default=5, help="seeds per strategy (5)")
    ap.add_argument("--strategies", default=",".join(STRATEGIES),
                    help="comma-separated, of: " + ", ".join(STRATEGIES))
    ap.add_argument("--jobs", type=int, default=2, help="parallel builds per run (2)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "search-gcc-bench"),
                    help="where the runs go (results/search-gcc-bench); a run there is resumed")
    ap.add_argument("--summary", action="store_true", help="only summarize the runs there")
    args = ap.parse_args()
    args.tuner = os.path.abspath(args.tuner)
    strategies = args.strategies.split(",")
    for s in strategies:
        if s not in STRATEGIES:
            ap.error("unknown strategy %r" % s)
    os.makedirs(args.out, exist_ok=True)
    text = open(STUDY).read()
    revfile = os.path.join(args.out, "rev")
    if os.path.exists(revfile):
        rev = open(revfile).read().strip()
    else:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], check=True,
                             capture_output=True, text=True).stdout.strip()
        with open(revfile, "w") as f:
            f.write(rev + "\n")
    pinned = os.path.join(args.out, "search-gcc.yaml")
    with open(pinned, "w") as f:
        f.write(pinned_study(text, rev))
    runs = {}
    for seed in range(1, args.seeds + 1):
        for s in strategies:
            out = os.path.join(args.out, "%s-b%d-s%d" % (s, args.budget, seed))
            runs[(s, seed)] = out
            if args.summary:
                continue
            if os.path.exists(out + ".done"):
                # A rerun with more seeds keeps the runs that finished.
                print("%s seed %d: done before" % (s, seed), file=sys.stderr, flush=True)
                continue
            t0 = time.time()
            print("%s seed %d ..." % (s, seed), end=" ", file=sys.stderr, flush=True)
            if s.startswith("optuna-tpe"):
                run_optuna(args, text, seed, rev, out, base=s == "optuna-tpe-base")
            else:
                run_tuner(args, s[len("tuner-"):], seed, pinned, out)
            with open(out + ".done", "w") as f:
                f.write("%.0f s\n" % (time.time() - t0))
            print("%.0f s" % (time.time() - t0), file=sys.stderr, flush=True)
    # The common box: the lowest throughput and the largest size any run
    # measured.
    # Only the runs that finished (a run under way has results.csv too).
    have = {k: points(v) for k, v in runs.items() if os.path.exists(v + ".done")}
    allpts = [p for pts, _ in have.values() for p in pts]
    if not allpts:
        sys.exit("no run has results in %s" % args.out)
    ref = (min(t for t, _ in allpts), max(s for _, s in allpts))
    print("Large space: spaces/search-gcc.yaml (arm-linux-gnueabihf-gcc 12 switches at -O2, "
          "about 1.5e56 configurations), natbench on the A9 model (MODELLED); commit %.12s; "
          "budget %d evaluations, jobs %d." % (rev, args.budget, args.jobs))
    print("Hypervolume of each run's measured front in the common box (lowest throughput "
          "%.1f Mbit/s, largest size %.0f bytes, over every run), in units of 1e6.\n"
          % (ref[0], ref[1]))
    print("| strategy | runs | HV median (min-max) | best throughput median (max) | "
          "smallest size median (min) | failed (build or measurement) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for s in strategies:
        rs = [have[(s, seed)] for seed in range(1, args.seeds + 1) if (s, seed) in have]
        if not rs:
            continue
        hvs = [hv(p, ref) / 1e6 for p, _ in rs]
        best = [max(t for t, _ in p) for p, _ in rs if p]
        small = [min(z for _, z in p) for p, _ in rs if p]
        print("| %s | %d | %.2f (%.2f-%.2f) | %.1f (%.1f) | %.0f (%.0f) | %d |"
              % (s, len(rs), statistics.median(hvs), min(hvs), max(hvs),
                 statistics.median(best), max(best), statistics.median(small), min(small),
                 sum(f for _, f in rs)))
    for seed in range(1, args.seeds + 1):
        out = runs.get(("tuner-surrogate", seed))
        for n in what_matters(out) if out else []:
            print("\nseed %d: %s" % (seed, n))


if __name__ == "__main__":
    main()
