# SPDX-License-Identifier: GPL-2.0-or-later
# build.inputs: a build script outside the source tree is part of the build
# key. A rerun rebuilds nothing; editing the script (even a comment)
# rebuilds every configuration once; a rerun after that rebuilds nothing.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
mkdir -p "$TMPDIR/tools"
printf '#!/bin/sh\n# version 1\nexec make -s -f "$TUNER_SRC/Makefile"\n' >"$TMPDIR/tools/build.sh"
write_study "$repo/study.yaml" inputs <<'EOF2'
  opt: [-O2, -Os]
EOF2
# The command runs the script; inputs names it relative to the study file.
sed -i -e "s|  command: make -s -f \"\$TUNER_SRC/Makefile\"|  command: sh $TMPDIR/tools/build.sh\n  inputs: [../tools/build.sh]|" \
	"$repo/study.yaml"
grep -q 'inputs: \[../tools/build.sh\]' "$repo/study.yaml" || fail "could not edit the study"

run() { "$TUNER" run -q --all --results "$TMPDIR/res" "$repo/study.yaml" >"$TMPDIR/out" || fail "run: $(cat "$TMPDIR/out")"; }
builds() { count_records "$TMPDIR/res/journal.jsonl" build; }
run
[ "$(builds)" -eq 2 ] || fail "first run: $(builds) builds"
run
[ "$(builds)" -eq 2 ] || fail "a rerun built again: $(builds) builds"
sed -i 's/# version 1/# version 2/' "$TMPDIR/tools/build.sh"
run
[ "$(builds)" -eq 4 ] || fail "after editing the build script: $(builds) builds, want 4"
# (Options may follow the study file too.)
"$TUNER" run "$repo/study.yaml" -q --all --results "$TMPDIR/res" >"$TMPDIR/out" ||
	fail "options after the study file: $(cat "$TMPDIR/out")"
[ "$(builds)" -eq 4 ] || fail "a rerun after the edit built again: $(builds) builds"
# A missing input is a study error with its location, before anything runs.
rm "$TMPDIR/tools/build.sh"
set +e
"$TUNER" run -q --all --results "$TMPDIR/res" "$repo/study.yaml" >/dev/null 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "missing input: exit $rc"
grep -q "study.yaml:[0-9]*:[0-9]*: build.inputs: cannot read '../tools/build.sh'" "$TMPDIR/err" ||
	fail "missing input: $(cat "$TMPDIR/err")"
[ "$(builds)" -eq 4 ] || fail "the failed run touched the journal"
echo ok
