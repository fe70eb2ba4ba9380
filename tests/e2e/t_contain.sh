# SPDX-License-Identifier: GPL-2.0-or-later
# What contains a command's processes (docs/processes.md), case by case:
#  1. SIGKILL to tuner's whole process group: the guard, in a session of
#     its own, survives it, kills the build's group and the process that
#     left it with setsid, and exits.
#  2. Ctrl-C as a terminal sends it (SIGINT to the group): tuner stops at
#     once with exit 130, its commands killed; the guard exits with it.
#  3. A build that starts `setsid sleep &` and exits: the runner finds
#     the detached sleep by its command's mark, kills it, says so in the
#     build's log; the run ends normally and the guard with it.
# Each case's sleeps have durations of their own (1001.<case><pid>), so
# pgrep -f finds them and nothing else.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"

# Live (neither gone nor a zombie): PID 1 here need not reap orphans.
alive() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

# Waits up to $2 tenths of a second for pid $1 to be gone.
wait_gone() {
	for _ in $(seq 1 "$2"); do
		alive "$1" || return 0
		sleep 0.1
	done
	! alive "$1"
}

# Waits up to 3 s for no process matching $1 to be left; prints them.
wait_none() {
	for _ in $(seq 1 30); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.1
	done
	pgrep -af "$1"
	return 1
}

# study NAME COMMAND: a one-configuration study whose build is COMMAND.
study() {
	cat >"$repo/$1.yaml" <<EOF2
study: $1
source: {path: prog}
space:
  a: [-DA]
build:
  command: '$2'
  artifact: prog
size: {of: artifact, measure: file}
objectives:
  - {name: size, goal: min}
EOF2
}

# waitfile FILE: up to 30 s for FILE to be written.
waitfile() {
	for _ in $(seq 1 300); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	fail "$1 was not written"
}

tag=$$
cleanup() {
	set +e
	local left
	left=$(pgrep -f "^sleep 100[0-9]\.[0-9]$tag")
	[ -n "$left" ] && kill -KILL $left 2>/dev/null
	[ -n "${tpid:-}" ] && kill -KILL -- -"$tpid" 2>/dev/null
	return 0
}
trap cleanup EXIT

# Seconds since $1 (date +%s.%N), and whether $1 < $2.
since() {
	awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'
}
less() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}

# A build that waits: one sleep in its group, one detached (setsid).
hang='echo "$TUNER_GUARD" >"'$TMPDIR'/guard.$C"; setsid sleep 1002.$C'$tag' & sleep 1001.$C'$tag'; : >prog'
study kill "${hang//\$C/1}"
study int "${hang//\$C/2}"
# (It waits for the sleep to have left its group: before, the group's
# kill would take it.)
study escape 'echo "$TUNER_GUARD" >"'$TMPDIR'/guard.3"; setsid sleep 1003.3'$tag' & while ! pgrep -f "^sleep 1003.3'$tag'" >/dev/null; do sleep 0.01; done; : >prog'
git -C "$repo" add -A && git -C "$repo" commit -q -m studies

# start N STUDY OUT: tuner runs STUDY in a session of its own (tpid),
# output to OUT, until case N's build hangs; guard: its guard's pid.
start() {
	setsid "$TUNER" run -q --results "$TMPDIR/res$1" "$repo/$2.yaml" >"$3" 2>&1 &
	tpid=$!
	waitfile "$TMPDIR/guard.$1"
	for _ in $(seq 1 50); do
		pgrep -f "^sleep 1002.$1$tag" >/dev/null && break
		sleep 0.1
	done
	guard=$(sed 's/^TUNER_GUARD=//' "$TMPDIR/guard.$1")
}

# ---- 1: SIGKILL to tuner's process group ----
start 1 kill /dev/null
pgid=$(ps -o pgid= -p "$tpid" | tr -d ' ')
[ "$pgid" = "$tpid" ] || fail "tuner ($tpid) does not lead its group ($pgid)"
alive "$guard" || fail "no guard ($guard)"
[ "$(ps -o pgid= -p "$guard" | tr -d ' ')" != "$pgid" ] || fail "the guard is in tuner's process group"
[ "$(pgrep -cf "^sleep 100[12].1$tag")" -eq 2 ] || fail "the build's sleeps did not start"
t0=$(date +%s.%N)
kill -KILL -- -"$pgid"
wait "$tpid" 2>/dev/null || true # bash says "Killed"
wait_none "^sleep 100[12].1$tag" || fail "1: the build's sleeps outlived SIGKILL of tuner's group"
wait_gone "$guard" 30 || fail "1: the guard ($guard) outlived tuner"
echo "1: group SIGKILL: all gone in $(since "$t0") s"

# ---- 2: Ctrl-C to tuner's process group ----
start 2 int "$TMPDIR/out2"
t0=$(date +%s.%N)
kill -INT -- -"$tpid"
set +e
wait "$tpid"
rc=$?
set -e
took=$(since "$t0")
[ $rc -eq 130 ] || fail "2: exit $rc after Ctrl-C, want 130: $(cat "$TMPDIR/out2")"
less "$took" 1.5 || fail "2: tuner took $took s to stop"
wait_none "^sleep 100[12].2$tag" || fail "2: the build's sleeps outlived Ctrl-C"
wait_gone "$guard" 30 || fail "2: the guard ($guard) outlived tuner"
echo "2: Ctrl-C: exit 130 in $took s"

# ---- 3: a detached process left behind by a build that finished ----
tpid=
t0=$(date +%s.%N)
"$TUNER" run -q --results "$TMPDIR/res3" "$repo/escape.yaml" >"$TMPDIR/out3" 2>&1 ||
	fail "3: run failed: $(cat "$TMPDIR/out3")"
took=$(since "$t0")
guard=$(sed 's/^TUNER_GUARD=//' "$TMPDIR/guard.3")
! pgrep -af "^sleep 1003.3$tag" || fail "3: the detached sleep outlived its build"
! alive "$guard" || fail "3: the guard ($guard) outlived tuner"
log=$(find "$TMPDIR/res3" -name build.log | head -n 1)
[ -n "$log" ] || fail "3: no build log"
grep -q '^\[tuner: killed 1 process the command left running outside its process group\]$' "$log" ||
	fail "3: the log does not say what was killed: $(cat "$log")"
echo "3: setsid escape killed after the build; run took $took s"
echo ok
