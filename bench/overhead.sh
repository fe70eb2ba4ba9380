#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tuner's own CPU time per evaluation on a 1,000-configuration study whose
# build and measure commands are instant (shell builtins): what the tuner
# itself costs (planning, spawning, journal, bookkeeping), not the builds.
# Target: < 2 ms per evaluation. Usage: bench/overhead.sh [TUNER]
set -euo pipefail
tuner=$(readlink -f "${1:-build/release/tuner}")
work=$(mktemp -d /tmp/tuner-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

export GIT_CONFIG_NOSYSTEM=1 HOME=$work GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b.invalid \
	GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b.invalid
mkdir -p "$work/repo/src"
echo 'int main(void) { return 0; }' >"$work/repo/src/main.c"
vals='["", -fa, -fb, -fc, -fd, -fe, -ff, -fg, -fh, -fi]'
cat >"$work/repo/bench.yaml" <<EOF
study: bench
source: {path: src}
space:
  a: $vals
  b: ${vals//-f/-g}
  c: ${vals//-f/-h}
build: {command: ': > "\$TUNER_OUT/a"', artifact: a}
size: {of: artifact, measure: file}
measure: {command: 'echo 42', parser: number}
objectives:
  - {name: speed, goal: max}
  - {name: size, goal: min}
EOF
git -C "$work/repo" init -q && git -C "$work/repo" add -A && git -C "$work/repo" commit -q -m bench

run() {
	"$tuner" run -q --stats --results "$work/res" "$work/repo/bench.yaml" 2>&1 >/dev/null | grep 'stats:'
}
echo "cold run (1,000 builds + 1,000 measurements):"
cold=$(run)
echo "  $cold"
echo "warm rerun (everything from the journal):"
echo "  $(run)"
ms=$(echo "$cold" | sed -nE 's/.* ([0-9.]+) ms per evaluation.*/\1/p')
target=2
[ -n "$ms" ] || { echo "bench: no figure (tuner failed?)"; exit 1; }
if awk -v m="$ms" -v t=$target 'BEGIN { exit !(m < t) }'; then
	echo "bench: ${ms} ms of tuner CPU per evaluation (target < ${target} ms): ok"
else
	echo "bench: ${ms} ms of tuner CPU per evaluation (target < ${target} ms): OVER TARGET"
	exit 1
fi
