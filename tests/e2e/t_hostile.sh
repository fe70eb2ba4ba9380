# SPDX-License-Identifier: GPL-2.0-or-later
# What tuner writes for others to read cannot be turned against them,
# and paths stay inside, numbered as issue 39's items (4 is in
# tests/unit/test_parse.c, 5 in t_watch_recover.sh, 6 in t_slurm.sh,
# 7 in t_compare.sh, 8 in t_diff.sh, 9 in t_limits.sh, 10 in
# t_optin_deps.sh):
#  1. a file written by name (tuner report -o, results) is replaced only
#     where it is a regular file or absent: "-" and /dev/stdout are
#     standard output, a FIFO or a character device is written through
#     (one nobody reads within 5 s is an error), a symbolic link to a file or a
#     directory is refused and left as it was
#  2. build.artifact stays inside $TUNER_OUT: a ".." part is refused
#     by the loader (file:line:col), an artifact that is a link out of
#     the build directory (or under a linked directory) is not the
#     build's: no-artifact, said in its log; a link inside is followed
#  3. Markdown and CSV carry no markup or formula from their inputs:
#     objective names and units, flags and dimension values with
#     backticks, <img onerror>, <script> and links, rendered by cmark-gfm
#     (GitHub's Markdown, raw HTML let through) give no element of their
#     own; results.csv defuses cells a spreadsheet would run
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
cat >"$repo/study.yaml" <<'EOF2'
study: hostile
source: {path: prog}
space:
  level: ["-DLEVEL=1", "-DLEVEL=2"]
build:
  command: 'echo "$TUNER_FLAGS" | sed "s/.*=//" > "$TUNER_OUT/art"'
  artifact: art
measure:
  command: 'echo "value $(( $(cat "$TUNER_ARTIFACT") * 10 ))"'
  same_code: separate
objectives:
  - {name: speed, goal: max}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m study
res=$TMPDIR/res
"$TUNER" run -q --results "$res" "$repo/study.yaml" >/dev/null
report() { "$TUNER" report --results "$res" "$repo/study.yaml" "$@"; }

# --- 1. Writing over what is not tuner's.
cd "$TMPDIR"
# "-" is standard output; no file named "-" appears, no path is printed.
report -o - >"$TMPDIR/stdout.html"
grep -q '</html>' "$TMPDIR/stdout.html" || fail "-o -: no page on stdout"
[ ! -e "$TMPDIR/-" ] || fail "-o -: wrote a file named -"
[ "$(tail -c 8 "$TMPDIR/stdout.html")" != "$TMPDIR/-" ] || fail "-o -: printed a path"
# /dev/stdout is where stdout leads, here a file: written, not replaced.
report -o /dev/stdout >"$TMPDIR/devstdout.html"
grep -q '</html>' "$TMPDIR/devstdout.html" || fail "-o /dev/stdout: no page"
# A symbolic link to /dev/null: written through, the link stays a link.
ln -s /dev/null "$TMPDIR/null"
try "$TMPDIR/null.out" report -o "$TMPDIR/null"
[ "$rc" -eq 0 ] || { cat "$TMPDIR/null.out"; fail "-o link to /dev/null: exit $rc"; }
[ -L "$TMPDIR/null" ] && [ -c "$TMPDIR/null" ] || fail "-o link to /dev/null: the link was replaced"
# /dev/full (through a link, for a test must not risk the real node):
# the error is said, exit non-zero, the node is still a device.
ln -s /dev/full "$TMPDIR/full"
try "$TMPDIR/full.out" report -o "$TMPDIR/full"
[ "$rc" -ne 0 ] || fail "-o /dev/full: exit 0"
grep -q "No space left" "$TMPDIR/full.out" || { cat "$TMPDIR/full.out"; fail "-o /dev/full: no ENOSPC message"; }
[ -L "$TMPDIR/full" ] && [ -c "$TMPDIR/full" ] || fail "-o /dev/full: the link was replaced"
ls "$TMPDIR" | grep -q 'full\.tmp' && fail "-o /dev/full: a temporary file left"
# A FIFO with a reader gets the page and stays a FIFO.
mkfifo "$TMPDIR/fifo"
timeout 20 cat "$TMPDIR/fifo" >"$TMPDIR/fifo.got" &
reader=$!
report -o "$TMPDIR/fifo" >/dev/null
wait "$reader" || true
grep -q '</html>' "$TMPDIR/fifo.got" || fail "-o FIFO: the reader got no page"
[ -p "$TMPDIR/fifo" ] || fail "-o FIFO: the FIFO was replaced"
# A FIFO nobody reads: an error at once, not a wait; still a FIFO.
mkfifo "$TMPDIR/deaf"
try "$TMPDIR/deaf.out" timeout 20 "$TUNER" report --results "$res" "$repo/study.yaml" -o "$TMPDIR/deaf"
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "-o FIFO nobody reads: exit $rc"
grep -q "nobody read within" "$TMPDIR/deaf.out" || { cat "$TMPDIR/deaf.out"; fail "-o deaf FIFO: no message"; }
[ -p "$TMPDIR/deaf" ] || fail "-o deaf FIFO: replaced"
# A symbolic link to a file is refused; the file and the link unchanged.
echo precious >"$TMPDIR/victim"
ln -s "$TMPDIR/victim" "$TMPDIR/link.html"
try "$TMPDIR/link.out" report -o "$TMPDIR/link.html"
[ "$rc" -ne 0 ] || fail "-o symlink to a file: exit 0"
grep -q "symbolic link" "$TMPDIR/link.out" || { cat "$TMPDIR/link.out"; fail "-o symlink: no message"; }
[ -L "$TMPDIR/link.html" ] && [ "$(cat "$TMPDIR/victim")" = precious ] || fail "-o symlink: changed"
# A directory is refused, and so is the results' own results.csv made a
# link: the run says so and exits non-zero, the target untouched.
mkdir "$TMPDIR/dir.html"
try "$TMPDIR/dir.out" report -o "$TMPDIR/dir.html"
[ "$rc" -ne 0 ] && [ -d "$TMPDIR/dir.html" ] || fail "-o directory: exit $rc"
rm "$res/results.csv"
ln -s "$TMPDIR/victim" "$res/results.csv"
try "$TMPDIR/csv.out" "$TUNER" run -q --results "$res" "$repo/study.yaml"
[ "$rc" -ne 0 ] || fail "results.csv a symlink: exit 0"
[ "$(cat "$TMPDIR/victim")" = precious ] || fail "results.csv a symlink: wrote through it"
grep -q "results.csv' is a symbolic link" "$TMPDIR/csv.out" || { cat "$TMPDIR/csv.out"; fail "results.csv symlink: no message"; }
rm "$res/results.csv"

