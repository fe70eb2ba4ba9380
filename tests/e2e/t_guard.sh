# SPDX-License-Identifier: GPL-2.0-or-later
# A tuner killed with SIGKILL leaves no process behind, not even one that
# left its command's process group: a build starts `setsid sleep` (a
# session and group of its own, which the runner never saw) and hangs;
# tuner is SIGKILLed; the guard finds the detached sleep by the mark in
# its environment (TUNER_CMD_<tuner pid>_<n>=1, guard.h) and kills it too,
# as it kills the build's own group. (t_contain.sh: SIGKILL to tuner's
# whole group.)
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
cat >"$repo/study.yaml" <<EOF2
study: guard
source: {path: prog}
space:
  a: [-DA]
build:
  command: 'echo \$\$ >"$TMPDIR/build"; setsid sleep 1001 & echo \$! >"$TMPDIR/detached"; sleep 1002; : >prog'
  artifact: prog
size: {of: artifact, measure: file}
objectives:
  - {name: size, goal: min}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m guard
"$TUNER" run -q --results "$TMPDIR/res" "$repo/study.yaml" >/dev/null 2>&1 &
pid=$!
# Whatever happens, nothing of this test stays behind.
cleanup() {
	set +e
	kill -KILL "$pid" 2>/dev/null
	for f in build detached; do
		[ -s "$TMPDIR/$f" ] && kill -KILL -- -"$(cat "$TMPDIR/$f")" 2>/dev/null
	done
	return 0
}
trap cleanup EXIT
for _ in $(seq 1 300); do
	[ -s "$TMPDIR/detached" ] && [ -s "$TMPDIR/build" ] && break
	sleep 0.1
done
det=$(cat "$TMPDIR/detached" 2>/dev/null || true)
[ -n "$det" ] && kill -0 "$det" 2>/dev/null || fail "the detached sleep did not start"
grep -qz '^TUNER_GUARD=[0-9]*$' "/proc/$det/environ" || fail "no guard in the command's environment"
grep -qz "^TUNER_CMD_${pid}_[0-9]*=1\$" "/proc/$det/environ" || fail "no mark in the command's environment"
kill -KILL $pid
wait $pid 2>/dev/null || true
for _ in $(seq 1 50); do
	kill -0 "$det" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$det" 2>/dev/null; then
	kill -KILL "$det" 2>/dev/null || true
	fail "the detached sleep ($det) outlived a SIGKILLed tuner"
fi
build=$(cat "$TMPDIR/build")
for _ in $(seq 1 50); do
	kill -0 "$build" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$build" 2>/dev/null && fail "the build ($build) outlived a SIGKILLed tuner"
echo ok
