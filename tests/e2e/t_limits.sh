# SPDX-License-Identifier: GPL-2.0-or-later
# A file size limit (ulimit -f) is the environment's, not a result. A
# build that dies of it (SIGXFSZ) is not recorded as a failed build: a
# rerun without the limit builds it. Under a limit too small for tuner's
# own files, tuner does not die of SIGXFSZ: its write fails (EFBIG) with a
# message naming the limit, and it exits non-zero, the journal resumable.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
write_study "$repo/study.yaml" limits <<'EOF2'
  opt: [-O2, -Os]
EOF2
# Each build writes 3 MB of its own before compiling.
sed -i 's|command: make -s -f|command: head -c 3000000 /dev/zero >"$TUNER_OUT/big" \&\& make -s -f|' \
	"$repo/study.yaml"
grep -q 'head -c 3000000' "$repo/study.yaml" || fail "could not edit the study"
git -C "$repo" add study.yaml && git -C "$repo" commit -q -m study

# under_limit BLOCKS OUT ARGS...: tuner ARGS under `ulimit -f BLOCKS` (of
# 1024 bytes, bash's), stdout and stderr into OUT; sets rc. SIGXFSZ is at
# its default, as in a shell that sets a limit.
under_limit() {
	local blocks=$1 out=$2
	shift 2
	rc=0
	(
		trap - XFSZ
		ulimit -f "$blocks"
		exec "$TUNER" "$@"
	) >"$out" 2>&1 || rc=$?
}

# 1. 1 MB: tuner's files fit, the builds' 3 MB do not.
under_limit 1024 "$TMPDIR/b.out" run -q -j 1 --results "$TMPDIR/res" "$repo/study.yaml"
[ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$rc" -lt 128 ] ||
	fail "builds past the file size limit: exit $rc: $(tail -n 5 "$TMPDIR/b.out")"
grep -q 'file size limit' "$TMPDIR/b.out" || fail "the limit is not named: $(cat "$TMPDIR/b.out")"
grep -q 'not recorded as a failed build' "$TMPDIR/b.out" ||
	fail "the build under the limit: $(cat "$TMPDIR/b.out")"
[ "$(count_records "$TMPDIR/res/journal.jsonl" build)" -eq 0 ] ||
	fail "a build killed by the file size limit was recorded: $(grep '"type":"build"' "$TMPDIR/res/journal.jsonl")"
# The same run without the limit builds and measures everything.
rc=0
"$TUNER" run -q -j 1 --results "$TMPDIR/res" "$repo/study.yaml" >"$TMPDIR/r.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "rerun without the limit: exit $rc: $(tail -n 8 "$TMPDIR/r.out")"
[ "$(grep '"type":"build"' "$TMPDIR/res/journal.jsonl" | grep -c '"status":"ok"')" -eq 2 ] ||
	fail "rerun without the limit: $(grep '"type":"build"' "$TMPDIR/res/journal.jsonl")"

# 2. 2 KB: the journal's own writes fail (builds that write little:
# their logs and artifacts fit). tuner says so and exits 1; it is not
# killed by SIGXFSZ (exit 153).
cat >"$repo/small.yaml" <<'EOF2'
study: small
source: {path: prog}
space:
  level: ["-DL=1", "-DL=2", "-DL=3", "-DL=4", "-DL=5", "-DL=6", "-DL=7", "-DL=8"]
build:
  command: 'echo "$TUNER_FLAGS" | sed "s/.*=//" >"$TUNER_OUT/art"'
  artifact: art
measure:
  command: 'echo "value $(( $(cat "$TUNER_ARTIFACT") * 10 ))"'
  same_code: separate
objectives:
  - {name: value, goal: min}
EOF2
git -C "$repo" add small.yaml && git -C "$repo" commit -q -m small
under_limit 2 "$TMPDIR/j.out" run -q -j 1 --results "$TMPDIR/res2" "$repo/small.yaml"
[ "$rc" -eq 1 ] || fail "tuner's writes past the file size limit: exit $rc, want 1: $(cat "$TMPDIR/j.out")"
grep -q "journal.jsonl': File too large (tuner's file size limit, ulimit -f, is 2048 bytes)" "$TMPDIR/j.out" ||
	fail "EFBIG and the limit not named: $(cat "$TMPDIR/j.out")"
[ "$(wc -c <"$TMPDIR/res2/journal.jsonl")" -le 2048 ] || fail "the journal is past the limit"
grep -q '"status":"complete"' "$TMPDIR/res2/journal.jsonl" && fail "the journal says complete"
rc=0
"$TUNER" run -q -j 1 --results "$TMPDIR/res2" "$repo/small.yaml" >"$TMPDIR/r2.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "rerun after the journal's write failed: exit $rc: $(tail -n 5 "$TMPDIR/r2.out")"
grep -q '"status":"complete"' "$TMPDIR/res2/journal.jsonl" || fail "the rerun did not complete"

# A measurement that dies of the limit is not recorded either.
sed -e 's/^study: small/study: measure/' -e 's/^  level: .*/  level: ["-DL=1"]/' \
	-e 's|^  command: .echo "value|  command: '"'"'head -c 3000000 /dev/zero >"$TUNER_OUT/m" \&\& echo "value|' \
	"$repo/small.yaml" >"$repo/measure.yaml"
grep -q 'head -c 3000000' "$repo/measure.yaml" || fail "could not write measure.yaml"
git -C "$repo" add measure.yaml && git -C "$repo" commit -q -m measure
under_limit 1024 "$TMPDIR/m.out" run -q --results "$TMPDIR/res3" "$repo/measure.yaml"
[ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$rc" -lt 128 ] ||
	fail "a measurement past the file size limit: exit $rc: $(cat "$TMPDIR/m.out")"
grep -q "measurement of .* failed: .*file size limit (ulimit -f: 1048576 bytes).*; not recorded" \
	"$TMPDIR/m.out" || fail "the measurement under the limit: $(cat "$TMPDIR/m.out")"
[ "$(count_records "$TMPDIR/res3/journal.jsonl" measure)" -eq 0 ] ||
	fail "a measurement killed by the file size limit was recorded"
rc=0
"$TUNER" run -q --results "$TMPDIR/res3" "$repo/measure.yaml" >"$TMPDIR/r3.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "rerun of the measurement without the limit: exit $rc: $(tail -n 5 "$TMPDIR/r3.out")"

# 3. Other files tuner writes: a report past the limit fails, said.
under_limit 1 "$TMPDIR/rep.out" report -o "$TMPDIR/report.html" --results "$TMPDIR/res2" "$repo/small.yaml"
[ "$rc" -eq 1 ] || fail "report past the file size limit: exit $rc: $(cat "$TMPDIR/rep.out")"
grep -q "File too large (tuner's file size limit, ulimit -f, is 1024 bytes)" "$TMPDIR/rep.out" ||
	fail "report: EFBIG not named: $(cat "$TMPDIR/rep.out")"
# ... and stdout into a file past the limit.
rc=0
(
	trap - XFSZ
	ulimit -f 1
	exec "$TUNER" report --help >"$TMPDIR/help.txt"
) 2>"$TMPDIR/help.err" || rc=$?
[ "$rc" -eq 1 ] || fail "stdout past the file size limit: exit $rc: $(cat "$TMPDIR/help.err")"
grep -q "cannot write the output: File too large (tuner's file size limit, ulimit -f, is 1024 bytes)" \
	"$TMPDIR/help.err" || fail "stdout: EFBIG not named: $(cat "$TMPDIR/help.err")"
echo "t_limits: ok"
