# SPDX-License-Identifier: GPL-2.0-or-later
# tuner run with the strategies that learn (nsga2, surrogate) on the noisy
# target (known truth, seeded noise): the budget is kept, with search.race
# false both propose a new configuration each time, by default both race (a
# configuration proposed again is built with one more layout seed and
# observed on it), the progress line shows
# the hypervolume, a run
# killed with SIGKILL in the middle of a surrogate search resumes from the
# journal and proposes exactly what the uninterrupted run proposed, a time
# budget stops proposing, and bad input is refused.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
make_noisy
cat >"$TMPDIR/truth" <<'EOF2'
-O3 1.04 1.20
-Os 0.95 0.85
-fa 1.03 1.02
-fb 0.97 0.99
-fc 1.0 0.97
-fd 1.02 1.01
-fg 0.99 1.03
EOF2
# A measure that waits while $TMPDIR/hold exists (to kill tuner mid-run).
cat >"$TMPDIR/measure.sh" <<EOF2
#!/bin/sh
while [ -e "$TMPDIR/hold" ]; do sleep 0.05; done
exec $noisy --truth $TMPDIR/truth --seed 7 --run-sd 0.01 --layout-sd 0
EOF2
chmod +x "$TMPDIR/measure.sh"
study() { # study STRATEGY BUDGET [extra search keys]
	cat <<EOF2
study: srch
source: {path: prog}
space:
  opt: [-O2, -O3, -Os]
  a: ["", -fa]
  b: ["", -fb]
  c: ["", -fc]
  d: ["", -fd]
  e: ["", -fe]
  f: ["", -ff]
  g: ["", -fg]
build: {command: ': > "\$TUNER_OUT/a"', artifact: a}
size: {of: artifact, measure: command, command: '$noisy --truth $TMPDIR/truth --size 100000'}
measure:
  command: '$TMPDIR/measure.sh'
  same_code: separate
objectives:
  - {name: speed, goal: max}
  - {name: size, unit: bytes, goal: min}
search: {strategy: $1, budget: $2, seed: 3${3:-}}
EOF2
}
ids() { grep '"type":"build"' "$1/journal.jsonl" | sed -E 's/.*"config":"([0-9a-f]+)".*/\1/' | sort -u; }
# Every build as configuration:layout seed.
builds() { grep '"type":"build"' "$1/journal.jsonl" |
	sed -E 's/.*"config":"([0-9a-f]+)","seed":([0-9]+).*/\1:\2/' | sort; }

for strat in nsga2 surrogate; do
	study $strat 40 >"$repo/$strat.yaml"
done
study surrogate 40 ", race: false" >"$repo/norace.yaml"
study nsga2 40 ", race: false" >"$repo/nsga2norace.yaml"
git -C "$repo" add -A && git -C "$repo" commit -q -m studies

# Budget, the hypervolume on the progress lines, 40 builds (one per
# proposal), the rerun from the journal.
for strat in nsga2 surrogate norace nsga2norace; do
	"$TUNER" run -j 2 --results "$TMPDIR/$strat" "$repo/$strat.yaml" >"$TMPDIR/$strat.out" \
		2>"$TMPDIR/$strat.err" || fail "$strat run failed: $(tail -5 "$TMPDIR/$strat.err")"
	name=$strat; [ $strat = norace ] && name=surrogate; [ $strat = nsga2norace ] && name=nsga2
	[ "$(count_records "$TMPDIR/$strat/journal.jsonl" build)" -eq 40 ] || fail "$strat: not 40 builds"
	[ "$(builds "$TMPDIR/$strat" | uniq -d)" = "" ] || fail "$strat: a build made twice"
	grep -qE "^search $name: batch [0-9]+ \([0-9]+ proposals\), hypervolume [0-9.]+; tuner: builds" \
		"$TMPDIR/$strat.err" || fail "$strat: no hypervolume on the progress line: $(head -3 "$TMPDIR/$strat.err")"
	[ $strat = surrogate ] || [ $strat = nsga2 ] && c=$(ids "$TMPDIR/$strat" | wc -l) && more=", $((40 - c)) more proposals measured one again" ||
		{ c=40; more=; }
	grep -qE "^tuner: note: search $name: $c configurations in [0-9]+ batches$more \(the strategy is done\); hypervolume" \
		"$TMPDIR/$strat.err" || fail "$strat: no closing note: $(grep 'note: search' "$TMPDIR/$strat.err")"
	# Rerun: everything from the journal, the same configurations.
	"$TUNER" run -q -j 2 --results "$TMPDIR/$strat" "$repo/$strat.yaml" >"$TMPDIR/$strat.again"
	grep -q "builds: 0 new (0 failed), 40 from the journal; measurements: 0 new, 40 from the journal" \
		"$TMPDIR/$strat.again" || fail "$strat rerun: $(grep '^builds' "$TMPDIR/$strat.again")"
	[ "$(count_records "$TMPDIR/$strat/journal.jsonl" build)" -eq 40 ] || fail "$strat: rerun built"
