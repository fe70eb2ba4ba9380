# SPDX-License-Identifier: GPL-2.0-or-later
# tuner watch on the 30-commit history of tests/e2e/bisect_history.sh
# (commit 19: every packet 3% slower; the others unused code, comments,
# notes), the noisy target measuring, fed as CI would: the first call sets
# the baseline; commits arriving without the regression notify nobody; the
# call that brings commit 19 names it (exit 4), writes the Markdown and
# JSON reports and runs the notify command with them; a call killed in the
# middle of its bisect resumes (the rerun measures nothing twice) and gives
# the same answer. The culprit's subject carries markup (whoever can push
# writes it): the Markdown report, rendered by cmark-gfm, has none of it.
# Bad options are refused. bench/watch.sh does this over 20 noise seeds.
. "$ROOT/tests/e2e/lib.sh"
git_test_env
make_noisy
. "$ROOT/tests/e2e/bisect_history.sh"
BISECT_SUBJECT='fp_rx: hash <img src=x onerror=alert(1)> `x` [y](javascript:alert(2)) **z**' \
	watch_history "'cp \"\$TUNER_WATCH_REPORT\" \"$TMPDIR/mail.md\"; echo \"\$TUNER_WATCH_RESULT \$TUNER_WATCH_COMMIT\" >\"$TMPDIR/mail.txt\"'"
res=$TMPDIR/w
watch() { "$TUNER" watch -q "$TMPDIR/s.yaml" --branch ci --once --results "$res" "$@"; }

git -C "$TMPDIR/h" branch -f ci good
watch >"$TMPDIR/out"
grep -q '^baseline: ' "$TMPDIR/out" || fail "the first call did not set the baseline: $(cat "$TMPDIR/out")"
watch --format json >"$TMPDIR/out"
grep -q '"nothing new"' "$TMPDIR/out" || fail "a call with nothing new: $(cat "$TMPDIR/out")"

# Commits 1..12: only layout moves; no notification.
git -C "$TMPDIR/h" branch -f ci "${commits[11]}"
rc=0
watch --format json >"$TMPDIR/out" || rc=$?
[ "$rc" -eq 0 ] || fail "commits 1..12: exit $rc"
grep -qE '"result": "(no change|unresolved|unconfirmed)"' "$TMPDIR/out" || fail "commits 1..12: $(cat "$TMPDIR/out")"
[ ! -e "$TMPDIR/mail.txt" ] || fail "notified for layout-only commits: $(cat "$TMPDIR/mail.txt")"

# Commits up to 21: the regression arrives. Killed once its bisect has
# measured something, then run again: the same commit, nothing measured
# twice.
git -C "$TMPDIR/h" branch -f ci "${commits[20]}"
setsid "$TUNER" watch -q "$TMPDIR/s.yaml" --branch ci --once --results "$res" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 300); do
	n=$(cat "$res"/bisect-*/journal.jsonl 2>/dev/null | grep -c '"type":"measure"' || true)
	[ "${n:-0}" -ge 40 ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
kill -0 $pid 2>/dev/null || fail "the watch finished before it could be killed"
kill -KILL $pid
wait $pid 2>/dev/null || true
session_gone "$pid" SIGKILL
before=$(cat "$res"/bisect-*/journal.jsonl | grep -c '"type":"measure"')
rc=0
watch --format md >"$TMPDIR/out" || rc=$?
[ "$rc" -eq 4 ] || fail "the regression: exit $rc, want 4: $(cat "$TMPDIR/out")"
grep -q "first bad commit: \`$culprit\`" "$TMPDIR/out" || fail "not the real commit: $(cat "$TMPDIR/out")"
grep -q 'natbench/fp_rx.c' "$TMPDIR/out" || fail "what it touched is not in the report"
grep -qE 'effect against its parent: -[0-9.]+%, 95% CI \[-[0-9.]+%, -[0-9.]+%\]' "$TMPDIR/out" ||
	fail "no effect with its interval: $(cat "$TMPDIR/out")"
python3 - "$res" <<'PY' || fail "a measurement was made twice after the resume"
import glob, json, sys
for j in glob.glob(sys.argv[1] + "/bisect-*/journal.jsonl"):
    seen = set()
    for line in open(j):
        r = json.loads(line)
        if r["type"] == "measure":
            k = (r["build"], r.get("mkey"), r["run"])
            assert k not in seen, (j, k)
            seen.add(k)
PY
after=$(cat "$res"/bisect-*/journal.jsonl | grep -c '"type":"measure"')
[ "$after" -gt "$before" ] || fail "the rerun measured nothing new ($before, $after)"
[ "$(cat "$TMPDIR/mail.txt")" = "regression $culprit" ] || fail "notify got: $(cat "$TMPDIR/mail.txt" 2>/dev/null)"
grep -q "$culprit" "$TMPDIR/mail.md" || fail "the notified report does not name the commit"
cmark-gfm --unsafe -e table -e autolink "$TMPDIR/mail.md" >"$TMPDIR/mail.html"
grep -Eiq '<(img|a)[ >]' "$TMPDIR/mail.html" &&
	fail "the report carries the subject's markup: $(grep -Eio '<(img|a)[^>]*>' "$TMPDIR/mail.html")"
grep -q 'fp_rx: hash &lt;img src=x onerror=alert(1)&gt; `x` \[y\](javascript:alert(2)) \*\*z\*\*' "$TMPDIR/mail.html" ||
	fail "the subject is not in the report as text: $(grep -i 'first bad' "$TMPDIR/mail.html")"
ls "$res"/report-*.json >/dev/null || fail "no JSON report"
grep -q '"type":"notified"' "$res/watch.jsonl" || fail "the notification is not in the state journal"

# The baseline moved past the regression: nothing new, exit 0.
rc=0
watch >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "after the regression: exit $rc"

# Bad input.
expect_exit 2 "$TMPDIR/e" "$TUNER" watch "$TMPDIR/s.yaml" --once
grep -q -- '--branch REF is required' "$TMPDIR/e" || fail "no --branch: $(cat "$TMPDIR/e")"
expect_exit 2 "$TMPDIR/e" "$TUNER" watch "$TMPDIR/s.yaml" --branch ci --layout 1
grep -q 'at least 2' "$TMPDIR/e" || fail "--layout 1: $(cat "$TMPDIR/e")"
expect_exit 2 "$TMPDIR/e" "$TUNER" watch "$TMPDIR/s.yaml" --branch no-such-branch --once --results "$TMPDIR/x"
expect_exit 2 "$TMPDIR/e" "$TUNER" watch "$TMPDIR/s.yaml" --branch ci --interval soon
expect_exit 2 "$TMPDIR/e" "$TUNER" watch "$TMPDIR/s.yaml" --branch ci --alpha 1
"$TUNER" watch --help | grep -q 'usage: tuner watch' || fail "no --help"
sed -e 's/^watch:$/watch:\n  layout: 1/' "$TMPDIR/s.yaml" >"$TMPDIR/bad.yaml"
expect_exit 2 "$TMPDIR/e" "$TUNER" check "$TMPDIR/bad.yaml"
grep -q "bad.yaml:[0-9]*:[0-9]*: 'watch.layout' must be at least 2" "$TMPDIR/e" || fail "watch.layout 1: $(cat "$TMPDIR/e")"
echo "t_watch: ok"
