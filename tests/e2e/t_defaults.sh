# SPDX-License-Identifier: GPL-2.0-or-later
# tuner defaults on two noisy targets with known truth (two_targets.sh):
# each one's best under its own limits (bcm53xx's size limit rules out its
# fastest configuration), the common default and its worst regret (about
# 1 - 1/1.14 = 12.3% on bcm53xx), the verdict either side of --within,
# --limit, a third target lacking half of the configurations, the lines to
# paste; Markdown tables well-formed, JSON parsed and checked.
. "$ROOT/tests/e2e/two_targets.sh"

out=$TMPDIR/defaults
"$TUNER" defaults --results "$RA" --results "$RB" "$A" "$B" >"$out" 2>"$out.err" ||
	fail "defaults: $(cat "$out" "$out.err")"
cat "$out"
grep -qE '^bcm53xx +[0-9a-f]{16} +speed \(max\) +[0-9.]+ ±[0-9.]+ Mbit/s +-O2 -fno-reorder-blocks$' "$out" ||
	fail "bcm53xx's best: $(grep '^bcm53xx' "$out")"
grep -qE '^mt7621 +[0-9a-f]{16} +speed \(max\) +[0-9.]+ ±[0-9.]+ Mbit/s +-O2$' "$out" ||
	fail "mt7621's best: $(grep '^mt7621' "$out")"
grep -qE '^common default: [0-9a-f]{16} -O2 \(worst regret 1[1-4]\.[0-9]+% \[[0-9.]+%, [0-9.]+%\] on bcm53xx, mean [0-9.]+%\)$' "$out" ||
	fail "common default: $(grep '^common' "$out")"
grep -qE '^verdict: per-target defaults gain 1[1-4]\.[0-9]+% on bcm53xx \(threshold 2%, --within\)$' "$out" ||
	fail "verdict: $(grep '^verdict' "$out")"
grep -q '^regret: .*; 6 of 8 configurations feasible on every target' "$out" || fail "candidates: $(grep '^regret' "$out")"
grep -A1 '^# bcm53xx: its best by speed$' "$out" | grep -qx 'CONFIG_KERNEL_CFLAGS="-O2 -fno-reorder-blocks"' ||
	fail "bcm53xx's line"
grep -A1 '^# mt7621: its best by speed$' "$out" | grep -qx 'CONFIG_KERNEL_CFLAGS="-O2"' || fail "mt7621's line"
grep -A1 '^# common default (every target): worst regret 1[1-4]\.[0-9]*%, on bcm53xx$' "$out" |
	grep -qx 'CONFIG_KERNEL_CFLAGS="-O2"' || fail "the common default's line"
# The fastest on bcm53xx is over its size limit: shown so, never its best.
"$TUNER" defaults --all --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/all"
grep -E '^[0-9a-f]{16} +-O2 -fno-reorder-blocks -falign-functions=32 +over a limit +[0-9.]+% \[' "$TMPDIR/all" | grep -qE ' - +-$' ||
	fail "over the limit: $(grep 'falign' "$TMPDIR/all")"
[ "$(grep -cE '^[0-9a-f]{16}' "$TMPDIR/all")" -eq 8 ] || fail "--all rows"

# A threshold above the worst regret: one default serves all.
"$TUNER" defaults --within 15 --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/w15"
grep -qE '^verdict: one default serves all within 1[1-4]\.[0-9]+% \(worst regret, on bcm53xx\) \(threshold 15%' "$TMPDIR/w15" ||
	fail "--within 15: $(grep '^verdict' "$TMPDIR/w15")"
# A tighter size limit on bcm53xx only: -O2 is out there, -Os -fno-reorder-blocks is its best.
"$TUNER" defaults --limit 'bcm53xx:size<=90000' --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/lim"
grep -A1 '^# bcm53xx: its best by speed$' "$TMPDIR/lim" | grep -qx 'CONFIG_KERNEL_CFLAGS="-Os -fno-reorder-blocks"' ||
	fail "--limit: $(cat "$TMPDIR/lim")"
grep -A1 '^# mt7621: its best by speed$' "$TMPDIR/lim" | grep -qx 'CONFIG_KERNEL_CFLAGS="-O2"' || fail "--limit on mt7621"
# Ranked by size (exact): -Os is everyone's best, and serves all within 0%.
"$TUNER" defaults --objective size --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/size"
grep -q '^verdict: one default serves all within 0% (worst regret, on bcm53xx)' "$TMPDIR/size" ||
	fail "--objective size: $(cat "$TMPDIR/size")"
