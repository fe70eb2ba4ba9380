#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tuner watch against known truth, fed as CI would: the 30-commit natbench
# history of bench/bisect.sh (tests/e2e/bisect_history.sh: commit 19 makes
# every packet 3% slower, most others only add unused code or edit
# comments, each a new layout; the noisy target measures with 0.5% run
# noise and layout offsets N(0, 2%) keyed by the artifact). A branch "ci"
# starts at commit 0; the first call sets the baseline; then the branch
# moves STEP commits at a time (default 3) and `tuner watch --once` runs
# after each move, 10 calls in all. Over SEEDS noise seeds (default 20):
# how often the real commit was named, how many notifications named
# another commit or came from a layout-only stretch, and the delay between
# the bad commit's arrival and its notification, in calls.
#
# Usage: bench/watch.sh [TUNER]   (WATCH_SEEDS=N, WATCH_STEP=K)
set -euo pipefail
tuner=$(readlink -f "${1:-build/release/tuner}")
root=$(cd "$(dirname "$0")/.." && pwd)
seeds=${WATCH_SEEDS:-20}
step=${WATCH_STEP:-3}
. "$root/bench/lib/noisy.sh" watch
ROOT=$root
. "$root/tests/e2e/bisect_history.sh"
bisect_history "$work/h" 19
mapfile -t commits < <(git -C "$work/h" rev-list --reverse good..bad)
pos=19

named=0 wrong=0 missed=0 false_alarm=0 delays="" unresolved=0 runs_total=0 start=$(date +%s)
echo "watch: $seeds seeds, 30 commits fed $step at a time, the regression (-3%) at commit $pos ($(git -C "$work/h" rev-parse --short=12 "$culprit"))"
printf '  %-5s %-7s %-14s %-7s %s\n' seed calls named delay "other results"
for i in $(seq 1 "$seeds"); do
	seed=$((2000 + i))
	bisect_study "$work/s.yaml" "$work/h" "$work/noisy" "$seed"
	rm -rf "$work/r"
	git -C "$work/h" branch -f ci good
	"$tuner" watch -q "$work/s.yaml" --branch ci --once --results "$work/r" >/dev/null
	calls=0 got="" delay="-" other=""
	arrived=0
	for k in $(seq "$step" "$step" 30); do
		git -C "$work/h" branch -f ci "${commits[$((k - 1))]}"
		calls=$((calls + 1))
		[ "$k" -ge "$pos" ] && [ "$arrived" = 0 ] && arrived=$calls
		set +e
		"$tuner" watch -q "$work/s.yaml" --branch ci --once --format json --results "$work/r" >"$work/out" 2>"$work/err"
		rc=$?
		set -e
		result=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["result"], (d.get("first_bad") or {}).get("commit", "-"))' "$work/out" 2>/dev/null || echo "error -")
		read -r res commit <<<"$result"
		case $res in
		regression)
			[ "$rc" -eq 4 ] || { echo "watch: a regression with exit $rc, want 4" >&2; exit 1; }
			if [ "$commit" = "$culprit" ]; then
				got=$commit
				delay=$((calls - arrived))
			else
				wrong=$((wrong + 1))
				other="$other wrong:${commit:0:8}@$calls"
			fi
			;;
		improvement)
			false_alarm=$((false_alarm + 1))
			other="$other improvement:${commit:0:8}@$calls"
			;;
		unresolved | unconfirmed)
			unresolved=$((unresolved + 1))
			other="$other $res@$calls"
			;;
		"no" | "nothing") ;;
		*)
			echo "watch: call $calls failed (exit $rc): $(tail -n 3 "$work/err")" >&2
			exit 1
			;;
		esac
	done
	runs=$(cat "$work"/r/bisect-*/journal.jsonl 2>/dev/null | grep -c '"type":"measure"' || true)
	runs_total=$((runs_total + runs))
	if [ -n "$got" ]; then
		named=$((named + 1))
		delays="$delays $delay"
	else
		missed=$((missed + 1))
	fi
	printf '  %-5s %-7s %-14s %-7s %s\n' "$seed" "$calls" "${got:0:12}" "$delay" "${other:--}"
done
echo "watch: named the real commit in $named/$seeds (missed $missed); notifications naming another commit: $wrong; improvements named (false): $false_alarm; unresolved or unconfirmed checks (not notified): $unresolved; delay in calls after the bad commit arrived:${delays:- none}; $((runs_total / seeds)) measurement runs per seed; $(( $(date +%s) - start ))s"
if [ "$named" -ne "$seeds" ] || [ "$wrong" -ne 0 ] || [ "$false_alarm" -ne 0 ]; then
	echo "bench: watch: FAILED (target: $seeds/$seeds named, no other notification)"
	exit 1
fi
echo "bench: watch: ok"
