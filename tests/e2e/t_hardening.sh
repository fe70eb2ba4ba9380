# SPDX-License-Identifier: GPL-2.0-or-later
# A run left alone overnight loses nothing, doubles nothing and never
# reuses a number that no longer means what it meant (issue 13):
#  1. one writer per results directory
#  2. stale measurements: a changed measure command, measure.inputs or a
#     renamed objective measure again; an unchanged study reuses all
#  3. the journal validated on replay: wrong field types refused with
#     journal:LINE, another study's journal refused, no "(null)"
#  4. a build that failed for want of space, or could not start (E2BIG),
#     is not a [failed] result; a journal write that fails stops the
#     measuring, names its errno, and leaves no "complete" end
#  5. a study or journal that is a FIFO or a device is refused at once
#  6. numbers out of range ("1e400", "inf", NaN) are named, never results
#  7. output that cannot be written (/dev/full, closed pipe) exits non-zero
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
# Measurements are counted outside the results ($TMPDIR/measured).
cat >"$repo/study.yaml" <<EOF2
study: hard
source: {path: prog}
space:
  level: ["-DLEVEL=1", "-DLEVEL=2", "-DLEVEL=3"]
build:
  command: 'if [ -e $TMPDIR/hang ]; then sleep 1000; fi; echo "\$TUNER_FLAGS" | sed "s/.*=//" > "\$TUNER_OUT/art"'
  artifact: art
measure:
  command: 'echo x >> $TMPDIR/measured; echo "value \$(( \$(cat "\$TUNER_ARTIFACT") * 10 ))"'
  same_code: separate
  repeats: 2
  inputs: [helper.txt]
objectives:
  - {name: speed, goal: max}
EOF2
echo one >"$repo/helper.txt"
git -C "$repo" add -A && git -C "$repo" commit -q -m study
res=$TMPDIR/res
j=$res/journal.jsonl
measured() { wc -l <"$TMPDIR/measured"; }

# --- 1. One writer: a second tuner on the same directory is refused.
touch "$TMPDIR/hang"
setsid "$TUNER" run -q -j 1 --results "$res" "$repo/study.yaml" >"$TMPDIR/first.out" 2>&1 &
first=$!
for _ in $(seq 1 100); do
	[ -s "$res/lock" ] && break
	sleep 0.1
done
[ -s "$res/lock" ] || fail "the first run took no lock"
try "$TMPDIR/second.out" "$TUNER" run -q -j 1 --results "$res" "$repo/study.yaml"
[ $rc -ne 0 ] || fail "a second tuner on the same results directory ran"
grep -q "is in use by another tuner (pid $first)" "$TMPDIR/second.out" ||
	fail "second tuner's message: $(cat "$TMPDIR/second.out")"
kill -INT $first
wait $first || true
rm -f "$TMPDIR/hang"
# The lock dies with its holder: a run after it goes ahead, even after
# a SIGKILL (no stale lock to remove by hand).
"$TUNER" run -q --results "$res" "$repo/study.yaml" >"$TMPDIR/run1.out" ||
	fail "run after the first stopped: $(cat "$TMPDIR/run1.out")"
[ "$(count_records "$j" measure)" -eq 6 ] || fail "3 configs x 2 repeats: $(count_records "$j" measure)"
grep -q '"mkey":"[0-9a-f]\{16\}"' "$j" || fail "measurements carry no mkey"
[ "$(measured)" -eq 6 ] || fail "measured $(measured) times, want 6"

# --- 2. Stale results. Unchanged: everything reused.
"$TUNER" run -q --results "$res" "$repo/study.yaml" >"$TMPDIR/run2.out"
[ "$(measured)" -eq 6 ] || fail "an unchanged study measured again"
# The measure command's text changes: all measured again, and said so.
sed -i 's/\* 10 ))/* 100 ))/' "$repo/study.yaml"
"$TUNER" run -q --results "$res" "$repo/study.yaml" >"$TMPDIR/run3.out" 2>&1
[ "$(measured)" -eq 12 ] || fail "after the measure command changed: measured $(measured), want 12"
grep -q 'note: 6 recorded measurements of these builds were made by another measurement' "$TMPDIR/run3.out" ||
	fail "no note on stale measurements: $(cat "$TMPDIR/run3.out")"
grep -Eq '^\* .*300 ' "$TMPDIR/run3.out" || fail "front not from the new command: $(cat "$TMPDIR/run3.out")"
grep -Eq ' 30 ' "$TMPDIR/run3.out" && fail "an old value on the table: $(cat "$TMPDIR/run3.out")"
# A file measure.inputs names changes: measured again.
echo two >"$repo/helper.txt"
"$TUNER" run -q --results "$res" "$repo/study.yaml" >"$TMPDIR/run4.out" 2>&1
[ "$(measured)" -eq 18 ] || fail "after measure.inputs changed: measured $(measured), want 18"
# An objective renamed: measured again, not [measure-failed] for good.
sed -i 's/name: speed/name: rate/' "$repo/study.yaml"
"$TUNER" run -q --results "$res" "$repo/study.yaml" >"$TMPDIR/run5.out" 2>&1 ||
	fail "run after renaming: $(cat "$TMPDIR/run5.out")"
