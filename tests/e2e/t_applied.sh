# SPDX-License-Identifier: GPL-2.0-or-later
# The applied-flag check (build.applied), on OpenWrt's 5.4 story in
# miniature: a Makefile change makes -fno-reorder-blocks miss one file's
# compilation (overridden by a -freorder-blocks after it, filtered out, or
# the file built without $TUNER_FLAGS at all), nothing fails, and only the
# recorded switches tell. With gcc 12 -fno-reorder-blocks alone leaves the
# code byte-identical, so nothing but the switches could tell here.
#   - applied: record    the build gets -frecord-gcc-switches, the artifact's
#                        .GCC.command.line is read back (cross-checked with
#                        readelf), the journal, results.csv and pareto.json
#                        hold the verdict, stderr warns once per config;
#   - applied: {command} kbuild-style .cmd files list every compilation,
#                        also the one that lost all of $TUNER_FLAGS;
#   - a correct Makefile gives no warning; a check that finds nothing, or a
#     failing command, is a warning and never a failed build.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"

# The program: a packet loop (fastpath.c) with branches worth reordering.
mkdir -p "$repo/tmpl"
cat >"$repo/tmpl/fastpath.c" <<'C'
int route(unsigned x)
{
	unsigned h = x * 2654435761u;

	if ((h & 7) == 0)
		return -1;
	if (h & 0x100)
		return (int)(h >> 7) & 3;
	return (int)(h >> 3) & 1;
}
C
cat >"$repo/tmpl/util.c" <<'C'
unsigned checksum(unsigned s, int v)
{
	return (s << 5) + s + (unsigned)v;
}
C
cat >"$repo/tmpl/main.c" <<'C'
#include <stdio.h>
int route(unsigned x);
unsigned checksum(unsigned s, int v);
int main(void)
{
	unsigned s = 5381, ok = 0;

	for (unsigned i = 0; i < 100000; i++) {
		int r = route(i);
		ok += r >= 0;
		s = checksum(s, r);
	}
	printf("%u\n", ok + (s & 1));
	return 0;
}
C