done
# Without racing: 40 distinct configurations, each with layout seed 0.
for strat in nsga2norace norace; do
	n=$(ids "$TMPDIR/$strat" | wc -l)
	[ "$n" -eq 40 ] || fail "$strat: $n configurations, want 40"
	grep -q "^study srch: 40 configurations x 1 layout seed;" "$TMPDIR/$strat.out" || fail "$strat: summary"
done
# Racing: fewer configurations, the ones proposed again with layout seeds
# 0, 1, ... in turn, said in the summary.
raced=
for strat in nsga2 surrogate; do
	n=$(ids "$TMPDIR/$strat" | wc -l)
	again=$(builds "$TMPDIR/$strat" | grep -c ':[1-9]' || true)
	[ "$n" -lt 40 ] && [ $((n + again)) -eq 40 ] ||
		fail "$strat: $n configurations and $again builds with layout seed > 0, want 40 in all"
	for c in $(ids "$TMPDIR/$strat"); do
		seeds=$(builds "$TMPDIR/$strat" | grep "^$c:" | cut -d: -f2 | sort -n | tr '\n' ' ')
		[ "$seeds" = "$(seq 0 $(($(echo $seeds | wc -w) - 1)) | tr '\n' ' ')" ] ||
			fail "$strat: configuration $c has layout seeds $seeds"
	done
	r=$(ids "$TMPDIR/$strat" | while read -r c; do builds "$TMPDIR/$strat" | grep -c "^$c:"; done |
		grep -cv '^1$' || true)
	grep -q "^study srch: $n configurations x 1 layout seed ($r proposed again by the search, with more);" \
		"$TMPDIR/$strat.out" || fail "$strat: summary: $(head -1 "$TMPDIR/$strat.out")"
	raced="$raced $strat: $n configurations, $again measured again;"
done
# --no-race on the command line is search.race: false.
"$TUNER" run -q -j 2 --no-race --results "$TMPDIR/norace2" "$repo/surrogate.yaml" >/dev/null ||
	fail "--no-race run failed"
[ "$(builds "$TMPDIR/norace2")" = "$(builds "$TMPDIR/norace")" ] || fail "--no-race differs from race: false"
echo "nsga2 and surrogate without racing: 40 distinct configurations each; raced:$raced reruns from the journal"

# With layout.samples 2 a proposal is two builds, and a configuration's
# r-th proposal gets layout seeds 2r and 2r + 1.
{ study surrogate 24; echo "layout: {samples: 2}"; } >"$repo/lay2.yaml"
git -C "$repo" add -A && git -C "$repo" commit -q -m lay2
"$TUNER" run -q -j 2 --results "$TMPDIR/lay2" "$repo/lay2.yaml" >"$TMPDIR/lay2.out" ||
	fail "layout.samples 2 run failed"
