# SPDX-License-Identifier: GPL-2.0-or-later
# A build command that sleeps forever and forks a grandchild: after the
# timeout the whole process group is gone, the build is recorded as timed
# out, and the run goes on.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
pids=$TMPDIR/pids
mkdir -p "$pids"
cat >"$repo/study.yaml" <<EOF2
study: timeout
source: {path: prog}
space:
  opt: [-O2, -Os]
build:
  command: 'sleep 1000 & echo \$! > "$pids/grandchild.\$TUNER_CONFIG_ID"; echo \$\$ > "$pids/child.\$TUNER_CONFIG_ID"; sleep 1000'
  artifact: prog
  timeout: 1
size: {of: artifact, measure: file}
objectives:
  - {name: size, goal: min}
EOF2
git -C "$repo" add study.yaml && git -C "$repo" commit -q -m study

start=$(date +%s)
# Every configuration timed out: done, with failures (exit 3).
set +e
"$TUNER" run -q -j 2 --all --results "$TMPDIR/res" "$repo/study.yaml" >"$TMPDIR/out"
rc=$?
set -e
[ $rc -eq 3 ] || fail "tuner exit $rc, want 3: $(cat "$TMPDIR/out")"
grep -q '^failed: 2 of 2 configurations (2 timeout)' "$TMPDIR/out" || fail "no failure summary"
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -lt 30 ] || fail "took ${elapsed}s: the timeout did not fire"
[ "$(grep -c '"status":"timeout"' "$TMPDIR/res/journal.jsonl")" -eq 2 ] || fail "builds not recorded as timed out"
grep -q '\[timeout\]' "$TMPDIR/out" || fail "table does not show the timeout"

n=0
for f in "$pids"/*; do
	pid=$(cat "$f")
	n=$((n + 1))
	# Reparented to init, a killed grandchild may linger as a zombie for an
	# instant; anything still running (state other than Z) is an orphan.
	for _ in $(seq 1 50); do
		[ -e "/proc/$pid" ] || break
		state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone)
		[ "$state" = Z ] || [ "$state" = gone ] && break
		sleep 0.1
	done
	if [ -e "/proc/$pid" ]; then
		state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo gone)
		[ "$state" = Z ] || [ "$state" = gone ] || fail "$(basename "$f") $pid still running (state $state)"
	fi
done
[ "$n" -eq 4 ] || fail "expected 4 pid files, found $n"
echo ok
