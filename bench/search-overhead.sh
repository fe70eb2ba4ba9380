#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The search strategies' own CPU time per proposal over 1,000 evaluations
# (`tuner propose` answered at once by a synthetic evaluator, so the time is
# the strategy's: fitting, candidates, acquisition), on two spaces:
#   oracle   spaces/search-oracle.yaml, 1,152 configurations (the
#            surrogate scores every configuration not yet tried)
#   2^30     30 on/off flags (the surrogate scores a pool: 3,000 random
#            configurations, every one-flag change of the front, 1,000
#            mutants of the front)
# Each learner runs twice: without racing and with it (--race, as `tuner
# run` does by default), which adds the racing rule's own work.
# Usage: bench/search-overhead.sh [TUNER] (default build/release/tuner).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tuner=$(readlink -f "${1:-$root/build/release/tuner}")
work=$(mktemp -d /tmp/tuner-searchbench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# 30 flags; the evaluator's truth: every 5th flag speeds up and grows.
{
	echo "study: wide"
	echo "source: {path: .}"
	echo "space:"
	for i in $(seq 0 29); do echo "  f$i: [\"\", -ff$i]"; done
	cat <<'YAML'
build: {command: 'true', artifact: a}
measure: {command: 'true', parser: number}
objectives:
  - {name: speed, goal: max}
  - {name: bytes, goal: min}
YAML
} >"$work/wide.yaml"

cat >"$work/eval.py" <<'PY'
import sys, math
for line in sys.stdin:
    line = line.strip()
    if line == "done":
        break
    pick = [int(x) for x in line.split("\t")[0].split(",")]
    s = sum(v * (1 + i % 3) for i, v in enumerate(pick))
    fast = sum(v for i, v in enumerate(pick) if i % 5 == 0)
    print(f"{500 + 10 * fast + math.sin(s):.6f} {1000 + 3 * s + 40 * fast}", flush=True)
PY

printf '| space | strategy | proposals | tuner CPU s | ms per proposal |\n| --- | --- | --- | --- | --- |\n'
for space in oracle wide; do
	study=$root/spaces/search-oracle.yaml
	[ "$space" = wide ] && study=$work/wide.yaml
	for strat in random nsga2 surrogate "nsga2 --race" "surrogate --race"; do
		rm -f "$work/fifo.in" "$work/fifo.out"
		mkfifo "$work/fifo.in" "$work/fifo.out"
		/usr/bin/python3 "$work/eval.py" <"$work/fifo.out" >"$work/fifo.in" &
		ev=$!
		( cd "$work" && /usr/bin/time -f "%U %S" -o "$work/time" \
			"$tuner" propose -q -s $strat --budget 1000 --seed 1 "$study" \
			>"$work/fifo.out" <"$work/fifo.in" )
		wait "$ev"
		read -r u s <"$work/time"
		n=1000
		awk -v sp="$space" -v st="$strat" -v u="$u" -v s="$s" -v n="$n" \
			'BEGIN { printf "| %s | %s | %d | %.2f | %.3f |\n", sp, st, n, u + s, (u + s) * 1000 / n }'
	done
done
