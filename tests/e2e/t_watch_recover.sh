# SPDX-License-Identifier: GPL-2.0-or-later
# tuner watch neither loses nor wedges (issue 39), on the history of
# tests/e2e/bisect_history.sh (commit 19 every packet 3% slower):
#  1. at least once: the notify command kills tuner (SIGKILL to its
#     parent) the first time it runs; the next call, with nothing new on
#     the branch, notifies again and exits 4 as the killed call would
#     have; the one after is quiet (exit 0, no third notification)
#  2. the branch force-pushed back, then diverged: every call says it was
#     rewritten, names the baseline and the way on, and exits 2; --reset
#     takes the branch as it is and the next call has nothing new
#  3. --since naming no commit is an error on a later call too
. "$ROOT/tests/e2e/lib.sh"
git_test_env
make_noisy
. "$ROOT/tests/e2e/bisect_history.sh"
# The first run of the notify command kills the watch that runs it.
watch_history "'echo \"\$TUNER_WATCH_RESULT \$TUNER_WATCH_COMMIT\" >>\"$TMPDIR/notified\"; if [ ! -e \"$TMPDIR/killed\" ]; then touch \"$TMPDIR/killed\"; kill -KILL \$PPID; sleep 5; fi'"
res=$TMPDIR/w
# --alpha 0.01: this history names commit 19 at p = 0.0007 (deterministic).
watch() { "$TUNER" watch -q "$TMPDIR/s.yaml" --branch ci --once --alpha 0.01 --results "$res" "$@"; }
call() {
	set +e
	watch "$@" >"$TMPDIR/out" 2>"$TMPDIR/err"
	rc=$?
	set -e
}

git -C "$TMPDIR/h" branch -f ci good
call
[ "$rc" -eq 0 ] || fail "first call: exit $rc: $(cat "$TMPDIR/err")"

# --- 1. The call that finds the regression dies in its notify command.
git -C "$TMPDIR/h" branch -f ci "${commits[20]}"
call
[ "$rc" -eq 137 ] || fail "the notify command did not kill the watch (exit $rc): $(cat "$TMPDIR/out" "$TMPDIR/err")"
[ "$(wc -l <"$TMPDIR/notified")" -eq 1 ] || fail "notified $(wc -l <"$TMPDIR/notified") times before the kill"
call
[ "$rc" -eq 4 ] || fail "the call after the kill: exit $rc, want 4 (the regression): $(cat "$TMPDIR/err")"
grep -q "notifying again: the regression at ${culprit:0:12}" "$TMPDIR/err" ||
	fail "the call after the kill did not say it notifies again: $(cat "$TMPDIR/err")"
[ "$(wc -l <"$TMPDIR/notified")" -eq 2 ] || fail "not notified again: $(cat "$TMPDIR/notified")"
[ "$(tail -n 1 "$TMPDIR/notified")" = "regression $culprit" ] || fail "notified: $(cat "$TMPDIR/notified")"
grep -q '"type":"notify"' "$res/watch.jsonl" || fail "the intent to notify is not in the state journal"
call
[ "$rc" -eq 0 ] || fail "once delivered: exit $rc: $(cat "$TMPDIR/err")"
[ "$(wc -l <"$TMPDIR/notified")" -eq 2 ] || fail "notified a third time"

# --- 2. Rewritten branches.
git -C "$TMPDIR/h" branch -f ci "${commits[10]}"
for _ in 1 2; do
	call
	[ "$rc" -eq 2 ] || fail "pushed back: exit $rc"
	grep -q "ci was rewritten: ${commits[10]:0:12}, its head, is behind (an ancestor of) the baseline ${commits[20]:0:12}" "$TMPDIR/err" ||
		fail "pushed back: $(cat "$TMPDIR/err")"
	grep -q -- "--reset" "$TMPDIR/err" || fail "pushed back: no way on: $(cat "$TMPDIR/err")"
done
git -C "$TMPDIR/h" checkout -q -b side "${commits[15]}"
echo side >"$TMPDIR/h/NOTES-side"
git -C "$TMPDIR/h" add -A && git -C "$TMPDIR/h" commit -q -m "a side line"
git -C "$TMPDIR/h" checkout -q --detach
git -C "$TMPDIR/h" branch -f ci side
call
[ "$rc" -eq 2 ] || fail "diverged: exit $rc"
grep -q "ci was rewritten: .*, its head, has diverged from the baseline ${commits[20]:0:12}" "$TMPDIR/err" ||
	fail "diverged: $(cat "$TMPDIR/err")"
call --reset
[ "$rc" -eq 0 ] || fail "--reset: exit $rc: $(cat "$TMPDIR/err")"
grep -q "^baseline: $(git -C "$TMPDIR/h" rev-parse --short=12 side)" "$TMPDIR/out" || fail "--reset: $(cat "$TMPDIR/out")"
call --format json
[ "$rc" -eq 0 ] && grep -q '"nothing new"' "$TMPDIR/out" || fail "after --reset: exit $rc: $(cat "$TMPDIR/out" "$TMPDIR/err")"

# --- 3. --since is checked on every call.
call --since no-such-ref
[ "$rc" -eq 2 ] || fail "--since no-such-ref on a later call: exit $rc"
grep -q -- "--since: .*no-such-ref" "$TMPDIR/err" || fail "--since no-such-ref: $(cat "$TMPDIR/err")"
echo "t_watch_recover: ok"