[ "$(measured)" -eq 24 ] || fail "after renaming the objective: measured $(measured), want 24"
grep -q 'measure-failed' "$TMPDIR/run5.out" && fail "renamed objective: $(cat "$TMPDIR/run5.out")"
grep -Eq '^\* .*300 ' "$TMPDIR/run5.out" || fail "renamed objective front: $(cat "$TMPDIR/run5.out")"
# Renamed back: the first measurements under that key count again.
sed -i 's/name: rate/name: speed/' "$repo/study.yaml"
"$TUNER" run -q --results "$res" "$repo/study.yaml" >"$TMPDIR/run6.out" 2>&1
[ "$(measured)" -eq 24 ] || fail "renamed back: measured $(measured), want 24 (reused)"

# --- 3. The journal validated on replay.
cp "$j" "$TMPDIR/good.jsonl"
# damaged SED MATCH WANT: the good journal damaged by SED; a run must stop
# at the line MATCH finds with a message matching WANT (grep BRE).
damaged() {
	cp "$TMPDIR/good.jsonl" "$j"
	sed -i "$1" "$j"
	line=$(grep -n "$2" "$j" | head -n 1 | cut -d: -f1)
	[ -n "$line" ] || fail "could not damage the journal with $1"
	try "$TMPDIR/bad.out" "$TUNER" run -q --results "$res" "$repo/study.yaml"
	[ $rc -ne 0 ] || fail "a journal damaged by $1 was used"
	grep -q "journal.jsonl:$line: $3" "$TMPDIR/bad.out" || fail "$1: $(cat "$TMPDIR/bad.out")"
	cp "$TMPDIR/good.jsonl" "$j"
}
# Builds without a size objective write no size: the seed is damaged.
damaged '0,/"seed":0/s//"seed":-1/' '"seed":-1' "bad build record: 'seed' must be from 0 to"
damaged '0,/"seed":0/s//"seed":"0"/' '"seed":"0"' "bad build record: 'seed' must be an integer, not a string"
damaged '0,/"run":1/s//"run":-1/' '"run":-1' "bad measure record: 'run' must be from 0 to"
damaged '0,/"ok":true/s//"ok":"yes"/' '"ok":"yes"' "bad measure record: 'ok' must be"
# Another study's journal: the study renamed, the same --results.
sed 's/^study: hard/study: other/' "$repo/study.yaml" >"$repo/other.yaml"
try "$TMPDIR/other.out" "$TUNER" run -q --results "$res" "$repo/other.yaml"
[ $rc -ne 0 ] || fail "another study's journal was used"
grep -q "journal.jsonl:1: the journal of study 'hard', not of 'other'" "$TMPDIR/other.out" ||
	fail "other study's message: $(cat "$TMPDIR/other.out")"