[ "$(count_records "$TMPDIR/lay2/journal.jsonl" build)" -eq 48 ] || fail "lay2: not 48 builds"
n=$(ids "$TMPDIR/lay2" | wc -l)
[ "$n" -lt 24 ] || fail "lay2: the surrogate did not race ($n configurations)"
for c in $(ids "$TMPDIR/lay2"); do
	seeds=$(builds "$TMPDIR/lay2" | grep "^$c:" | cut -d: -f2 | sort -n | tr '\n' ' ')
	k=$(echo $seeds | wc -w)
	[ $((k % 2)) -eq 0 ] && [ "$seeds" = "$(seq 0 $((k - 1)) | tr '\n' ' ')" ] ||
		fail "lay2: configuration $c has layout seeds $seeds"
done
echo "layout.samples 2: $n configurations, 48 builds"

# What the surrogate's model says matters: -fa speeds up (truth +3%),
# -O3 grows the code (truth +20%).
grep -qE "^tuner: note: search surrogate, what matters to speed: .*-fa \+[0-9.]+%" "$TMPDIR/surrogate.err" ||
	fail "surrogate: -fa not among what matters to speed: $(grep 'what matters' "$TMPDIR/surrogate.err")"
grep -qE "^tuner: note: search surrogate, what matters to size: .*-O3 \+[0-9.]+%" "$TMPDIR/surrogate.err" ||
	fail "surrogate: -O3 not among what matters to size"

# The surrogate learns: on this truth -fc makes the code smaller at no
# cost in speed and -fg makes it slower and larger, so most of what it
# proposes after its first batch (22 configurations) has -fc and little
# has -fg (at random: half each).
last=$(grep '"type":"build"' "$TMPDIR/norace/journal.jsonl" | tail -n 18 | grep -o '"flags":"[^"]*"')
fc=$(echo "$last" | grep -c -- '-fc' || true)
fg=$(echo "$last" | grep -c -- '-fg' || true)
[ "$fc" -ge 12 ] && [ "$fg" -le 5 ] ||
	fail "surrogate: of its last 18 proposals $fc have -fc (want >= 12), $fg have -fg (want <= 5)"
echo "the surrogate's last 18 proposals: $fc with -fc, $fg with -fg"

# SIGKILL in the middle, rerun: the same proposals as the run above.
res=$TMPDIR/killed
touch "$TMPDIR/hold"
setsid "$TUNER" run -q -j 2 --results "$res" "$repo/surrogate.yaml" >/dev/null 2>&1 &
pid=$!
( for _ in $(seq 1 600); do
	n=$(count_records "$res/journal.jsonl" measure 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 27 ] && exit 0
	sleep 0.05
  done ) &
# Let measurements through a few at a time until 27 are journaled.
for _ in $(seq 1 400); do
	n=$(count_records "$res/journal.jsonl" measure 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 27 ] && break
	rm -f "$TMPDIR/hold"; sleep 0.02; touch "$TMPDIR/hold"; sleep 0.05
	kill -0 $pid 2>/dev/null || fail "tuner ended before it was killed"
done
kill -KILL $pid
wait $pid 2>/dev/null || true
rm -f "$TMPDIR/hold"
before=$(count_records "$res/journal.jsonl" measure)
[ "$before" -ge 27 ] && [ "$before" -lt 40 ] || fail "killed after $before measurements, want 27..39"
"$TUNER" run -q -j 2 --results "$res" "$repo/surrogate.yaml" >"$TMPDIR/resumed.out" ||
	fail "resume failed"
[ "$(builds "$res")" = "$(builds "$TMPDIR/surrogate")" ] ||
	fail "the resumed search proposed other builds: $(diff <(builds "$res") <(builds "$TMPDIR/surrogate") | head)"
dups=$(grep '"type":"measure"' "$res/journal.jsonl" | sed -E 's/.*"key":"([0-9a-f]+)".*/\1/' | sort | uniq -d)
[ -z "$dups" ] || fail "measured twice after the resume: $dups"
echo "killed after $before of 40 measurements; the resumed search proposed the same 40"

# A time budget: no new batch after it (each measurement takes 0.3 s).
study surrogate 40 ", time: 1s" >"$repo/timed.yaml"
sed -i 's|^  command: .*measure.sh.*|  command: "sleep 0.3; $TMPDIR/measure.sh"|' "$repo/timed.yaml"
git -C "$repo" add -A && git -C "$repo" commit -q -m timed
"$TUNER" run -j 1 --results "$TMPDIR/timed" "$repo/timed.yaml" >"$TMPDIR/timed.out" 2>"$TMPDIR/timed.err" ||
	fail "timed run failed: $(tail -3 "$TMPDIR/timed.err")"
