# SPDX-License-Identifier: GPL-2.0-or-later
# train.share: check: PGO configurations that differ only in switches gcc
# applies after instrumenting (block order, alignment) train the same
# profile; once a pair, trained both, got byte-identical profiles for a
# kind of switch, the others use their lead's profile instead of building
# instrumented and training. 12 PGO configurations (-O2, -O1 x
# -fno-reorder-blocks x 3 function alignments), built with real gcc PGO and
# trained by running the program: 2 leads and 2 checking pairs train (4),
# 8 use a lead's profile. Their programs are the very ones the same study
# makes with every configuration training its own (share: own). A rerun
# trains nothing. A training whose profile depends on the flags refutes
# every kind: each configuration trains its own, and a note says so.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
study() { # NAME SHARE EXTRA-TRAIN-COMMAND
	cat >"$repo/$1.yaml" <<EOF2
study: $1
source: {repo: ., rev: HEAD, path: prog}
space:
  opt: [-O2, -O1]
  reorder: ["", -fno-reorder-blocks]
  align: ["", -falign-functions=32, -falign-functions=64]
  pgo: [on]
build:
  command: make -s -f "\$TUNER_SRC/Makefile"
  artifact: prog
  timeout: 300
train:
  command: 'echo "\$TUNER_CONFIG_ID" >>"$TMPDIR/trained-$1"; rm -f *.gcda; "\$TUNER_ARTIFACT" 20000 >/dev/null && cp *.gcda "\$TUNER_PROFILE_DIR"/$3'
  timeout: 120
  share: $2
size: {of: artifact, measure: text}
objectives:
  - {name: size, unit: bytes, goal: min}
EOF2
	git -C "$repo" add "$1.yaml" && git -C "$repo" commit -q -m "$1"
}
study share check ''
study own own ''
# The profile holds the flags: no two configurations train alike.
study refuted check '; echo "$TUNER_FLAGS" >"$TUNER_PROFILE_DIR/flags"'

"$TUNER" check "$repo/share.yaml" | grep -qx 'note: 10 PGO configurations are predicted to train the same profile as another (they differ only in -falign-functions, -freorder-blocks, which gcc applies after instrumenting): with train.share: check, they use its profile once a pair, trained both, confirms it' ||
	fail "check: $("$TUNER" check "$repo/share.yaml")"

res=$TMPDIR/res
"$TUNER" run -q -j 2 --all --results "$res" "$repo/share.yaml" >"$TMPDIR/out1" 2>"$TMPDIR/err1" ||
	fail "run: $(cat "$TMPDIR/err1")"
j=$res/journal.jsonl
[ "$(count_records "$j" build)" -eq 12 ] || fail "not 12 build records"
[ "$(wc -l <"$TMPDIR/trained-share")" -eq 4 ] ||
	fail "trained $(wc -l <"$TMPDIR/trained-share") times, want 4 (2 leads, 2 checks)"
grep -q '^profiles: 8 PGO builds used an earlier build'"'"'s profile (no instrumented build, no training); these leave the profile as it is, as predicted and checked by a pair that trained the same one: ' \
	"$TMPDIR/out1" || fail "no line on the profiles: $(cat "$TMPDIR/out1")"
for k in -falign-functions -freorder-blocks; do
	grep '^profiles: ' "$TMPDIR/out1" | grep -q -- "$k ([0-9a-f]\{16\} and [0-9a-f]\{16\})" ||
		fail "$k not confirmed: $(grep '^profiles' "$TMPDIR/out1")"
done
field() { echo "$1" | sed "s/.*\"$2\":\"\([^\"]*\)\".*/\1/"; }
shared=$(grep '"profile_from"' "$j")
[ "$(echo "$shared" | wc -l)" -eq 8 ] || fail "not 8 records with profile_from"
echo "$shared" | while read -r rec; do
	from=$(grep "\"key\":\"$(field "$rec" profile_from)\"" "$j")
	[ -n "$from" ] || fail "profile_from names no build: $rec"
	[ "$(field "$rec" profile)" = "$(field "$from" profile)" ] || fail "not its lead's profile: $rec"
	if echo "$from" | grep -q '"profile_from"'; then fail "a lead that did not train: $from"; fi
	d=$(field "$rec" dir)
	[ ! -e "$d/pgo-generate" ] || fail "an instrumented build where none was needed: $d"
	grep -q '^== tuner: no instrumented build or training: the profile is the one build [0-9a-f]\{16\} trained' \
		"$d/build.log" || fail "no note in $d/build.log"
	ls "$d"/profile/*.gcda >/dev/null || fail "no profile copied into $d"
done

# The same programs as when each configuration trains its own (not the
# same profile bytes: gcc's checksums name the source's directory, which is
# each results directory's own).
"$TUNER" run -q -j 2 --all --results "$TMPDIR/own" "$repo/own.yaml" >"$TMPDIR/out2" 2>"$TMPDIR/err2" ||
	fail "own: $(cat "$TMPDIR/err2")"
[ "$(wc -l <"$TMPDIR/trained-own")" -eq 12 ] || fail "share: own did not train 12 times"
if grep -q '"profile_from"' "$TMPDIR/own/journal.jsonl"; then fail "share: own shared a profile"; fi
grep '"type":"build"' "$j" | while read -r rec; do
	mine=$(grep "\"config\":\"$(field "$rec" config)\"" "$TMPDIR/own/journal.jsonl")
	[ -n "$(field "$rec" code)" ] && [ "$(field "$rec" code)" = "$(field "$mine" code)" ] ||
		fail "$(field "$rec" flags): not the program its own training makes"
done

# A rerun trains nothing and says the same.
"$TUNER" run -q -j 2 --all --results "$res" "$repo/share.yaml" >"$TMPDIR/out3" 2>"$TMPDIR/err3"
grep -q '^builds: 0 new (0 failed), 12 from the journal' "$TMPDIR/out3" ||
	fail "a rerun: $(grep '^builds' "$TMPDIR/out3")"
[ "$(wc -l <"$TMPDIR/trained-share")" -eq 4 ] || fail "a rerun trained again"
grep -q '^profiles: 8 PGO builds used' "$TMPDIR/out3" || fail "a rerun forgets: $(cat "$TMPDIR/out3")"

# Refuted: every configuration trains its own, and a note names a pair.
"$TUNER" run -q -j 2 --all --results "$TMPDIR/ref" "$repo/refuted.yaml" \
	>"$TMPDIR/out4" 2>"$TMPDIR/err4" || fail "refuted: $(cat "$TMPDIR/err4")"
[ "$(wc -l <"$TMPDIR/trained-refuted")" -eq 12 ] ||
	fail "refuted: trained $(wc -l <"$TMPDIR/trained-refuted") times, want 12"
if grep -q '"profile_from"' "$TMPDIR/ref/journal.jsonl"; then fail "refuted, yet a profile was shared"; fi
grep -q 'note: predicted that -f[a-z-]* leaves the PGO profile as it is, but [0-9a-f]\{16\} and [0-9a-f]\{16\} trained different profiles' \
	"$TMPDIR/err4" || fail "refuted without a note: $(cat "$TMPDIR/err4")"
echo ok
