#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs unit test binaries; prints "unit: N passed, M failed" and exits 1 on
# any failure. cmocka's exit code is the number of failed tests.
passed=0
failed=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	run=$(printf '%s\n' "$out" | sed -n 's/^\[==========\] \([0-9]*\) test(s) run\./\1/p' | tail -n 1)
	[ -n "$run" ] || run=0
	if [ $rc -ne 0 ]; then
		nf=$rc
		[ "$run" -ge "$nf" ] 2>/dev/null || run=$nf
		[ "$run" -gt 0 ] || { run=1; nf=1; }
		failed=$((failed + nf))
		passed=$((passed + run - nf))
		echo "FAILED: $t (exit $rc)"
	else
		passed=$((passed + run))
	fi
done
echo "unit: $passed passed, $failed failed"
[ $failed -eq 0 ]
