# SPDX-License-Identifier: GPL-2.0-or-later
# Spaces of 2^64 and 2^70 configurations (64 and 70 binary dimensions):
# check counts them exactly and answers at once; a random search with a
# small budget plans at once and varies every dimension (a 64-bit index
# would leave the first six of 70 alone); the whole of such a space is
# refused, not listed; SIGINT or SIGTERM stop a run with exit 130.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"

# huge_study FILE NAME NDIMS SEARCH: NDIMS dimensions d<i>: ["", -DF<i>],
# built by a shell line that writes the flags (slowly while $TMPDIR/slow
# exists, saying so in $TMPDIR/started.*), the size of that file the one
# objective.
huge_study() {
	local file=$1 name=$2 ndims=$3 search=$4 i
	{
		echo "study: $name"
		echo "space:"
		for i in $(seq 1 "$ndims"); do
			echo "  d$i: [\"\", -DF$i]"
		done
		cat <<EOF2
build:
  command: |
    if [ -e "$TMPDIR/slow" ]; then touch "$TMPDIR/started.\$TUNER_CONFIG_ID"; sleep 60; fi
    printf '%s\n' "\$TUNER_FLAGS" >prog
  artifact: prog
size: {of: artifact, measure: file}
objectives:
  - {name: size, goal: min}
search: $search
EOF2
	} >"$file"
}

huge_study "$repo/h64.yaml" h64 64 "{strategy: random, budget: 20, seed: 3}"
huge_study "$repo/h70.yaml" h70 70 "{strategy: random, budget: 30, seed: 3}"
huge_study "$repo/x64.yaml" x64 64 "{strategy: exhaustive}"
huge_study "$repo/r70.yaml" r70 70 "{strategy: random}"
git -C "$repo" add -A && git -C "$repo" commit -q -m huge
cd "$repo"

# secs CMD...: runs CMD with a 60 s guard against a hang; its exit code in
# $rc, its wall time in $secs.
secs() {
	local t0 t1
	t0=$(date +%s%N)
	set +e
	timeout -s KILL 60 "$@"
	rc=$?
	set -e
	t1=$(date +%s%N)
	secs=$(((t1 - t0) / 1000000))ms
	[ $rc -ne 137 ] || fail "$*: still running after 60 s"
}

# The count, exact.
secs "$TUNER" check h64.yaml >"$TMPDIR/c64" 2>&1
[ $rc -eq 0 ] || fail "check h64: exit $rc: $(cat "$TMPDIR/c64")"
grep -q '^space: 64 dimensions, 18446744073709551616 configurations (about 1.8e19), budget 20 (random)$' "$TMPDIR/c64" ||
	fail "check h64: $(grep '^space' "$TMPDIR/c64")"
echo "ok: check of 2^64 in $secs: $(grep '^space' "$TMPDIR/c64")"
secs "$TUNER" check h70.yaml >"$TMPDIR/c70" 2>&1
[ $rc -eq 0 ] || fail "check h70: exit $rc: $(cat "$TMPDIR/c70")"
grep -q '^space: 70 dimensions, 1180591620717411303424 configurations (about 1.2e21)' "$TMPDIR/c70" ||
	fail "check h70: $(grep '^space' "$TMPDIR/c70")"
grep -q '^  \.\.\. 1180591620717411303419 more$' "$TMPDIR/c70" || fail "check h70: $(grep more "$TMPDIR/c70")"
echo "ok: check of 2^70 in $secs"

