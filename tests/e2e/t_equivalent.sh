# SPDX-License-Identifier: GPL-2.0-or-later
# build.equivalent: skip: a configuration GCC is predicted to build as an
# earlier one (gcc ignores -falign-functions at -Os) is not built once one
# such pair, built, made the same code. 6 configurations (-Os and -O1,
# each with 3 function alignments): the first -Os twin is built to check
# the prediction, the second is recorded as its lead's build (its
# artifact, code and size; a build.log that says why), the -O1 ones are
# all built. A rerun builds nothing. When the build puts the flags in the
# program (data), the pair differs: the prediction is refuted, said so,
# and every configuration is built.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
study() { # NAME BUILD-COMMAND
	cat >"$repo/$1.yaml" <<EOF2
study: $1
source: {repo: ., rev: HEAD, path: prog}
space:
  opt: [-Os, -O1]
  align: ["", -falign-functions=32, -falign-functions=64]
build:
  command: $2
  artifact: prog
  timeout: 300
  applied: record
  equivalent: skip
size: {of: artifact, measure: text}
measure:
  command: 'echo "\$TUNER_CONFIG_ID" >>"$TMPDIR/measured-$1"; "\$TUNER_SRC/measure.sh"'
  parser: number
  timeout: 120
  same_code: share
objectives:
  - {name: instructions, goal: min}
  - {name: size, unit: bytes, goal: min}
EOF2
	git -C "$repo" add "$1.yaml" && git -C "$repo" commit -q -m "$1"
}
study skip 'make -s -f "$TUNER_SRC/Makefile"'
# The flags as a string the program keeps: no two configurations alike.
study refuted 'printf "const char tuner_flags[] = \"%s\";\n" "$TUNER_FLAGS" >"$TUNER_OUT/flags.c" && cd "$TUNER_OUT" && cc $TUNER_FLAGS -o prog "$TUNER_SRC"/main.c "$TUNER_SRC"/packet.c "$TUNER_SRC"/flow.c "$TUNER_SRC"/pad.c flags.c'

# check counts them before anything is built.
"$TUNER" check "$repo/skip.yaml" | grep -qx 'note: 2 configurations are predicted to build the same code as another (gcc ignores -falign-functions=32, -falign-functions=64 at -Os and -Oz): with build.equivalent: skip, they are not built once one such pair, built, confirms it' ||
	fail "check: $("$TUNER" check "$repo/skip.yaml")"

res=$TMPDIR/res
"$TUNER" run -q -j 2 --all --results "$res" "$repo/skip.yaml" >"$TMPDIR/out1" 2>"$TMPDIR/err1"
# A build not made is not a build whose flags went unchecked.
if grep -q 'build.applied' "$TMPDIR/err1"; then fail "applied: $(cat "$TMPDIR/err1")"; fi
j=$res/journal.jsonl
[ "$(count_records "$j" build)" -eq 6 ] || fail "not 6 build records"
grep -q '^builds: 5 new (0 failed), 1 not needed, 0 from the journal' "$TMPDIR/out1" ||
	fail "not 5 builds and 1 not needed: $(grep '^builds' "$TMPDIR/out1")"
grep -q '^equivalent: 1 build not made: gcc ignores -falign-functions at -Os and -Oz, as predicted (checked: [0-9a-f]\{16\} built the same code as [0-9a-f]\{16\})$' \
	"$TMPDIR/out1" || fail "no line on the prediction: $(cat "$TMPDIR/out1")"
# The one not built: -Os -falign-functions=64 (the =32 one checked it),
# recorded as the -Os build: its artifact and code, and a log saying so.
shared=$(grep '"same_build"' "$j")
[ "$(echo "$shared" | wc -l)" -eq 1 ] || fail "not 1 shared build record"
echo "$shared" | grep -q '"flags":"-Os -falign-functions=64"' || fail "shared: $shared"
echo "$shared" | grep -q '"ignored":"-falign-functions=64"' || fail "shared without ignored: $shared"
lead_key=$(echo "$shared" | sed 's/.*"same_build":"\([0-9a-f]*\)".*/\1/')
lead=$(grep "\"key\":\"$lead_key\"" "$j")
echo "$lead" | grep -q '"flags":"-Os"' || fail "the lead is not -Os: $lead"
field() { echo "$1" | sed "s/.*\"$2\":\"\([^\"]*\)\".*/\1/"; }
[ "$(field "$shared" artifact)" = "$(field "$lead" artifact)" ] || fail "not the lead's artifact"
[ "$(field "$shared" code)" = "$(field "$lead" code)" ] || fail "not the lead's code"
checker=$(grep '"flags":"-Os -falign-functions=32"' "$j")
[ "$(field "$checker" code)" = "$(field "$lead" code)" ] ||
	fail "the checking pair differs, yet a build was skipped"
grep -q '^== tuner: not built: gcc ignores -falign-functions=64 at -Os' \
	"$(field "$shared" dir)/build.log" || fail "no note in the skipped build's log"
# Measured as the same program as -Os.
[ "$(wc -l <"$TMPDIR/measured-skip")" -eq 4 ] ||
	fail "measured $(wc -l <"$TMPDIR/measured-skip") times, want 4 programs"
[ "$(grep -c '\[same code as [0-9a-f]\{16\}\]' "$TMPDIR/out1")" -eq 2 ] ||
	fail "the table does not name 2 twins: $(cat "$TMPDIR/out1")"

# A rerun builds and measures nothing, and says the same.
"$TUNER" run -q -j 2 --all --results "$res" "$repo/skip.yaml" >"$TMPDIR/out2" 2>"$TMPDIR/err2"
if grep -q 'build.applied' "$TMPDIR/err2"; then fail "applied, rerun: $(cat "$TMPDIR/err2")"; fi
grep -q '^builds: 0 new (0 failed), 6 from the journal' "$TMPDIR/out2" ||
	fail "a rerun: $(grep '^builds' "$TMPDIR/out2")"
[ "$(wc -l <"$TMPDIR/measured-skip")" -eq 4 ] || fail "a rerun measured again"
grep -q '^equivalent: 1 build not made' "$TMPDIR/out2" || fail "a rerun forgets the prediction"

# Refuted: every configuration built, and a note names the pair.
"$TUNER" run -q -j 2 --all --results "$TMPDIR/ref" "$repo/refuted.yaml" \
	>"$TMPDIR/out3" 2>"$TMPDIR/err3"
grep -q '^builds: 6 new (0 failed), 0 from the journal' "$TMPDIR/out3" ||
	fail "refuted: $(grep '^builds' "$TMPDIR/out3")"
if grep -q '"same_build"' "$TMPDIR/ref/journal.jsonl"; then fail "refuted, yet a build was skipped"; fi
grep -q 'note: predicted that gcc ignores -falign-functions at -Os and -Oz in builds, but [0-9a-f]\{16\} and [0-9a-f]\{16\} built different code' \
	"$TMPDIR/err3" || fail "refuted without a note: $(cat "$TMPDIR/err3")"
echo ok
