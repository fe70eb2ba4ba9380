#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make test-cluster`: tuner's Slurm executor on a real Slurm (Debian's
# slurmctld, slurmd and munge, controller and one node on this machine:
# scripts/slurm-local.sh, started and stopped by the test). Installs the
# packages when missing. Needs root. Prints each test's output (the
# figures) and exits 0 when every check passed.
#
#   scripts/test-cluster.sh [TUNER_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tuner=$(readlink -f "${1:-build/release/tuner}")
pkgs="slurmctld slurmd slurm-client munge distcc"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "tuner: installing missing Debian packages:$missing" >&2
	. scripts/sudo.sh
	[ "$SUDO" != need-root ] || { echo "tuner: need root (or sudo) to install:$missing" >&2; exit 1; }
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -qq
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
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