grep -q "the time budget (1s) has passed after" "$TMPDIR/timed.err" || fail "no time note: $(cat "$TMPDIR/timed.err" | tail -3)"
n=$(ids "$TMPDIR/timed" | wc -l)
[ "$n" -lt 40 ] || fail "time budget ignored: $n configurations"
# --time on the command line overrides, for the fixed orders too (which
# then go in batches of two per build slot).
"$TUNER" run -q -j 1 --time 1 --budget 40 --strategy random --results "$TMPDIR/timed2" \
	"$repo/timed.yaml" >/dev/null 2>"$TMPDIR/timed2.err" || fail "--time run failed"
grep -q "search random: the time budget (1s) has passed" "$TMPDIR/timed2.err" ||
	fail "random: no time note: $(tail -3 "$TMPDIR/timed2.err")"
n=$(ids "$TMPDIR/timed2" | wc -l)
[ "$n" -lt 40 ] && [ $((n % 2)) -eq 0 ] || fail "random under --time 1: $n configurations"

# --strategy overrides the study's: nsga2 on the surrogate's study.
"$TUNER" run -q -j 2 --strategy nsga2 --no-race --budget 12 --results "$TMPDIR/over" "$repo/surrogate.yaml" \
	>/dev/null 2>"$TMPDIR/over.err" || fail "--strategy run failed"
grep -q "search nsga2: 12 configurations" "$TMPDIR/over.err" || fail "--strategy ignored: $(cat "$TMPDIR/over.err")"
[ "$(ids "$TMPDIR/over" | wc -l)" -eq 12 ] || fail "--strategy nsga2 --budget 12"
expect_exit 2 "$TMPDIR/bad4.out" "$TUNER" run --strategy tpe "$repo/surrogate.yaml"
grep -q "unknown --strategy 'tpe'" "$TMPDIR/bad4.out" || fail "bad --strategy"

# Bad input: file:line:col and exit 2.
study surrogate 40 ", time: soon" >"$TMPDIR/bad.yaml"
expect_exit 2 "$TMPDIR/bad.out" "$TUNER" check "$TMPDIR/bad.yaml"
grep -qE "bad.yaml:[0-9]+:[0-9]+: 'search.time' is a duration" "$TMPDIR/bad.out" || fail "bad time: $(cat "$TMPDIR/bad.out")"
study tpe 40 >"$TMPDIR/bad2.yaml"
expect_exit 2 "$TMPDIR/bad2.out" "$TUNER" check "$TMPDIR/bad2.yaml"
grep -q "unknown search strategy 'tpe' (known: exhaustive, random, nsga2, surrogate)" "$TMPDIR/bad2.out" ||
	fail "bad strategy: $(cat "$TMPDIR/bad2.out")"
expect_exit 2 "$TMPDIR/bad3.out" "$TUNER" run --time forever "$repo/surrogate.yaml"
grep -q -- "--time takes a duration" "$TMPDIR/bad3.out" || fail "bad --time"

# tuner propose: the protocol, its answers checked.
out=$( (yes 'x y' || true) | "$TUNER" propose -q -s random --budget 2 "$repo/surrogate.yaml" 2>&1 >/dev/null || true)
echo "$out" | grep -q "stdin:1:1: not a number" || fail "propose: bad answer not refused: $out"
n=$( (yes '1000 100000' || true) | "$TUNER" propose -q -s nsga2 --budget 25 "$repo/surrogate.yaml" | grep -c $'\t')
[ "$n" -eq 25 ] || fail "propose: $n proposals, want 25"
(yes '1000 100000' || true) | "$TUNER" propose -q -s nsga2 --budget 25 "$repo/surrogate.yaml" | tail -n 1 | grep -qx done ||
	fail "propose: no done line"
echo ok
