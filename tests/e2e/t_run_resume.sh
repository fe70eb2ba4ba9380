# SPDX-License-Identifier: GPL-2.0-or-later
# A real study (16 configurations built by gcc in parallel, measured), then:
# tuner killed with SIGKILL mid-run, rerun -> the same Pareto set, and the
# journal shows that no finished build was built twice.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
write_study "$repo/study.yaml" resume <<'EOF2'
  opt: [-O2, -Os]
  reorder: ["", -fno-reorder-blocks]
  align: ["", -falign-functions=64]
  pgo: [off, on]
EOF2
# While $TMPDIR/hang exists, builds hang (a stand-in for a long kernel build).
sed -i "s|command: make -s -f|command: if [ -e $TMPDIR/hang ]; then sleep 1000; fi; make -s -f|" "$repo/study.yaml"
grep -q "$TMPDIR/hang" "$repo/study.yaml" || fail "could not edit the study"
git -C "$repo" add study.yaml && git -C "$repo" commit -q -m study

# Reference: one uninterrupted run.
"$TUNER" run -q -j 2 --all --results "$TMPDIR/ref" "$repo/study.yaml" >"$TMPDIR/ref.out"
[ "$(count_records "$TMPDIR/ref/journal.jsonl" build)" -eq 16 ] || fail "reference run did not build 16 configs"
# One measurement per distinct program: builds with the same code (gcc
# ignores -falign-functions at -Os; -fno-reorder-blocks may change nothing)
# share it.
codes=$(grep '"type":"build"' "$TMPDIR/ref/journal.jsonl" | sed -E 's/.*"code":"([0-9a-f]+)".*/\1/' | sort -u | wc -l)
[ "$codes" -ge 2 ] && [ "$codes" -lt 16 ] || fail "$codes distinct programs of 16 builds"
[ "$(count_records "$TMPDIR/ref/journal.jsonl" measure)" -eq "$codes" ] ||
	fail "reference run did not measure $codes times (once per program)"
grep -q '^Pareto set' "$TMPDIR/ref.out" || fail "no Pareto set printed"
grep -q '"status":"ok"' "$TMPDIR/ref/journal.jsonl" || fail "no build succeeded"
[ -s "$TMPDIR/ref/pareto.json" ] || fail "no pareto.json"

# Interrupted run: SIGKILL once a few builds are recorded. The tuner runs in
# a session of its own so we can see that its guard process killed every
# command it had running: nothing of the session may survive.
res=$TMPDIR/res
setsid "$TUNER" run -q -j 2 --results "$res" "$repo/study.yaml" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do
	n=$(count_records "$res/journal.jsonl" build 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 5 ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
kill -0 $pid 2>/dev/null || fail "tuner finished before it could be killed"
touch "$TMPDIR/hang"
for _ in $(seq 1 300); do
	pgrep -s "$pid" -x sleep >/dev/null && break
	sleep 0.1
done
pgrep -s "$pid" -x sleep >/dev/null || fail "no build hung"
kill -KILL $pid
wait $pid 2>/dev/null || true
session_gone "$pid" SIGKILL
before=$(count_records "$res/journal.jsonl" build)
[ "$before" -ge 5 ] && [ "$before" -lt 16 ] || fail "expected a partial journal, got $before builds"
echo "killed after $before builds"

rm "$TMPDIR/hang"
"$TUNER" run -q -j 2 --all --results "$res" "$repo/study.yaml" >"$TMPDIR/res.out"
after=$(count_records "$res/journal.jsonl" build)
[ "$after" -eq 16 ] || fail "after resume: $after build records, want 16 (one per config)"
# Each build key appears exactly once: nothing finished was rebuilt.
dups=$(grep '"type":"build"' "$res/journal.jsonl" | sed -E 's/.*"key":"([0-9a-f]+)".*/\1/' | sort | uniq -d)
[ -z "$dups" ] || fail "rebuilt: $dups"
grep -q "builds: $((16 - before)) new (0 failed), $before from the journal" "$TMPDIR/res.out" ||
	fail "summary line wrong: $(grep '^builds' "$TMPDIR/res.out")"

# Same Pareto set (and the same values) as the uninterrupted run.
sed -n '/^Pareto set/,/^$/p' "$TMPDIR/ref.out" >"$TMPDIR/a"
sed -n '/^Pareto set/,/^$/p' "$TMPDIR/res.out" >"$TMPDIR/b"
diff -u "$TMPDIR/a" "$TMPDIR/b" || fail "Pareto set differs after resume"

# A third run does nothing at all.
"$TUNER" run -q --results "$res" "$repo/study.yaml" >"$TMPDIR/third.out"
grep -q "builds: 0 new (0 failed), 16 from the journal; measurements: 0 new, $codes from the journal" "$TMPDIR/third.out" ||
	fail "third run redid work: $(grep '^builds' "$TMPDIR/third.out")"
echo "ok"