# --- 2. Paths that leave the build directory.
for a in ../../../../etc/passwd ../x sub/../../x; do
	sed "s#^  artifact: art#  artifact: $a#" "$repo/study.yaml" >"$repo/dotdot.yaml"
	try "$TMPDIR/dotdot.out" "$TUNER" check "$repo/dotdot.yaml"
	[ "$rc" -eq 2 ] || { cat "$TMPDIR/dotdot.out"; fail "artifact $a: check exit $rc"; }
	grep -q "dotdot.yaml:[0-9]*:[0-9]*: .*must stay inside" "$TMPDIR/dotdot.out" ||
		{ cat "$TMPDIR/dotdot.out"; fail "artifact $a: no file:line:col message"; }
	try "$TMPDIR/dotdot.out" "$TUNER" run -q --results "$TMPDIR/res-dotdot" "$repo/dotdot.yaml"
	[ "$rc" -eq 2 ] || fail "artifact $a: run exit $rc"
done
# A name with dots that is not ".." is a name.
sed "s#^  artifact: art#  artifact: a...b/..c#" "$repo/study.yaml" >"$repo/dots.yaml"
"$TUNER" check "$repo/dots.yaml" >/dev/null || fail "artifact a...b/..c refused"
# Links: LEVEL=1 makes art a link to /etc/passwd, LEVEL=2 a link to a
# file inside; with artifact sub/passwd, sub a link to /etc.
links() {
	sed -e "s#^  artifact: art#  artifact: $1#" \
	    -e "s#^  command: 'echo \"\$TUNER_FLAGS\".*#  command: '$2'#" "$repo/study.yaml" >"$repo/links.yaml"
	grep -qF -- "$2" "$repo/links.yaml" || fail "links: sed"
	rm -rf "$TMPDIR/res-links"
	try "$TMPDIR/links.out" "$TUNER" run -j 1 --results "$TMPDIR/res-links" "$repo/links.yaml"
}
links art 'case $TUNER_FLAGS in *1) ln -s /etc/passwd "$TUNER_OUT/art";; *) echo 2 >"$TUNER_OUT/real"; ln -s real "$TUNER_OUT/art";; esac'
[ "$rc" -eq 3 ] || { cat "$TMPDIR/links.out"; fail "artifact link out: exit $rc, not 3"; }
grep -rq "artifact .*/art leads out of the build directory (to /etc/passwd)" "$TMPDIR/res-links" ||
	{ cat "$TMPDIR/links.out"; fail "artifact link out: not said in the build's log"; }
