# SPDX-License-Identifier: GPL-2.0-or-later
# Repeats and racing on the noisy target (known truth, seeded noise):
# racing finds the true front of 12 configurations with fewer measurements
# than repeats.max for all, measurements interleave on the testbed, reboot
# runs between measurements, and a rerun replays the race from the journal
# and continues it where it stopped, measuring nothing twice.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
make_noisy
# Value factor, then size factor. The true front (speed max, size min) is
# every config but the four marked "dominated" in the list below.
cat >"$TMPDIR/truth" <<'EOF2'
-O1 0.90 0.85
-O2 1.00 1.00
-O3 1.06 1.25
-fa 1.03 1.05
-fb 0.96 0.97
-fc 1.001 1.0
EOF2
cat >"$repo/study.yaml" <<EOF2
study: race
source: {path: prog}
space:
  opt: [-O1, -O2, -O3]
  a: ["", -fa]
  b: ["", -fb]
build: {command: ': > "\$TUNER_OUT/a"', artifact: a}
reboot: {command: 'echo "\$TUNER_CONFIG_ID \$TUNER_RUN" >> $TMPDIR/reboots'}
size: {of: artifact, measure: command, command: '$noisy --truth $TMPDIR/truth --size 100000'}
measure:
  command: '$noisy --truth $TMPDIR/truth --seed 7 --run-sd 0.005 --layout-sd 0'
  # The fake measurement judges the flags, not the program: each build
  # is measured (the default shares builds whose code is the same).
  same_code: separate
  repeats: {min: 3, max: 8}
objectives:
  - {name: speed, goal: max}
  - {name: size, unit: bytes, goal: min}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m study
res=$TMPDIR/res
"$TUNER" run -q --all --results "$res" "$repo/study.yaml" >"$TMPDIR/out" || fail "run failed: $(cat "$TMPDIR/out")"
cat "$TMPDIR/out"
j=$res/journal.jsonl
n=$(count_records "$j" measure)

# The true front, and nothing else on it.
front=$(awk -F, '$5 == 1 { print $2 }' "$res/results.csv" | sort)
want=$(printf '%s\n' "-O1" "-O1 -fb" "-O1 -fa" "-O2" "-O2 -fb" "-O2 -fa" "-O3" "-O3 -fa" | sort)
[ "$front" = "$want" ] || fail "front: got [$front], want [$want]"
grep -q '^Pareto set (8 of 12 configurations)' "$TMPDIR/out" || fail "front size"

# Racing: at least min for all, fewer than max for all.
[ "$n" -ge 36 ] && [ "$n" -lt 96 ] || fail "$n measurements: want 36..95"
grep -q "^racing: $n measurements, 96 with every configuration at 8" "$TMPDIR/out" ||
	fail "racing line: $(grep '^racing' "$TMPDIR/out")"

# Interleaved: the first 3 runs of a config never follow each other.
grep '"type":"measure"' "$j" | sed -E 's/.*"config":"([0-9a-f]+)".*"run":([0-9]+).*/\1 \2/' >"$TMPDIR/order"
awk 'prev == $1 && $2 < 3 { bad = 1 } { prev = $1 } END { exit bad }' "$TMPDIR/order" ||
	fail "back-to-back measurements of one config: $(cat "$TMPDIR/order")"
# Reboot between measurements: before each but the first.
[ "$(wc -l <"$TMPDIR/reboots")" -eq $((n - 1)) ] || fail "reboots: $(wc -l <"$TMPDIR/reboots"), want $((n - 1))"

# Rerun: everything from the journal, the same table.
"$TUNER" run -q --all --results "$res" "$repo/study.yaml" >"$TMPDIR/out2"
grep -q "measurements: 0 new, $n from the journal" "$TMPDIR/out2" || fail "rerun: $(grep '^builds' "$TMPDIR/out2")"
diff <(sed -n '/^Pareto set/,$p' "$TMPDIR/out") <(sed -n '/^Pareto set/,$p' "$TMPDIR/out2") || fail "rerun differs"

# Interrupted race: drop the last 10 measurements from the journal (as if
# killed there). The rerun measures exactly those 10 again (the noise is a
# function of the run index here) and ends with the same result.
head -n "$(( $(grep -n '"type":"measure"' "$j" | tail -n 10 | head -n 1 | cut -d: -f1) - 1 ))" "$j" >"$TMPDIR/j"
cp "$TMPDIR/j" "$j"
[ "$(count_records "$j" measure)" -eq $((n - 10)) ] || fail "could not cut the journal"
"$TUNER" run -q --all --results "$res" "$repo/study.yaml" >"$TMPDIR/out3"
grep -q "measurements: 10 new, $((n - 10)) from the journal" "$TMPDIR/out3" ||
	fail "resumed race: $(grep '^builds' "$TMPDIR/out3")"
