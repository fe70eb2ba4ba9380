# SPDX-License-Identifier: GPL-2.0-or-later
# Where commands run: every command (build, train, size, measure) in its
# build's own directory ($TUNER_OUT; training in the instrumented build's),
# so a study written with relative names works with parallel builds: here
# the build writes `prog` and reads `extra.c`, copied from the study's
# directory ($TUNER_STUDY_DIR), by relative names, and the measure command
# leaves `measured` where it runs. 4 configurations built 2 at a time,
# each its own program; tuner itself runs from another directory.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
mkdir -p "$repo/studies"
echo 'int tuner_extra(void) { return 1; }' >"$repo/studies/extra.c"
cat >"$repo/studies/cwd.yaml" <<'EOF2'
study: cwd
source: {repo: .., rev: HEAD, path: prog}
space:
  opt: [-O1, -O2]
  pgo: [off, on]
build:
  command: |
    cp "$TUNER_STUDY_DIR/extra.c" . &&
    cc $TUNER_FLAGS $(case $TUNER_PGO in generate) echo -fprofile-generate;; use) echo -fprofile-use -fprofile-dir="$TUNER_PROFILE_DIR" -Wno-missing-profile;; esac) \
      -o prog "$TUNER_SRC"/main.c "$TUNER_SRC"/packet.c "$TUNER_SRC"/flow.c "$TUNER_SRC"/pad.c extra.c &&
    pwd >built-in
  artifact: prog
  timeout: 300
train:
  command: './prog 100 >/dev/null && pwd >trained-in'
  timeout: 60
size: {of: artifact, measure: command, command: 'pwd >sized-in && wc -c <prog'}
measure:
  command: 'pwd >measured && echo 1'
  parser: number
  timeout: 60
objectives:
  - {name: score, goal: max}
  - {name: size, unit: bytes, goal: min}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m study
mkdir -p "$TMPDIR/elsewhere"
cd "$TMPDIR/elsewhere"
"$TUNER" run -q -j 2 --all --results "$TMPDIR/res" "$repo/studies/cwd.yaml" >"$TMPDIR/out" ||
	fail "run: $(cat "$TMPDIR/out")"
grep -q '^builds: 4 new (0 failed)' "$TMPDIR/out" || fail "$(cat "$TMPDIR/out")"
n=0
for d in "$TMPDIR"/res/builds/*/; do
	d=${d%/}
	n=$((n + 1))
	[ -x "$d/prog" ] || fail "no prog in $d"
	for f in built-in sized-in measured; do
		[ "$(cat "$d/$f" 2>/dev/null)" = "$d" ] || fail "$f: '$(cat "$d/$f" 2>/dev/null)', want $d"
	done
	if [ -d "$d/pgo-generate" ]; then
		[ "$(cat "$d/pgo-generate/trained-in")" = "$d/pgo-generate" ] ||
			fail "trained in '$(cat "$d/pgo-generate/trained-in")'"
	fi
done
[ $n -eq 4 ] || fail "$n build directories, want 4"
[ -z "$(ls -A "$TMPDIR/elsewhere")" ] || fail "a command wrote in tuner's directory: $(ls "$TMPDIR/elsewhere")"
echo ok
