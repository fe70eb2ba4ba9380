#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole test suite (what `make test` and .ci/run run): the layout
# check (HACKING.md's tree against the files), unit tests plain
# and under ASan+UBSan, the threaded modules under TSan, the fuzz targets'
# seeds and regressions, end-to-end tests on
# the release binary and again on the ASan+UBSan binary (but for the three
# target-heavy ones, below). Ends with one line "tests: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
total_p=0
total_f=0
status=0

step() {
	local name=$1
	shift
	echo "== $name"
	local log
	log=$(mktemp)
	"$@" 2>&1 | tee "$log"
	local rc=${PIPESTATUS[0]}
	local line
	line=$(grep -E '^[a-z()0-9-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		local p f
		p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
		total_p=$((total_p + p))
		total_f=$((total_f + f))
	fi
	if [ "$rc" -ne 0 ]; then
		status=1
		[ -n "$line" ] && [ "$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')" -gt 0 ] || total_f=$((total_f + 1))
	fi
	rm -f "$log"
}

# HACKING.md's tree is the one copy of the layout: every file under tuner/
# and include/ in it, nothing in it that does not exist.
step "layout (HACKING.md tree)" scripts/check-tree.py
step "build + unit (release)" make -s -j"$jobs" VARIANT=release all unit
# The layering and the sizes (HACKING.md, "Checking the structure"),
# from the release objects just built.
step "structure (deps.py, sizes.py)" sh -c 'scripts/deps.py --strict --list && scripts/sizes.py --strict'
step "unit (ASan+UBSan)" env ASAN_OPTIONS=detect_leaks=1 make -s -j"$jobs" VARIANT=asan unit
step "threaded modules (TSan)" make -s -j"$jobs" tsan
# The libFuzzer targets (clang) on their seeds and on every input that
# once crashed one (tests/fuzz/regress): fuzzing itself is make fuzz.
step "fuzz targets (seeds, regressions)" make -s -j"$jobs" fuzz-replay
step "end to end" make -s VARIANT=release e2e
# Under ASan+UBSan, every end-to-end test but the three whose time goes
# into building and scoring the bundled targets (their tuner code, the
# cachegrind and uarch parsers, is also unit-tested under ASan above):
# they take about 4 of the suite's minutes there and find nothing the
# others do not. Nor the long bisect, blame and layout scripts (about 3
# minutes there): t_formats runs bisect and blame under ASan on a short
# history, and the layout analysis is unit-tested under ASan. Nor t_space
# (its time is gcc's; the listing reader is unit-tested under ASan) and
# t_search_bench (Python's; t_search runs tuner propose under ASan).
asan_e2e=$(ls tests/e2e/t_*.sh | grep -v -e t_natbench.sh -e t_natbench_cross.sh -e t_router_models.sh \
	-e t_bisect.sh -e t_blame.sh -e t_layout.sh -e t_space.sh -e t_search_bench.sh)
# shellcheck disable=SC2086
step "end to end (ASan+UBSan binary)" make -s -j"$jobs" VARIANT=asan e2e E2E_TESTS="$(echo $asan_e2e)"

echo "tests: $total_p passed, $total_f failed"
exit $status