cmp -s "$j" "$TMPDIR/good.jsonl" || fail "a refused journal was changed"
grep -q '(null)' "$TMPDIR"/*.out && fail "(null) in a message: $(grep -l '(null)' "$TMPDIR"/*.out)"

# --- 4. The environment is not a result. A build that fails for want of
# space (a real ENOSPC: /dev/full) is not recorded as [failed].
sed 's|command: .if \[ -e.*|command: '"'"'echo 1 > "$TUNER_OUT/art"; cp "$TUNER_OUT/art" /dev/full'"'"'|; s/study: hard/study: full/' \
	"$repo/study.yaml" >"$repo/full.yaml"
grep -q 'dev/full' "$repo/full.yaml" || fail "could not write full.yaml"
try "$TMPDIR/full.out" "$TUNER" run -q -j 1 --results "$TMPDIR/full" "$repo/full.yaml"
[ $rc -ne 0 ] || fail "a run whose builds hit a full disk succeeded"
grep -q 'No space left on device' "$TMPDIR/full.out" || fail "no ENOSPC named: $(cat "$TMPDIR/full.out")"
grep -q 'not recorded as a failed build' "$TMPDIR/full.out" || fail "full disk: $(cat "$TMPDIR/full.out")"
[ "$(count_records "$TMPDIR/full/journal.jsonl" build)" -eq 0 ] || fail "a full-disk failure was recorded"
grep -q '"type":"end"' "$TMPDIR/full/journal.jsonl" && fail "the journal ended after a full disk"
# An environment too long to start a command with (a 200 KB flag): the
# real errno, and nothing recorded as the configuration's result.
{
	echo "study: big"
	echo "source: {path: prog}"
	echo "space:"
	printf '  x: ["-DX=%s"]\n' "$(head -c 200000 /dev/zero | tr '\0' a)"
	sed -n '/^build:/,$p' "$repo/study.yaml"
} >"$repo/big.yaml"
try "$TMPDIR/big.out" "$TUNER" run -q --results "$TMPDIR/big" "$repo/big.yaml"
[ $rc -eq 1 ] || fail "an over-long environment: exit $rc"
grep -q "cannot start '/bin/sh' in .*: Argument list too long" "$TMPDIR/big.out" ||
	fail "E2BIG not named: $(cut -c1-300 "$TMPDIR/big.out")"
[ "$(count_records "$TMPDIR/big/journal.jsonl" build)" -eq 0 ] || fail "E2BIG recorded as a build"
# The journal's own write fails (a file size limit, EFBIG): the run stops
# with the real error, nothing is measured unrecorded, and the journal
# does not end "complete".
: >"$TMPDIR/measured"
set +e
(
	trap '' XFSZ
	ulimit -f 2
	exec "$TUNER" run -q -j 1 --results "$TMPDIR/efbig" "$repo/study.yaml"
) >"$TMPDIR/efbig.out" 2>&1
rc=$?
set -e
[ $rc -ne 0 ] || fail "a run whose journal writes failed succeeded"
grep -q "journal.jsonl': File too large" "$TMPDIR/efbig.out" || fail "EFBIG not named: $(cat "$TMPDIR/efbig.out")"
recorded=$(count_records "$TMPDIR/efbig/journal.jsonl" measure)
# At most the one measurement whose record failed went unrecorded.
[ "$(measured)" -le $((recorded + 1)) ] ||
	fail "measured $(measured) times after a failed write, recorded $recorded"
grep -q '"status":"complete"' "$TMPDIR/efbig/journal.jsonl" && fail "journal says complete"
# Rerun without the limit: it resumes and completes.
"$TUNER" run -q --results "$TMPDIR/efbig" "$repo/study.yaml" >/dev/null ||
	fail "resume after the write failure"
grep -q '"status":"complete"' "$TMPDIR/efbig/journal.jsonl" || fail "resume did not complete"

# --- 5. Not files: refused at once, not read until memory runs out.
mkfifo "$TMPDIR/fifo.yaml"
for f in "$TMPDIR/fifo.yaml" /dev/zero /dev/urandom; do
	try "$TMPDIR/nf.out" timeout 10 "$TUNER" check "$f"
	[ $rc -eq 2 ] || fail "check $f: exit $rc ($(cat "$TMPDIR/nf.out"))"
	grep -q 'is not a regular file' "$TMPDIR/nf.out" || fail "check $f: $(cat "$TMPDIR/nf.out")"
done
mkdir -p "$TMPDIR/fj"
mkfifo "$TMPDIR/fj/journal.jsonl"
try "$TMPDIR/fj.out" timeout 10 "$TUNER" run -q --results "$TMPDIR/fj" "$repo/study.yaml"
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "a FIFO journal: exit $rc"
grep -q "journal.jsonl' is not a regular file (a FIFO)" "$TMPDIR/fj.out" || fail "FIFO journal: $(cat "$TMPDIR/fj.out")"

# --- 6. Out of range numbers are named and never reach the front.
for v in 1e400 inf NaN; do
	sed "s|echo \"value \$(( .*\"'|echo \"value $v\"'|; s/study: hard/study: range/" \
		"$repo/study.yaml" >"$repo/range.yaml"
	grep -q "value $v" "$repo/range.yaml" || fail "could not write range.yaml"
	rm -rf "$TMPDIR/range"
	try "$TMPDIR/range.out" "$TUNER" run -q --results "$TMPDIR/range" "$repo/range.yaml"
	grep -q "'$v', is out of range" "$TMPDIR/range/builds"/*/measure-*.log "$TMPDIR/range.out" ||
		fail "$v: no message: $(cat "$TMPDIR/range.out")"
	grep -Eqi '^\*.*(nan|inf)' "$TMPDIR/range.out" && fail "$v on the front: $(cat "$TMPDIR/range.out")"
	grep -q '"ok":true' "$TMPDIR/range/journal.jsonl" && fail "$v recorded as a result"
done

# --- 7. Output that cannot be written is an error.
set +e
"$TUNER" run -q --results "$res" "$repo/study.yaml" >/dev/full 2>"$TMPDIR/full2.err"
rc=$?
{ sleep 1; "$TUNER" run -q --results "$res" "$repo/study.yaml"; echo "rc=$?" >"$TMPDIR/pipe.rc"; } | true
set -e
[ $rc -eq 1 ] || fail "stdout /dev/full: exit $rc"
grep -q 'cannot write the output: No space left on device' "$TMPDIR/full2.err" ||
	fail "/dev/full: $(cat "$TMPDIR/full2.err")"
grep -q 'rc=1' "$TMPDIR/pipe.rc" || fail "closed pipe: $(cat "$TMPDIR/pipe.rc")"
echo ok