# make_variant DIR FASTPATH_FLAGS OTHER_FLAGS: the tree with a Makefile
# that compiles fastpath.c with FASTPATH_FLAGS, the others with
# OTHER_FLAGS, and writes each object's command line to .NAME.o.cmd as
# kbuild does.
make_variant() {
	local dir=$repo/$1
	mkdir -p "$dir"
	cp "$repo"/tmpl/*.c "$dir/"
	{
		echo 'SRC := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))'
		echo 'OUT := $(TUNER_OUT)'
		echo "FLAGS_fastpath = $2"
		echo "FLAGS_util = $3"
		echo "FLAGS_main = $3"
		echo 'CMD = $(CC) -O2 $(FLAGS_$*) -c $< -o $@'
		echo '$(OUT)/prog: $(OUT)/fastpath.o $(OUT)/util.o $(OUT)/main.o'
		printf '\t$(CC) -o $@ $^\n'
		echo '$(OUT)/%.o: $(SRC)/%.c'
		printf "\\t@echo 'cmd_\$@ := \$(CMD)' > \$(OUT)/.\$*.o.cmd\\n"
		printf '\t$(CMD)\n'
	} >"$dir/Makefile"
}
make_variant good '$(TUNER_FLAGS)' '$(TUNER_FLAGS)'
# The 5.4 bug, two ways: a switch appended after the tuner's flags, and the
# flag filtered out for one file.
make_variant override '$(TUNER_FLAGS) -freorder-blocks' '$(TUNER_FLAGS)'
make_variant filtered '$(filter-out -fno-reorder-blocks,$(TUNER_FLAGS))' '$(TUNER_FLAGS)'
# One file built without $TUNER_FLAGS: it records nothing either.
make_variant dropped '' '$(TUNER_FLAGS)'
# No file gets $TUNER_FLAGS.
make_variant noflags '' ''

cmd_lines='cat "$TUNER_OUT"/.*.o.cmd | sed -n "s/^cmd_[^ ]* := //p"'

# write_applied_study FILE VARIANT APPLIED
write_applied_study() {
	cat >"$1" <<YAML
study: applied-$2
source: {repo: ., rev: HEAD, path: $2}
space:
  opt: [-O2]
  reorder: ["", -fno-reorder-blocks]
build:
  command: 'printf "%s" "\$TUNER_FLAGS" > "\$TUNER_OUT/build-flags"; make -s -f "\$TUNER_SRC/Makefile"'
  artifact: prog
  timeout: 120
  applied: $3
size: {of: artifact, measure: text}
measure:
  command: 'printf "%s" "\$TUNER_FLAGS" > "\$TUNER_OUT/measure-flags"; "\$TUNER_ARTIFACT"'
  # The fake measurement judges the flags, not the program: each build
  # is measured (the default shares builds whose code is the same).
  same_code: separate
  parser: number
objectives:
  - {name: result, goal: max}
  - {name: size, unit: bytes, goal: min}
YAML
}
for v in good override filtered dropped noflags; do
	write_applied_study "$repo/$v-record.yaml" $v record
done
for v in good dropped; do
	write_applied_study "$repo/$v-command.yaml" $v "{command: '$cmd_lines', timeout: 30}"
done
write_applied_study "$repo/good-failing.yaml" good "{command: 'echo half; exit 3'}"
# A kernel prints ~800 lines of ~2.5 KB (2 MB): every one is judged. The
# first version captured 1 MiB and judged the cut-off half line "absent".
big_lines='for i in $(seq 1200); do printf "gcc %s -c -o f$i.o %02000d\\n" "$TUNER_FLAGS" 0; done'
write_applied_study "$repo/good-big.yaml" good "{command: '$big_lines', timeout: 60}"
git -C "$repo" add -A && git -C "$repo" commit -q -m variants
cd "$repo"

# run NAME STUDY: runs it into $TMPDIR/NAME; stderr in $TMPDIR/NAME.err
run() {
	"$TUNER" run -q --results "$TMPDIR/$1" "$2" >"$TMPDIR/$1.out" 2>"$TMPDIR/$1.err" ||
		fail "run $2: $(cat "$TMPDIR/$1.out" "$TMPDIR/$1.err")"
}
# The latest build record of a configuration's flags in a journal.
build_record() {
	grep '"type":"build"' "$1" | grep -F "\"flags\":\"$2\"" | tail -n 1
}
# results.csv field by column name for the row with these flags.
csv_field() {
	tr -d '\r' <"$1" | awk -F, -v col="$2" -v flags="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$2 == flags { print c ? $c : "NO COLUMN " col }'

}
nrb='-O2 -fno-reorder-blocks'

# ---- a correct Makefile: everything in effect, no warning ----
run good good-record.yaml
if grep -q 'warning' "$TMPDIR/good.err"; then
	fail "correct Makefile warned: $(cat "$TMPDIR/good.err")"
fi
dir=$(ls -d "$TMPDIR"/good/builds/* | while read -r d; do
	[ "$(cat "$d/measure-flags")" = "$nrb" ] && echo "$d"; done)
[ -n "$dir" ] || fail "no build measured with '$nrb'"
# The build (only) got the record switch; journal and id keep the flags.
[ "$(cat "$dir/build-flags")" = "$nrb -frecord-gcc-switches" ] ||
	fail "build saw TUNER_FLAGS='$(cat "$dir/build-flags")'"
rec=$(build_record "$TMPDIR/good/journal.jsonl" "$nrb")
[ -n "$rec" ] || fail "no build record with flags '$nrb'"
# It reached gcc: binutils reads the same switches out of the artifact.
readelf -p .GCC.command.line "$dir/prog" >"$TMPDIR/good.readelf"
grep -q -- '-fno-reorder-blocks' "$TMPDIR/good.readelf" ||
	fail "readelf finds no -fno-reorder-blocks: $(cat "$TMPDIR/good.readelf")"
nlines=$(grep -c '^ *\[ *[0-9]*\] ' "$TMPDIR/good.readelf")
case "$rec" in
*"\"applied\":{\"source\":\"record\",\"lines\":$nlines,\"note\":null,\"flags\":[{\"flag\":\"-O2\",\"in_effect\":$nlines,"*"{\"flag\":\"-fno-reorder-blocks\",\"in_effect\":$nlines,\"overridden\":0,\"overridden_by\":null}]}"*) ;;
*) fail "journal applied object ($nlines lines per readelf): $rec" ;;
esac
[ "$(csv_field "$TMPDIR/good/results.csv" applied_lines "$nrb")" = "$nlines" ] ||
	fail "results.csv applied_lines: $(cat "$TMPDIR/good/results.csv")"
[ -z "$(csv_field "$TMPDIR/good/results.csv" not_applied "$nrb")" ] ||
	fail "results.csv not_applied for a correct Makefile"
echo "ok: correct Makefile, $nlines recorded switch sets, no warning"

# ---- the 5.4 bug: -freorder-blocks after the tuner's flags ----
run override override-record.yaml
want="-fno-reorder-blocks in effect in 1 of 2 recorded switch sets (overridden by -freorder-blocks in 1)"
[ "$(grep -c 'warning' "$TMPDIR/override.err")" -eq 1 ] ||
	fail "want one warning: $(cat "$TMPDIR/override.err")"
grep -qF -- "($nrb): $want" "$TMPDIR/override.err" ||
	fail "warning: $(cat "$TMPDIR/override.err")"
rec=$(build_record "$TMPDIR/override/journal.jsonl" "$nrb")
case "$rec" in
*'"lines":2,'*'{"flag":"-fno-reorder-blocks","in_effect":1,"overridden":1,"overridden_by":"-freorder-blocks"}'*) ;;
*) fail "journal: $rec" ;;
esac
[ "$(csv_field "$TMPDIR/override/results.csv" not_applied "$nrb")" = "-fno-reorder-blocks" ] ||
	fail "results.csv: $(cat "$TMPDIR/override/results.csv")"
[ -z "$(csv_field "$TMPDIR/override/results.csv" not_applied "-O2")" ] ||
	fail "results.csv blames -O2"
grep -q '"not_applied": \[ *"-fno-reorder-blocks" *\]' "$TMPDIR/override/pareto.json" ||
	grep -A1 '"not_applied": \[' "$TMPDIR/override/pareto.json" | grep -q '"-fno-reorder-blocks"' ||
	fail "pareto.json has no not_applied"
grep -qF -- "$nrb  [in effect in 1/2 only: -fno-reorder-blocks]" "$TMPDIR/override.out" ||
	fail "table: $(cat "$TMPDIR/override.out")"
# Again: nothing rebuilt, the verdict comes back from the journal.
"$TUNER" run -q --results "$TMPDIR/override" override-record.yaml >"$TMPDIR/again.out" 2>"$TMPDIR/again.err" ||
	fail "resume failed"
grep -q 'builds: 0 new (0 failed), 2 from the journal' "$TMPDIR/again.out" ||
	fail "resume rebuilt: $(cat "$TMPDIR/again.out")"
grep -qF -- "$want" "$TMPDIR/again.err" || fail "no warning on resume: $(cat "$TMPDIR/again.err")"
# tuner compare warns the same way, for the variant it builds.
"$TUNER" compare override-record.yaml --a "-O2" --b "$nrb" --repeats 1 --layout 2 \
	--results "$TMPDIR/cmp" >"$TMPDIR/cmp.out" 2>"$TMPDIR/cmp.err" || fail "compare failed"
grep -qF -- "($nrb): -fno-reorder-blocks in effect in 2 of 4 recorded switch sets of 2 builds (overridden by -freorder-blocks in 2)" \
	"$TMPDIR/cmp.err" || fail "compare: $(cat "$TMPDIR/cmp.err")"
[ "$(grep -c 'warning' "$TMPDIR/cmp.err")" -eq 1 ] || fail "compare warned more than once"
echo "ok: override found: $want"

# ---- the flag filtered out of one file's compilation ----
run filtered filtered-record.yaml
grep -qF -- "-fno-reorder-blocks in effect in 1 of 2 recorded switch sets (absent from 1)" \
	"$TMPDIR/filtered.err" || fail "filtered: $(cat "$TMPDIR/filtered.err")"
echo "ok: filtered out found"

# ---- {command}: the .cmd files see every compilation ----
run goodcmd good-command.yaml
if grep -q 'warning' "$TMPDIR/goodcmd.err"; then
	fail "correct Makefile warned (command): $(cat "$TMPDIR/goodcmd.err")"
fi
case "$(build_record "$TMPDIR/goodcmd/journal.jsonl" "$nrb")" in
*'"applied":{"source":"command","lines":3,'*'{"flag":"-fno-reorder-blocks","in_effect":3,'*) ;;
*) fail "journal (command): $(build_record "$TMPDIR/goodcmd/journal.jsonl" "$nrb")" ;;
esac
run droppedcmd dropped-command.yaml
grep -qF -- "($nrb): -fno-reorder-blocks in effect in 2 of 3 compiler command lines (absent from 1)" \
	"$TMPDIR/droppedcmd.err" || fail "dropped (command): $(cat "$TMPDIR/droppedcmd.err")"
[ "$(csv_field "$TMPDIR/droppedcmd/results.csv" not_applied "$nrb")" = "-fno-reorder-blocks" ] ||
	fail "results.csv (command): $(cat "$TMPDIR/droppedcmd/results.csv")"
echo "ok: command form finds the file built without \$TUNER_FLAGS"

# ---- nothing recorded, or the command fails: warnings, builds ok ----
run noflags noflags-record.yaml
grep -q 'no .GCC.command.line in .*/prog: the compiler did not get -frecord-gcc-switches' \
	"$TMPDIR/noflags.err" || fail "noflags: $(cat "$TMPDIR/noflags.err")"
[ "$(csv_field "$TMPDIR/noflags/results.csv" status "$nrb")" = ok ] ||
	fail "a build without recorded switches failed: $(cat "$TMPDIR/noflags/results.csv")"
[ "$(csv_field "$TMPDIR/noflags/results.csv" applied_lines "$nrb")" = 0 ] ||
	fail "noflags applied_lines: $(cat "$TMPDIR/noflags/results.csv")"
run big good-big.yaml
rec=$(build_record "$TMPDIR/big/journal.jsonl" "$nrb")
case $rec in
*'"applied":{"source":"command","lines":1200,"note":null,'*'{"flag":"-fno-reorder-blocks","in_effect":1200,'*) ;;
*) fail "2.4 MB of command lines: $rec" ;;
esac
grep -q 'warning' "$TMPDIR/big.err" && fail "2.4 MB of command lines warned: $(cat "$TMPDIR/big.err")"
run failing good-failing.yaml
grep -qF 'build.applied command failed with status 3' "$TMPDIR/failing.err" ||
	fail "failing command: $(cat "$TMPDIR/failing.err")"
[ "$(csv_field "$TMPDIR/failing/results.csv" status "$nrb")" = ok ] ||
	fail "a failing applied command failed the build"
echo ok
