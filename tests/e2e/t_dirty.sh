# SPDX-License-Identifier: GPL-2.0-or-later
# Uncommitted changes never reach a build unless --dirty says so; every
# result records the commit and whether the source was dirty.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
cat >"$repo/study.yaml" <<'EOF2'
study: dirty
source: {path: prog}
space:
  opt: [-O2]
build: {command: 'cat "$TUNER_SRC/version" > "$TUNER_OUT/art"', artifact: art}
measure: {command: 'cat "$TUNER_ARTIFACT"'}
objectives:
  - {name: version, goal: max}
EOF2
echo 1 >"$repo/prog/version"
git -C "$repo" add -A && git -C "$repo" commit -q -m v1
commit=$(git -C "$repo" rev-parse HEAD)
echo 2 >"$repo/prog/version"

"$TUNER" run -q --results "$TMPDIR/res" "$repo/study.yaml" >"$TMPDIR/out" 2>"$TMPDIR/err"
grep -q 'uncommitted changes; they were not built' "$TMPDIR/err" || fail "no note about the dirty work tree"
grep -q '"dirty":false' "$TMPDIR/res/journal.jsonl" || fail "build not recorded clean"
grep -q "\"commit\":\"$commit\"" "$TMPDIR/res/journal.jsonl" || fail "commit not recorded"
grep -q '"version":1' "$TMPDIR/res/journal.jsonl" || fail "committed version not measured"

"$TUNER" run -q --dirty --results "$TMPDIR/res" "$repo/study.yaml" >"$TMPDIR/out2"
grep -q '"dirty":true' "$TMPDIR/res/journal.jsonl" || fail "dirty build not recorded dirty"
grep -q '"version":2' "$TMPDIR/res/journal.jsonl" || fail "--dirty did not build the work tree"
grep -q "builds: 1 new" "$TMPDIR/out2" || fail "dirty tree reused the clean build"
[ "$(git -C "$repo" status --porcelain)" = " M prog/version" ] || fail "the work tree was changed"
echo ok
