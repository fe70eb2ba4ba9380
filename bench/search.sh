#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Search strategies against an oracle (bench/search/README.md): one
# enumerable space of natbench (1,152 configurations, every one measured once:
# bench/search/oracle.csv), each strategy (random, exhaustive, Optuna's
# NSGA-II and TPE, irace, tuner's own through `tuner propose`) searching it
# through the same seeded noisy evaluator at budgets of 5, 10, 25 and 50% of
# the space, 20 seeds each; prints what the data is, then per strategy and
# budget the hypervolume ratio of what it found, the evaluations it took to
# reach 95% and 99%, the true-front points it missed, and its wall time.
# Throughput is MODELLED (the A9 model of tuner's uarch plugin).
# Usage: bench/search.sh [TUNER] [--short] [--seeds N] [--budgets 5,10]
#          [--strategies a,b] [--keep DIR] [--jobs N]   (--help: every option)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Debian's Python: python3-optuna and python3-numpy are its packages.
exec /usr/bin/python3 -B "$root/bench/search/harness.py" "$@"