[ "$(count_records "$j" measure)" -eq "$n" ] || fail "resumed race measured $(count_records "$j" measure), want $n"
diff <(sed -n '/^Pareto set/,$p' "$TMPDIR/out") <(sed -n '/^Pareto set/,$p' "$TMPDIR/out3") || fail "resumed race differs"

# A small seeded version of bench/race.sh: 8 more noise seeds, each must
# find the true front, all together with at most half of the 8 x 96
# measurements repeats.max for every configuration would take.
total=0
for seed in $(seq 11 18); do
	sed "s/--seed 7/--seed $seed/" "$repo/study.yaml" >"$repo/s$seed.yaml"
	"$TUNER" run -q --results "$TMPDIR/r$seed" "$repo/s$seed.yaml" >/dev/null || fail "seed $seed failed"
	got=$(awk -F, '$5 == 1 { print $2 }' "$TMPDIR/r$seed/results.csv" | sort)
	[ "$got" = "$want" ] || fail "seed $seed: front [$got]"
	total=$((total + $(count_records "$TMPDIR/r$seed/journal.jsonl" measure)))
done
echo "8 seeds: $total measurements of $((8 * 96))"
[ $total -le $((8 * 96 / 2)) ] || fail "racing took $total measurements, more than half of $((8 * 96))"

# Within noise: -fc is 0.1% faster at the same size, which 5 runs at 0.5%
# noise cannot tell. Both stay on the front, raced to max, the slower by
# its estimates marked tied with the other.
sed -e 's/^study: race/study: tie/' -e '/^  [ab]:/d' -e 's/^  opt: .*/  c: ["", -fc]/' \
	-e 's/max: 8/max: 5/' "$repo/study.yaml" >"$repo/tie.yaml"
git -C "$repo" add -A && git -C "$repo" commit -q -m tie
"$TUNER" run -q --results "$TMPDIR/tie" "$repo/tie.yaml" >"$TMPDIR/tie.out" || fail "tie run failed"
cat "$TMPDIR/tie.out"
grep -q '^Pareto set (2 of 2 configurations)' "$TMPDIR/tie.out" || fail "tie: both should be on the front"
[ "$(grep -cE '^~ +[0-9a-f]{16} ' "$TMPDIR/tie.out")" -eq 1 ] || fail "tie: want one row marked ~"
grep '^~ ' "$TMPDIR/tie.out" | grep -q '\[tied with [0-9a-f]\{16\}\]' || fail "tie: no 'tied with'"
grep -q '^~ on the front within noise' "$TMPDIR/tie.out" || fail "tie: no legend"
grep -q 'one layout seed per configuration' "$TMPDIR/tie.out" || fail "tie: no layout note"
[ "$(count_records "$TMPDIR/tie/journal.jsonl" measure)" -eq 10 ] || fail "tie: both should race to 5 runs"
[ "$(grep -c '"verdict": "max"' "$TMPDIR/tie/pareto.json")" -eq 4 ] || fail "tie: verdicts (front + configs)"
grep -q '"tied": true' "$TMPDIR/tie/pareto.json" || fail "tie: pareto.json"
[ "$(tr -d '\r' <"$TMPDIR/tie/results.csv" | awk -F, 'NR > 1 { t += $19 } END { print t }')" -eq 1 ] ||
	fail "tie: results.csv tied column"

# The last builds finish while the only built one is being measured: the
# next round must not start with that one again. (-fa, first in the space,
# builds at once; "" and -fb take 0.3 s side by side and are noticed
# together; a measurement takes 1 s. The first version then queued -fa
# first and measured it twice in a row, which made the interleaving check
# above flaky on a loaded machine.)
cat >"$repo/late.yaml" <<EOF2
study: late
source: {path: prog}
space:
  a: [-fa, "", -fb]
build: {command: 'case "\$TUNER_FLAGS" in -fa) ;; *) sleep 0.3 ;; esac; : > "\$TUNER_OUT/a"', artifact: a}
# Empty artifacts, all alike: measured each (same_code: separate).
measure: {command: 'sleep 1; echo 1', repeats: 2, same_code: separate}
objectives:
  - {name: speed, goal: max}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m late
"$TUNER" run -q -j 3 --all --results "$TMPDIR/late" "$repo/late.yaml" >/dev/null || fail "late run failed"
grep '"type":"measure"' "$TMPDIR/late/journal.jsonl" | sed -E 's/.*"config":"([0-9a-f]+)".*/\1/' >"$TMPDIR/late.order"
[ "$(wc -l <"$TMPDIR/late.order")" -eq 6 ] || fail "late: $(wc -l <"$TMPDIR/late.order") measurements"
[ "$(uniq "$TMPDIR/late.order" | wc -l)" -eq 6 ] ||
	fail "late: one config measured twice in a row: $(tr '\n' ' ' <"$TMPDIR/late.order")"
echo ok
