#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The libFuzzer targets of tests/fuzz, built by `make fuzz-build` in
# build/fuzz:
#   scripts/fuzz.sh run SECONDS TARGET...     fuzz each for SECONDS
#   scripts/fuzz.sh replay 0 TARGET...        run each seed and each kept
#                                             crash input once (make check)
# Inputs: tests/fuzz/seeds/TARGET (hand-made seeds; for fuzz_study also the
# bundled studies and the test fixtures), tests/fuzz/regress/TARGET (inputs
# that once crashed a target: kept so the fix stays), and the growing
# corpus build/fuzz/corpus/TARGET (not committed). A crash leaves its input
# in build/fuzz/crashes/ and the run fails.
# make-deps: deps (the studies it names are fuzz inputs, never run)
set -u
cd "$(dirname "$0")/.."
mode=$1
seconds=$2
shift 2

inputs() {
	local t=$1
	ls -d tests/fuzz/seeds/"$t"/* tests/fuzz/regress/"$t"/* 2>/dev/null
	if [ "$t" = fuzz_study ]; then
		ls spaces/*.yaml tests/fixtures/*.yaml tests/fixtures/bad/*.yaml 2>/dev/null
	fi
}

pass=0
fail=0
for t in "$@"; do
	bin=build/fuzz/$t
	dict=()
	[ -f tests/fuzz/"$t".dict ] && dict=(-dict=tests/fuzz/"$t".dict)
	if [ "$mode" = replay ]; then
		mapfile -t files < <(inputs "$t")
		if "$bin" -runs=1 "${files[@]}" >build/fuzz/"$t".replay.log 2>&1; then
			echo "ok: $t (${#files[@]} inputs)"
			pass=$((pass + 1))
		else
			echo "FAIL: $t, see build/fuzz/$t.replay.log:"
			grep -E 'ERROR|SUMMARY|Running:' build/fuzz/"$t".replay.log | tail -n 5
			fail=$((fail + 1))
		fi
		continue
	fi
	corpus=build/fuzz/corpus/$t
	mkdir -p "$corpus" build/fuzz/crashes
	seeds=$(mktemp -d)
	inputs "$t" | while read -r f; do cp "$f" "$seeds/"; done
	echo "== $t: $seconds s"
	if "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-close_fd_mask=2 -print_final_stats=1 "${dict[@]}" \
		-artifact_prefix=build/fuzz/crashes/"$t"- "$corpus" "$seeds" \
		>build/fuzz/"$t".log 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $t found a crash, see build/fuzz/$t.log and build/fuzz/crashes/"
	fi
	grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE|^Done' build/fuzz/"$t".log | tail -n 2
	rm -rf "$seeds"
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
