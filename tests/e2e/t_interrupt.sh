# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C (SIGINT) mid-run: tuner stops launching, kills the running build
# commands and everything they started, keeps what finished in the journal,
# exits 130; the next run resumes from the journal.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
pids=$TMPDIR/pids
mkdir -p "$pids"
touch "$TMPDIR/slow"
cat >"$repo/study.yaml" <<EOF2
study: interrupt
source: {path: prog}
space:
  opt: [-DFAST, -DSLOW1, -DSLOW2, -DSLOW3, -DSLOW4]
build:
  command: |
    case "\$TUNER_FLAGS" in -DSLOW*)
      if [ -e "$TMPDIR/slow" ]; then
        sleep 1000 & echo \$! > "$pids/grandchild.\$TUNER_CONFIG_ID"
        echo \$\$ > "$pids/child.\$TUNER_CONFIG_ID"
        wait
      fi;;
    esac
    echo built > "\$TUNER_OUT/prog"
  artifact: prog
size: {of: artifact, measure: file}
objectives:
  - {name: size, goal: min}
EOF2
git -C "$repo" add study.yaml && git -C "$repo" commit -q -m study

res=$TMPDIR/res
"$TUNER" run -q -j 2 --results "$res" "$repo/study.yaml" >"$TMPDIR/out1" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
	[ "$(ls "$pids" | grep -c child)" -ge 2 ] && break
	sleep 0.1
done
[ "$(ls "$pids" | grep -c child)" -ge 2 ] || fail "slow builds did not start"
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 130 ] || fail "exit $rc after SIGINT, want 130: $(cat "$TMPDIR/out1")"

for f in "$pids"/*; do
	p=$(cat "$f")
	if [ -e "/proc/$p" ]; then
		state=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null || echo gone)
		[ "$state" = Z ] || [ "$state" = gone ] || fail "$(basename "$f") $p survived the interrupt"
	fi
done
j=$res/journal.jsonl
[ "$(count_records "$j" build)" -eq 1 ] || fail "want exactly the fast build recorded, got $(count_records "$j" build)"
grep -q '"flags":"-DFAST"' "$j" || fail "fast build not in the journal"
tail -n 1 "$j" | grep -q '"type":"end","status":"interrupted"' || fail "no interrupted end record: $(tail -n 1 "$j")"
grep -q '^interrupted' "$TMPDIR/out1" || fail "output does not say interrupted"

rm "$TMPDIR/slow"
"$TUNER" run -q -j 2 --results "$res" "$repo/study.yaml" >"$TMPDIR/out2" || fail "resume failed"
grep -q "builds: 4 new (0 failed), 1 from the journal" "$TMPDIR/out2" || fail "resume: $(grep '^builds' "$TMPDIR/out2")"
echo ok