grep -A1 '^# common default' "$TMPDIR/size" | grep -qx 'CONFIG_KERNEL_CFLAGS="-Os"' || fail "size default"

# A third target that has only opt x reorder: the -falign configurations are
# missing there and cannot be the default.
sed -e 's/^study: mt7621$/study: rt3200/' -e '/^  align:/d' -e 's/--seed 12/--seed 13/' "$B" >"$repo/c.yaml"
git -C "$repo" add -A && git -C "$repo" commit -q -m c
"$TUNER" run -q --results "$TMPDIR/res-c" "$repo/c.yaml" >/dev/null || fail "run C"
"$TUNER" defaults --all --results "$RA" --results "$RB" --results "$TMPDIR/res-c" "$A" "$B" "$repo/c.yaml" >"$TMPDIR/three"
cat "$TMPDIR/three"
grep -E '^[0-9a-f]{16} +-Os -falign-functions=32 ' "$TMPDIR/three" | grep -qE ' missing +- +-$' ||
	fail "missing on rt3200: $(grep 'Os -falign-functions=32 ' "$TMPDIR/three")"
grep -q '; 4 of 8 configurations feasible on every target' "$TMPDIR/three" || fail "three: candidates"
grep -qE '^verdict: per-target defaults gain 1[1-4]\.[0-9]+% on bcm53xx ' "$TMPDIR/three" || fail "three: verdict"

# Markdown and JSON.
"$TUNER" defaults --format md --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/md"
cat "$TMPDIR/md"
md_tables_ok "$TMPDIR/md" || fail "Markdown tables"
grep -qx '```sh' "$TMPDIR/md" || fail "md: no code block for the lines"
"$TUNER" defaults --format json --results "$RA" --results "$RB" "$A" "$B" >"$TMPDIR/json"
python3 -m json.tool "$TMPDIR/json" >/dev/null || fail "not JSON: $(head -c 300 "$TMPDIR/json")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["targets"]}
assert t["bcm53xx"]["best"]["flags"] == "-O2 -fno-reorder-blocks", t
assert t["mt7621"]["best"]["flags"] == "-O2" and t["mt7621"]["objective"] == "speed", t
assert t["bcm53xx"]["noise_estimated"] is True and t["mt7621"]["noise_estimated"] is True, t
c = d["common"]
assert c["flags"] == "-O2" and c["worst_target"] == "bcm53xx" and 0.10 < c["worst"] < 0.15, c
assert c["line"] == "CONFIG_KERNEL_CFLAGS=\"-O2\"" and d["serves_all"] is False, d
assert d["verdict"].startswith("per-target defaults gain ") and d["within"] == 0.02
rows = {r["flags"]: r for r in d["regret"]}
assert len(rows) == 8 and d["regret"][0]["flags"] == "-O2", rows.keys()
r = rows["-O2 -fno-reorder-blocks -falign-functions=32"]
assert r["candidate"] is False and r["targets"]["bcm53xx"]["state"] == "over a limit", r
r = rows["-O2 -fno-reorder-blocks"]
assert r["targets"]["bcm53xx"]["regret"] == 0 and 0.13 < r["targets"]["mt7621"]["regret"] < 0.19, r
' "$TMPDIR/json" || fail "JSON content"

# Refused: bad --limit, a limit on no objective, an objective no target has.
set +e
"$TUNER" defaults --limit 'size<' --results "$RA" "$A" >"$TMPDIR/e1" 2>&1; r1=$?
"$TUNER" defaults --limit 'latency<=3' --results "$RA" "$A" >"$TMPDIR/e2" 2>&1; r2=$?
"$TUNER" defaults --objective latency --results "$RA" "$A" >"$TMPDIR/e3" 2>&1; r3=$?
set -e
[ $r1 -eq 2 ] && grep -q -- "--limit is \[TARGET:\]OBJECTIVE<=X or >=X, not 'size<'" "$TMPDIR/e1" || fail "bad limit: $(cat "$TMPDIR/e1")"
[ $r2 -eq 2 ] && grep -q 'no target has that objective' "$TMPDIR/e2" || fail "limit objective: $(cat "$TMPDIR/e2")"
[ $r3 -eq 2 ] && grep -q "has no objective 'latency'" "$TMPDIR/e3" || fail "objective: $(cat "$TMPDIR/e3")"
echo ok
