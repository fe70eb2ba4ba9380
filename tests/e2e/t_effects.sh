# SPDX-License-Identifier: GPL-2.0-or-later
# tuner effects on two noisy targets with known truth (two_targets.sh):
# -fno-reorder-blocks +14% on one, -16% on the other, shown as a sign
# change; -Os hurting both shown as none; no interaction flagged where the
# truth has none; Markdown tables well-formed, JSON parsed; bad uses refused.
. "$ROOT/tests/e2e/two_targets.sh"

out=$TMPDIR/effects
"$TUNER" effects --results "$RA" --results "$RB" "$A" "$B" >"$out" 2>"$out.err" ||
	fail "effects: $(cat "$out" "$out.err")"
cat "$out"
# The speed table: one column per target, the truth inside each interval.
row=$(grep -E '^reorder +-fno-reorder-blocks +\(no reorder\) ' "$out" | head -n 1)
[[ $row =~ \+1[2-6]\.[0-9]+%\ \[\+[0-9.]+%,\ \+[0-9.]+%\]\ helps\ \(n=4\)\ +-1[4-8]\.[0-9]+%\ \[-[0-9.]+%,\ -[0-9.]+%\]\ hurts\ \(n=4\)$ ]] ||
	fail "reorder row: $row"
grep -E '^opt +-Os +-O2 +-[0-9.]+% .* hurts \(n=4\) +-[0-9.]+% .* hurts \(n=4\)$' "$out" | head -n 1 | grep -q . ||
	fail "opt row: $(grep '^opt' "$out")"
grep -q '^  reorder -fno-reorder-blocks: changes sign between targets: helps on bcm53xx (+1[2-6]\.[0-9]*% \[.*\]), hurts on mt7621 (-1[4-8]\.[0-9]*% \[.*\])$' "$out" ||
	fail "no sign change said for reorder: $(grep 'reorder -fno' "$out")"
grep -q '^  opt -Os: no sign change between bcm53xx and mt7621: hurts on bcm53xx' "$out" ||
	fail "opt -Os: $(grep '  opt -Os' "$out")"
# The size table: exact sizes, no noise: -Os -12% on both, a size it helps.
grep -qE '^opt +-Os +-O2 +-12% \[-12%, -12%\] helps \(n=4\) +-12% \[-12%, -12%\] helps \(n=4\)$' "$out" ||
	fail "size opt row: $(grep '^opt' "$out")"
# Multiplicative truth has no interactions: none flagged, for both objectives.
[ "$(grep -c '^  none flagged$' "$out")" -eq 2 ] || fail "interactions: $(grep -A3 '^interactions' "$out")"

# One target, one objective: no column of another, no across-targets part.
"$TUNER" effects --objective speed --results "$RA" "$A" >"$TMPDIR/one" || fail "one target"
grep -qE '^dimension +value +against +bcm53xx$' "$TMPDIR/one" || fail "one target header: $(cat "$TMPDIR/one")"
grep -q 'across targets' "$TMPDIR/one" && fail "across targets with one target"
grep -q '^size' "$TMPDIR/one" && fail "--objective speed shows size"

# Markdown: well-formed tables; flags in code spans.
"$TUNER" effects --format md --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/md" || fail "md"
cat "$TMPDIR/md"
md_tables_ok "$TMPDIR/md" || fail "Markdown tables"
grep -q '^| reorder | `-fno-reorder-blocks` | (no reorder) | +1' "$TMPDIR/md" || fail "md reorder row"
grep -q '^- reorder `-fno-reorder-blocks`: changes sign between targets' "$TMPDIR/md" || fail "md sign change"

# JSON: parses; the sign change and both verdicts, the effects as fractions.
"$TUNER" effects --format json --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/json" || fail "json"
python3 -m json.tool "$TMPDIR/json" >/dev/null || fail "not JSON: $(head -c 300 "$TMPDIR/json")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["effects"] if x["objective"] == "speed" and x["value"] == "-fno-reorder-blocks"][0]
a, b = e["targets"]["bcm53xx"], e["targets"]["mt7621"]
assert e["sign_change"] is True and e["reference"] == "", e
assert a["verdict"] == "helps" and 0.12 < a["effect"] < 0.17 and a["lo"] > 0 and a["n"] == 4, a
assert b["verdict"] == "hurts" and -0.19 < b["effect"] < -0.13 and b["hi"] < 0, b
o = [x for x in d["effects"] if x["objective"] == "speed" and x["value"] == "-Os"][0]
assert o["sign_change"] is False and "no sign change" in o["across"], o
assert d["interactions"] == [] and [t["name"] for t in d["targets"]] == ["bcm53xx", "mt7621"]
' "$TMPDIR/json" || fail "JSON content"

# Refused: a study without results, --results not one per study, a format.
set +e
"$TUNER" effects "$A" >"$TMPDIR/e1" 2>&1; rc=$?
set -e
[ $rc -eq 2 ] || fail "no results: exit $rc"
grep -q 'pareto.json: no results: run the study first' "$TMPDIR/e1" || fail "no results: $(cat "$TMPDIR/e1")"
set +e
"$TUNER" effects --results "$RA" "$A" "$B" >"$TMPDIR/e2" 2>&1; rc=$?
"$TUNER" effects --format html --results "$RA" "$A" >"$TMPDIR/e3" 2>&1; rc3=$?
"$TUNER" effects --results "$RB" "$A" >"$TMPDIR/e4" 2>&1; rc4=$?
set -e
[ $rc -eq 2 ] && grep -q '1 --results for 2 studies' "$TMPDIR/e2" || fail "--results count: $rc $(cat "$TMPDIR/e2")"
[ $rc3 -eq 2 ] && grep -q -- "--format is table, md or json, not 'html'" "$TMPDIR/e3" || fail "--format: $(cat "$TMPDIR/e3")"
[ $rc4 -eq 2 ] && grep -q "the results of study 'mt7621', not of 'bcm53xx'" "$TMPDIR/e4" || fail "other study: $(cat "$TMPDIR/e4")"
"$TUNER" help effects | grep -q '^usage: tuner effects' || fail "help"
echo ok
