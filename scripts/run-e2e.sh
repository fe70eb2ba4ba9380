#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the end-to-end tests tests/e2e/t_*.sh against a tuner binary.
# Each test is a bash script that gets TUNER (absolute path of the binary),
# ROOT (the repository) and TMPDIR (its own scratch directory, removed after)
# and passes by exiting 0. Prints "e2e: N passed, M failed".
set -u
tuner=$(readlink -f "$1")
shift
root=$(cd "$(dirname "$0")/.." && pwd)
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("$root"/tests/e2e/t_*.sh)
passed=0
failed=0
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	scratch=$(mktemp -d "/tmp/tuner-e2e-$name.XXXXXX")
	start=$(date +%s)
	if TUNER="$tuner" ROOT="$root" TMPDIR="$scratch" bash "$t" >"$scratch.log" 2>&1; then
		echo "ok   $name ($(( $(date +%s) - start ))s)"
		passed=$((passed + 1))
	else
		echo "FAIL $name ($(( $(date +%s) - start ))s)"
		sed 's/^/    /' "$scratch.log" | tail -n 40
		failed=$((failed + 1))
	fi
	rm -rf "$scratch" "$scratch.log"
done
echo "e2e: $passed passed, $failed failed"
[ $failed -eq 0 ]