# The whole space: refused by check and run, at once, saying what to do.
for what in "x64 exhaustive 18446744073709551616" "r70 random 1180591620717411303424"; do
	set -- $what
	line=$(grep -n '^search:' "$1.yaml" | cut -d: -f1)
	for cmd in check run; do
		if [ $cmd = check ]; then
			secs "$TUNER" check "$1.yaml" >"$TMPDIR/out" 2>&1
		else
			secs "$TUNER" run --results "$TMPDIR/res-$1" "$1.yaml" >"$TMPDIR/out" 2>&1
		fi
		[ $rc -eq 2 ] || fail "$cmd $1: exit $rc, want 2: $(cat "$TMPDIR/out")"
		[ "$(cat "$TMPDIR/out")" = "tuner: $1.yaml:$line:1: $2 search of all $3 configurations: more than a run evaluates (10000); set a budget, e.g. search: {strategy: random, budget: 100}" ] ||
			fail "$cmd $1: $(cat "$TMPDIR/out")"
		[ ! -e "$TMPDIR/res-$1/builds" ] || fail "$cmd $1: built something"
	done
	echo "ok: $1 refused in $secs: $(cat "$TMPDIR/out")"
done

# A budget from the command line opens such a study.
secs "$TUNER" run -q --budget 5 --results "$TMPDIR/res-x64b" x64.yaml >"$TMPDIR/out" 2>&1
[ $rc -eq 0 ] || fail "run --budget 5 x64: exit $rc: $(cat "$TMPDIR/out")"
[ "$(count_records "$TMPDIR/res-x64b/journal.jsonl" build)" -eq 5 ] || fail "run --budget 5: not 5 builds"

# Random search: the budget's configurations, distinct, planned at once,
# every dimension both with and without its flag.
for n in 64 70; do
	secs "$TUNER" run -q --results "$TMPDIR/res$n" h$n.yaml >"$TMPDIR/r$n" 2>&1
	[ $rc -eq 0 ] || fail "run h$n: exit $rc: $(cat "$TMPDIR/r$n")"
	j=$TMPDIR/res$n/journal.jsonl
	want=$([ $n = 64 ] && echo 20 || echo 30)
	grep -q "^study h$n: $want configurations x 1 layout seed" "$TMPDIR/r$n" || fail "run h$n: $(head -1 "$TMPDIR/r$n")"
	[ "$(count_records "$j" build)" -eq "$want" ] || fail "run h$n: $(count_records "$j" build) builds"
	[ "$(grep '"type":"build"' "$j" | grep -o '"config":"[0-9a-f]*"' | sort -u | wc -l)" -eq "$want" ] ||
		fail "run h$n: configurations repeat"
	grep '"type":"build"' "$j" | grep -o '"flags":"[^"]*"' >"$TMPDIR/flags$n"
	for i in $(seq 1 $n); do
		with=$(grep -c -- "-DF$i\b" "$TMPDIR/flags$n" || true)
		[ "$with" -gt 0 ] && [ "$with" -lt "$want" ] ||
			fail "run h$n: -DF$i in $with of $want configurations"
	done
	echo "ok: run of h$n ($want of 2^$n configurations, every dimension varied) in $secs"
done

# Interrupted: SIGINT or SIGTERM while builds run stops the run at once
# with exit 130.
touch "$TMPDIR/slow"
for sig in INT TERM; do
	rm -f "$TMPDIR"/started.*
	"$TUNER" run -q -j 2 --results "$TMPDIR/res-$sig" h70.yaml >"$TMPDIR/i-$sig" 2>&1 &
	pid=$!
	for _ in $(seq 1 300); do
		ls "$TMPDIR"/started.* >/dev/null 2>&1 && break
		sleep 0.1
	done
	ls "$TMPDIR"/started.* >/dev/null 2>&1 || fail "SIG$sig: no build started"
	t0=$(date +%s%N)
	kill -$sig $pid
	for _ in $(seq 1 200); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		fail "SIG$sig: still running 20 s later"
	fi
	t1=$(date +%s%N)
	set +e
	wait $pid
	rc=$?
	set -e
	[ $rc -eq 130 ] || fail "SIG$sig: exit $rc, want 130: $(cat "$TMPDIR/i-$sig")"
	grep -q '^interrupted' "$TMPDIR/i-$sig" || fail "SIG$sig: $(cat "$TMPDIR/i-$sig")"
	echo "ok: SIG$sig stopped the run in $(((t1 - t0) / 1000000))ms, exit 130"
done
rm "$TMPDIR/slow"
echo ok
