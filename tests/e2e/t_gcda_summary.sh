# SPDX-License-Identifier: GPL-2.0-or-later
# targets/qemu-linux/gcda-summary.c on real profiles: a program built with
# -fprofile-arcs and run writes a .gcda; with its object summary cut out
# (what the kernel's debugfs files look like) GCC 12's -fprofile-use
# ignores it without a word, the object comes out as if there were no
# profile; after gcda-summary the profile is used, and the summary equals
# the one libgcov wrote. The tool runs under ASan and UBSan here.
. "$ROOT/tests/e2e/lib.sh"

tool=$TMPDIR/gcda-summary
gcc -std=c11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$tool" "$ROOT/targets/qemu-linux/gcda-summary.c" || fail "gcda-summary does not build"
dump() { gcov-dump -l "$1" | cut -d: -f3-; }

mkdir -p "$TMPDIR/gen/obj" "$TMPDIR/use/obj"
cat >"$TMPDIR/p.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
/* Called only with many arguments: never, in the training run. */
__attribute__((noinline)) long rare(long x)
{
	for (int i = 0; i < 100; i++)
		x = x * 31 + i % 7;
	return x;
}
int main(int argc, char **argv)
{
	long s = 0;
	for (long i = 0; i < 100000; i++)
		s += (i % 3) ? i : -i;
	if (argc > 5)
		s += rare(atol(argv[1]));
	printf("%ld\n", s);
	return 0;
}
EOF
(cd "$TMPDIR/gen" && gcc -O2 -fprofile-arcs -c -o obj/p.o ../p.c && gcc -fprofile-arcs -o p obj/p.o && ./p >/dev/null) ||
	fail "the training program"
good=$TMPDIR/gen/obj/p.gcda
dump "$good" | grep -q 'OBJECT_SUMMARY runs=1' || fail "libgcov wrote no summary: $(dump "$good" | head -5)"

# The kernel's layout: header (4 words), then the functions; no summary.
mkdir -p "$TMPDIR/k/obj"
{ head -c 16 "$good"; tail -c +33 "$good"; } >"$TMPDIR/k/obj/p.gcda"
dump "$TMPDIR/k/obj/p.gcda" | grep -q OBJECT_SUMMARY && fail "the summary was not cut out"

# build NAME [GCDA]: the -fprofile-use object, with that profile beside it.
build() {
	rm -f "$TMPDIR/use/obj/p.gcda"
	[ -z "${2:-}" ] || cp "$2" "$TMPDIR/use/obj/p.gcda"
	(cd "$TMPDIR/use" && gcc -O2 -fprofile-use -fprofile-correction -Wno-missing-profile \
		-c -o obj/p.o ../p.c) || fail "use build $1"
	cp "$TMPDIR/use/obj/p.o" "$TMPDIR/$1.o"
}
build none
build nosummary "$TMPDIR/k/obj/p.gcda"
cmp -s "$TMPDIR/none.o" "$TMPDIR/nosummary.o" ||
	fail "GCC used a profile without an object summary: the tool's reason is gone"

out=$("$tool" "$TMPDIR/k") || fail "gcda-summary failed"
echo "$out"
[ "$out" = "1 .gcda files, 1 without an object summary; summary runs=1 sum_max=$(dump "$good" |
	sed -n 's/.*OBJECT_SUMMARY runs=1, sum_max=//p')" ] || fail "gcda-summary said: $out"
# The same summary as libgcov's, and every other record unchanged.
diff <(dump "$good") <(dump "$TMPDIR/k/obj/p.gcda") || fail "the rewritten file differs from libgcov's"
build fixed "$TMPDIR/k/obj/p.gcda"
cmp -s "$TMPDIR/none.o" "$TMPDIR/fixed.o" && fail "the profile with a summary was not used either"
# Used: the never-run function went to .text.unlikely.
objdump -t "$TMPDIR/fixed.o" | grep -E '\.text\.unlikely.* rare$' >/dev/null ||
	fail "rare() is not in .text.unlikely: $(objdump -t "$TMPDIR/fixed.o" | grep rare)"
objdump -t "$TMPDIR/none.o" | grep -E '\.text\.unlikely.* rare$' >/dev/null &&
	fail "rare() is cold without a profile too: the check proves nothing"

# A second run replaces the summary (runs given), and changes nothing else.
cp "$TMPDIR/k/obj/p.gcda" "$TMPDIR/once.gcda"
out=$("$tool" --runs 3 "$TMPDIR/k") || fail "second run failed"
echo "$out" | grep -q '^1 .gcda files, 0 without an object summary; summary runs=3 ' || fail "second run: $out"
diff <(dump "$TMPDIR/once.gcda" | grep -v OBJECT_SUMMARY) <(dump "$TMPDIR/k/obj/p.gcda" | grep -v OBJECT_SUMMARY) ||
	fail "the second run changed the counters"
"$tool" "$TMPDIR/k" >/dev/null && cmp -s "$TMPDIR/once.gcda" "$TMPDIR/k/obj/p.gcda" ||
	fail "runs 1 again does not give back the same file"

# Bad input: a truncated file stops the run before anything is rewritten.
mkdir -p "$TMPDIR/bad"
cp "$TMPDIR/gen/obj/p.gcda" "$TMPDIR/bad/a.gcda"
{ head -c 16 "$good"; tail -c +33 "$good"; } >"$TMPDIR/bad/b.gcda"
head -c 40 "$good" >"$TMPDIR/bad/c.gcda"
cp "$TMPDIR/bad/b.gcda" "$TMPDIR/b.before"
set +e
"$tool" "$TMPDIR/bad" >"$TMPDIR/out" 2>"$TMPDIR/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "truncated file: exit $rc"
grep -q "c.gcda: offset [0-9]*: record length runs past the end" "$TMPDIR/err" || fail "truncated: $(cat "$TMPDIR/err")"
cmp -s "$TMPDIR/b.before" "$TMPDIR/bad/b.gcda" || fail "a file was rewritten although another failed"
[ ! -s "$TMPDIR/out" ] || fail "printed a result after failing"
echo 'this is not a gcov profile at all' >"$TMPDIR/bad/c.gcda"
set +e
"$tool" "$TMPDIR/bad" 2>"$TMPDIR/err" >/dev/null
rc=$?
set -e
[ $rc -eq 1 ] && grep -q "c.gcda: offset 0: not a .gcda file" "$TMPDIR/err" || fail "not a gcda: $rc $(cat "$TMPDIR/err")"
mkdir "$TMPDIR/empty"
set +e
"$tool" "$TMPDIR/empty" 2>"$TMPDIR/err"
rc=$?
"$tool" --runs 0 "$TMPDIR/k" 2>/dev/null
rc0=$?
set -e
[ $rc -eq 1 ] && grep -q 'no .gcda files under' "$TMPDIR/err" || fail "empty dir: $rc $(cat "$TMPDIR/err")"
[ $rc0 -eq 2 ] || fail "--runs 0: exit $rc0"
"$tool" --help | grep -q '^usage: gcda-summary' || fail "--help"
echo ok
