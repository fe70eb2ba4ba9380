# SPDX-License-Identifier: GPL-2.0-or-later
# One model of GCC's options (gccopt) in the study: `tuner check` warns
# when a dimension's value is overridden by another's ("space: {opt:
# [-O2], o2: [-O3]}" builds -O3, not "-O2 -O3") or by itself, and lists
# the configurations GCC builds alike; `tuner run` builds each of them
# once.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
write_study "$repo/study.yaml" gccopt <<'EOF2'
  opt: [-O2, -Os]
  o2: ["", -O3]
  x: ["", "-fno-tree-ch -ftree-ch"]
EOF2
git -C "$repo" add study.yaml && git -C "$repo" commit -q -m study

"$TUNER" check "$repo/study.yaml" >"$TMPDIR/check" || fail "check failed: $(cat "$TMPDIR/check")"
grep -qF "warning: dimension 'opt', value '-O2': its -O2 is overridden by -O3 of dimension 'o2' wherever they meet" "$TMPDIR/check" ||
	fail "no warning that o2's -O3 overrides opt's -O2: $(cat "$TMPDIR/check")"
grep -qF "warning: dimension 'opt', value '-Os': its -Os is overridden by -O3 of dimension 'o2'" "$TMPDIR/check" ||
	fail "no warning for -Os"
grep -qF "warning: dimension 'x', value '-fno-tree-ch -ftree-ch': -ftree-ch overrides -fno-tree-ch" "$TMPDIR/check" ||
	fail "no warning for a value that overrides itself"
grep -qF "GCC-equivalent (one configuration, " "$TMPDIR/check" ||
	fail "no GCC-equivalent configurations listed"
grep -qF "'-O2 -O3', '-Os -O3' all build '-O3'" "$TMPDIR/check" ||
	fail "'-O2 -O3' and '-Os -O3' not listed as one: $(grep GCC-equivalent "$TMPDIR/check")"
grep -q '^note: 2 sets of GCC-equivalent flag strings' "$TMPDIR/check" || fail "not 2 sets"
if grep -q "warning: dimension 'o2'" "$TMPDIR/check"; then
	fail "o2's -O3 is in effect: no warning for it"
fi

# 8 flag strings, 6 configurations: each GCC-equivalent set is built once.
"$TUNER" run -q -j 2 --all --results "$TMPDIR/res" "$repo/study.yaml" >"$TMPDIR/out"
[ "$(count_records "$TMPDIR/res/journal.jsonl" build)" -eq 6 ] ||
	fail "$(count_records "$TMPDIR/res/journal.jsonl" build) builds, want 6"
echo ok