grep -q "^[0-9a-f]*,-DLEVEL=2,.*,ok," "$TMPDIR/res-links/results.csv" ||
	{ cat "$TMPDIR/res-links/results.csv"; fail "artifact link inside: not measured"; }
grep -q "DLEVEL=1,.*no-artifact" "$TMPDIR/res-links/results.csv" ||
	{ cat "$TMPDIR/res-links/results.csv"; fail "artifact link out: not no-artifact"; }
links sub/passwd 'ln -s /etc "$TUNER_OUT/sub"'
[ "$rc" -eq 3 ] || { cat "$TMPDIR/links.out"; fail "artifact under a linked directory: exit $rc"; }
grep -rq "leads out of the build directory (to /etc/passwd)" "$TMPDIR/res-links" ||
	fail "artifact under a linked directory: not said"

# --- 3. Markdown and CSV that carry nothing from their inputs.
command -v cmark-gfm >/dev/null || fail "cmark-gfm missing (make deps installs it)"
cat >"$repo/evil.yaml" <<'EOF2'
study: evil
source: {path: prog}
space:
  x: ["-DA=1", "-DX=`<img src=x onerror=alert(1)>`"]
  y: ["-DB=0", "=HYPERLINK(\"http://evil.invalid\")", "@SUM(1)"]
build:
  command: 'echo 1 > "$TUNER_OUT/art"; echo "$TUNER_LAYOUT_SEED" > "$TUNER_OUT/seed"'
  artifact: art
measure:
  command: 'echo $(( ${#TUNER_FLAGS} + $(cat "$TUNER_OUT/seed") + TUNER_RUN ))'
  same_code: separate
  repeats: 2
layout: {samples: 2}
objectives:
  - {name: "speed<script>alert(1)</script>", unit: "<img src=x onerror=alert(2)> [x](javascript:alert(3))", goal: max}
EOF2
render() { cmark-gfm --unsafe -e table -e strikethrough -e autolink "$1"; }
# no_markup NAME: NAME's Markdown, rendered, has no element from the
# inputs (cmark-gfm makes <img>, <script>, <a> only from markup that got
# through) and still shows the text.
no_markup() {
	render "$TMPDIR/$1.md" >"$TMPDIR/$1.html"
	if grep -Eiq '<(img|script|a)[ >]' "$TMPDIR/$1.html"; then
		cat "$TMPDIR/$1.md"
		fail "$1 md: markup from the inputs: $(grep -Eio '<(img|script|a)[^>]*>' "$TMPDIR/$1.html" | head -3)"
	fi
	grep -q '&lt;img src=x onerror=alert(' "$TMPDIR/$1.html" || fail "$1 md: the text is gone"
}
"$TUNER" run -q --all --format md --results "$TMPDIR/evil" "$repo/evil.yaml" >"$TMPDIR/run.md" ||
	{ cat "$TMPDIR/run.md"; fail "evil run"; }
no_markup run
grep -q 'speed&lt;script&gt;alert(1)&lt;/script&gt;' "$TMPDIR/run.html" || fail "run md: the name is gone"
"$TUNER" effects --format md --results "$TMPDIR/evil" "$repo/evil.yaml" >"$TMPDIR/effects.md" ||
	fail "evil effects"
no_markup effects
"$TUNER" compare -q --format md --repeats 1 --layout 2 --results "$TMPDIR/evil-c" "$repo/evil.yaml" \
	--a '-DA=1' --b '-DX=`<img src=x onerror=alert(1)>`' >"$TMPDIR/compare.md" || fail "evil compare"
no_markup compare
cp -r "$TMPDIR/evil" "$TMPDIR/evil2"
"$TUNER" diff --all --format md "$repo/evil.yaml" --results "$TMPDIR/evil" --results "$TMPDIR/evil2" \
	>"$TMPDIR/diff.md" || fail "evil diff"
no_markup diff
# results.csv: the y column's =HYPERLINK and @SUM cells defused with a
# leading ' (and quoted), what spreadsheets read as text; flags that
# begin with - stay as they are.
python3 - "$TMPDIR/evil/results.csv" <<'PY' || fail "results.csv: formula cells"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ys = sorted({r["dim:y"] for r in rows})
assert ys == ["'=HYPERLINK(\"http://evil.invalid\")", "'@SUM(1)", "-DB=0"], ys
for r in rows:
    for k, v in r.items():
        assert not v or v[0] not in "=+@\t\r", (k, v)
assert any(r["flags"].startswith("-DA=1 ") for r in rows), rows[0]
print("results.csv: %d rows, y cells %s" % (len(rows), ys))
PY

echo "t_hostile: ok"
