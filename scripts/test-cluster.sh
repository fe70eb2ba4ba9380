#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make test-cluster`: tuner's Slurm executor on a real Slurm (Debian's
# slurmctld, slurmd and munge, controller and one node on this machine:
# scripts/slurm-local.sh, started and stopped by the test), then the
# kernel through distccd. `make test-cluster` installs what they need
# first (make deps-cluster: scripts/install-cluster-deps.sh and the
# kernel's, scripts/install-kernel-deps.sh); run directly, this script
# installs nothing. Needs root. Prints each test's output (the figures)
# and exits 0 when every check passed.
#
#   scripts/test-cluster.sh [TUNER_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tuner=$(readlink -f "${1:-build/release/tuner}")
[ "$(id -u)" = 0 ] || { echo "test-cluster: needs root (slurmd runs the jobs)" >&2; exit 1; }
failed=0
for t in tests/cluster/t_*.sh; do
	name=$(basename "$t" .sh)
	scratch=$(mktemp -d "/tmp/tuner-cluster-$name.XXXXXX")
	start=$(date +%s)
	if TUNER="$tuner" ROOT="$root" TMPDIR="$scratch" bash "$t" 2>&1 | sed 's/^/    /'; then
		echo "ok   $name ($(( $(date +%s) - start ))s)"
	else
		echo "FAIL $name ($(( $(date +%s) - start ))s)"
		failed=$((failed + 1))
	fi
	[ "${KEEP:-0}" = 1 ] || rm -rf "$scratch"
done
[ $failed -eq 0 ]
