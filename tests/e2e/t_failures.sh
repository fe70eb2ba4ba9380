# SPDX-License-Identifier: GPL-2.0-or-later
# Failures that speak: a run whose configurations fail to build or to
# measure exits 3 and ends with a summary (how many failed, of what kind,
# the log of each); a rerun keeps the failures (they are results), and
# `--retry-failed` builds and measures them again, after which every
# later run is clean. With every build failed, no note speaks of samples.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
broken=$TMPDIR/broken
cat >"$repo/study.yaml" <<EOF2
study: failures
source: {repo: ., rev: HEAD, path: prog}
space:
  x: ["", -DBREAK_BUILD, -DBREAK_MEASURE]
build:
  command: 'case "\$TUNER_FLAGS" in *BREAK_BUILD*) if [ -e "$broken" ]; then echo "the build broke" >&2; exit 1; fi ;; esac; make -s -f "\$TUNER_SRC/Makefile"'
  artifact: prog
  timeout: 300
size: {of: artifact, measure: text}
measure:
  command: 'case "\$TUNER_FLAGS" in *BREAK_MEASURE*) if [ -e "$broken" ]; then echo "the router is down" >&2; exit 1; fi ;; esac; "\$TUNER_SRC/measure.sh"'
  # It judges the flags (a -D the program never reads) or its own files,
  # not only the program: each build is measured.
  same_code: separate
  parser: number
  timeout: 120
objectives:
  - {name: instructions, goal: min}
  - {name: size, unit: bytes, goal: min}
EOF2
git -C "$repo" add study.yaml && git -C "$repo" commit -q -m study
res=$TMPDIR/res

# run OUT [options]: the exit status, output in OUT
run() {
	local out=$1 rc
	shift
	set +e
	"$TUNER" run -q -j 2 --all --results "$res" "$@" "$repo/study.yaml" >"$out" 2>&1
	rc=$?
	set -e
	echo $rc
}

touch "$broken"
rc=$(run "$TMPDIR/out1")
[ "$rc" = 3 ] || fail "exit $rc with failed configurations, want 3: $(cat "$TMPDIR/out1")"
grep -q '^failed: 2 of 3 configurations (1 failed, 1 measure-failed); `tuner run --retry-failed` tries them again:$' "$TMPDIR/out1" ||
	fail "no failure summary: $(cat "$TMPDIR/out1")"
blog=$(grep -A1 'BREAK_BUILD  \[failed\]' "$TMPDIR/out1" | tail -1 | tr -d ' ')
mlog=$(grep -A1 'BREAK_MEASURE  \[measure-failed\]' "$TMPDIR/out1" | tail -1 | tr -d ' ')
grep -q 'the build broke' "$blog" || fail "the build failure's log ($blog) does not say why"
grep -q 'the router is down' "$mlog" || fail "the measure failure's log ($mlog) does not say why"

# A failure is a result: a rerun does not try again.
rc=$(run "$TMPDIR/out2")
[ "$rc" = 3 ] || fail "rerun: exit $rc, want 3"
grep -q '^builds: 0 new (0 failed), 3 from the journal; measurements: 0 new' "$TMPDIR/out2" ||
	fail "a rerun retried: $(grep '^builds:' "$TMPDIR/out2")"

# --retry-failed, with the cause gone: built and measured again, clean.
rm "$broken"
rc=$(run "$TMPDIR/out3" --retry-failed)
[ "$rc" = 0 ] || fail "--retry-failed: exit $rc: $(cat "$TMPDIR/out3")"
grep -q '^builds: 1 new (0 failed), 2 from the journal; measurements: 2 new' "$TMPDIR/out3" ||
	fail "--retry-failed did not build 1 and measure 2: $(grep '^builds:' "$TMPDIR/out3")"
if grep -q '^failed:' "$TMPDIR/out3"; then fail "--retry-failed still reports failures"; fi
if grep -q 'measure-failed\|\[failed\]' "$TMPDIR/out3"; then fail "a failure left in the table"; fi

# Later runs without the option see the retried results.
rc=$(run "$TMPDIR/out4")
[ "$rc" = 0 ] || fail "after the retry: exit $rc: $(cat "$TMPDIR/out4")"
grep -q '^builds: 0 new (0 failed), 3 from the journal; measurements: 0 new' "$TMPDIR/out4" ||
	fail "after the retry, work again: $(grep '^builds:' "$TMPDIR/out4")"

# Every build failing, with repeats: 3: no note of "one sample per
# configuration" (there is none at all).
sed -e 's/^  x: .*/  x: [-DBREAK_BUILD, "-DBREAK_BUILD -DY"]/' -e 's/^  parser: number/  parser: number\n  repeats: 3/' \
	"$repo/study.yaml" >"$repo/all.yaml"
git -C "$repo" add all.yaml && git -C "$repo" commit -q -m all
touch "$broken"
set +e
"$TUNER" run -q --all --results "$TMPDIR/all" "$repo/all.yaml" >"$TMPDIR/out5" 2>&1
rc=$?
set -e
[ $rc -eq 3 ] || fail "all failed: exit $rc"
grep -q '^failed: 2 of 2 configurations (2 failed)' "$TMPDIR/out5" || fail "all failed: $(cat "$TMPDIR/out5")"
if grep -q 'one sample per configuration' "$TMPDIR/out5"; then
	fail "every build failed, yet 'one sample per configuration'"
fi
echo ok
