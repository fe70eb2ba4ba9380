#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The large-space comparison (bench/search/README.md, "The large space"):
# tuner's surrogate, nsga2 and random search and Optuna's multi-objective
# TPE (also with -O2 enqueued first) on every optimisation switch of
# arm-linux-gnueabihf-gcc 12 at -O2 (spaces/search-gcc.yaml, about 1.5e56
# configurations), each evaluation a real build of natbench scored on the
# A9 model (MODELLED). Hours: about
# 10 s per evaluation on 2 cores, so the defaults (150 evaluations x 5 seeds
# x 5 strategies) take more than a day; not part of `make bench`. Runs go to
# results/search-gcc-bench/ and are resumed from their journals.
# Usage: bench/search/gcc.sh [TUNER] [--budget N] [--seeds N]
#          [--strategies a,b] [--jobs N] [--out DIR] [--summary]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exec /usr/bin/python3 -B "$root/bench/search/gcc.py" "$@"
