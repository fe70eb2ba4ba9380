# SPDX-License-Identifier: GPL-2.0-or-later
# A flag value holding ';', $(...), backquotes, quotes and backslashes
# reaches the build and measure commands byte for byte through TUNER_FLAGS
# and executes nothing.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
# YAML single-quoted: '' is one quote, backslashes are literal.
cat >"$repo/study.yaml" <<EOF2
study: verbatim
source: {path: prog}
space:
  evil: ['-DX=''a;b'' -DY="\$(touch $TMPDIR/PWNED1)" \`touch $TMPDIR/PWNED2\` ; touch $TMPDIR/PWNED3 \\back\\\\slash "dq" \$HOME']
build:
  command: 'printf "%s" "\$TUNER_FLAGS" > "\$TUNER_OUT/flags"; : > "\$TUNER_OUT/prog"'
  artifact: prog
measure:
  command: 'printf "%s" "\$TUNER_FLAGS" > "\$TUNER_OUT/measure-flags"; echo 1'
objectives:
  - {name: one, goal: max}
EOF2
git -C "$repo" add study.yaml && git -C "$repo" commit -q -m study

expected="-DX='a;b' -DY=\"\$(touch $TMPDIR/PWNED1)\" \`touch $TMPDIR/PWNED2\` ; touch $TMPDIR/PWNED3 \\back\\\\slash \"dq\" \$HOME"
"$TUNER" check "$repo/study.yaml" >/dev/null || fail "check failed"
"$TUNER" run -q --results "$TMPDIR/res" "$repo/study.yaml" >"$TMPDIR/out" || fail "run failed: $(cat "$TMPDIR/out")"
dir=$(ls -d "$TMPDIR"/res/builds/*)
printf '%s' "$expected" >"$TMPDIR/expected"
cmp "$TMPDIR/expected" "$dir/flags" || fail "build saw: $(cat "$dir/flags")"
cmp "$TMPDIR/expected" "$dir/measure-flags" || fail "measure saw: $(cat "$dir/measure-flags")"
for i in 1 2 3; do
	[ ! -e "$TMPDIR/PWNED$i" ] || fail "flag text was executed (PWNED$i)"
done
# The journal keeps the flags exactly too.
grep -qF 'touch '"$TMPDIR"'/PWNED3 \\back\\\\slash \"dq\" $HOME' "$TMPDIR/res/journal.jsonl" ||
	fail "journal does not hold the flags verbatim"
# results.csv quotes the field (RFC 4180: "" for a quote).
grep -qF ',"-DX='"'a;b'"' -DY=""$(touch '"$TMPDIR"'/PWNED1)""' "$TMPDIR/res/results.csv" ||
	fail "results.csv does not quote the flags: $(tail -n 1 "$TMPDIR/res/results.csv")"
echo ok
