# SPDX-License-Identifier: GPL-2.0-or-later
# tuner bisect on 30 commits of natbench history with one known regression
# among commits that only add unused code or move comments (new layouts),
# measured by the noisy target (0.5% run noise, layout offsets N(0, 2%)
# keyed by the artifact): it names the real commit for several noise seeds
# and never a layout-only one; a change in two steps is reported as
# unclear, with the narrowed range, as is a commit that does not build; a
# rerun measures nothing new, an interrupted one resumes; errors.
. "$ROOT/tests/e2e/lib.sh"
. "$ROOT/tests/e2e/bisect_history.sh"

make_noisy

# The noisy target's two options bisect rests on: the layout offset
# follows the artifact's content, "*" in the truth applies to every flag.
printf 'a\n' >"$TMPDIR/k1"
printf 'b\n' >"$TMPDIR/k2"
printf 'a\n' >"$TMPDIR/k3"
printf '* 0.97\n' >"$TMPDIR/t97"
val() { "$noisy" --run-sd 0 "$@" | sed -n 's/^value //p'; }
[ "$(TUNER_FLAGS=-O2 val --truth "$TMPDIR/t97" --layout-sd 0)" = "970.000000" ] || fail "'*' in the truth"
[ "$(val --truth "$TMPDIR/t97" --layout-key "$TMPDIR/k1")" = "$(val --truth "$TMPDIR/t97" --layout-key "$TMPDIR/k3")" ] ||
	fail "same artifact, other layout offset"
[ "$(val --truth "$TMPDIR/t97" --layout-key "$TMPDIR/k1")" != "$(val --truth "$TMPDIR/t97" --layout-key "$TMPDIR/k2")" ] ||
	fail "--layout-key ignored"
[ "$(val --truth "$TMPDIR/t97")" != "$(val --truth "$TMPDIR/t97" --layout-key "$TMPDIR/k1")" ] ||
	fail "--layout-key ignored (2)"

# bisect_run HISTORY SEED OUT [OPTIONS...]: exit status in $rc.
bisect_run() {
	local repo=$1 seed=$2 out=$3
	shift 3
	bisect_study "$TMPDIR/s$seed.yaml" "$repo" "$noisy" "$seed"
	set +e
	"$TUNER" bisect -q "$TMPDIR/s$seed.yaml" --good good --bad bad --results "$TMPDIR/r$seed" "$@" \
		>"$out" 2>"$out.err"
	rc=$?
	set -e
}
named() { sed -n 's/^first bad commit: \([0-9a-f]*\) .*/\1/p' "$1"; }
measures() { count_records "$TMPDIR/r$1/journal.jsonl" measure; }

# One history, the regression at commit 19 between two unused-code commits.
bisect_history "$TMPDIR/h1" 19
[ "$(echo "$layout_only" | wc -w)" -ge 10 ] || fail "history: $layout_only"
for seed in 1 2 3; do
	bisect_run "$TMPDIR/h1" "$seed" "$TMPDIR/o$seed"
	cat "$TMPDIR/o$seed"
	[ $rc -eq 0 ] || fail "seed $seed: exit $rc: $(cat "$TMPDIR/o$seed.err")"
	n=$(named "$TMPDIR/o$seed")
	case " $layout_only " in *" $n "*) fail "seed $seed blamed a layout-only commit: $n" ;; esac
	[ "$n" = "$culprit" ] || fail "seed $seed named '$n', not $culprit"
	grep -q "^first bad commit: $culprit fp_rx: hash every received Ethernet header$" "$TMPDIR/o$seed" ||
		fail "seed $seed: the subject"
	# The effect against its parent, as compare prints it.
	grep -qE '^  B - A = -[0-9.e+-]+, 95% CI \[.*\]; relative -[0-9.]+% \[.*\], p = .*: significant$' \
		"$TMPDIR/o$seed" || fail "seed $seed: effect line"
	grep -qE '^  noise: run sd [0-9.]+%, layout sd [0-9.]+%; layout band ±[0-9.]+%: the difference is (within|beyond) it$' \
		"$TMPDIR/o$seed" || fail "seed $seed: noise line"
	grep -qE '^  K=[0-9]+( \(good, bad: [0-9]+\))?: vs good .*; vs bad .*: (good|bad)$' "$TMPDIR/o$seed" ||
		fail "seed $seed: steps"
	grep -qE '^spent: [0-9]+ measurement runs \([0-9]+ new, 0 from the journal\), [0-9]+ builds' \
		"$TMPDIR/o$seed" || fail "seed $seed: spent line"
	# Every classification matches the truth: before the culprit good.
	grep -E '^step [0-9]+: ' "$TMPDIR/o$seed" | while read -r _ _ id _; do
		verdict=$(sed -n "/^step [0-9]*: $id /,/^[a-z]/ s/^  K=.*: \(good\|bad\)$/\1/p" "$TMPDIR/o$seed" | tail -n 1)
		if git -C "$TMPDIR/h1" merge-base --is-ancestor "$culprit" "$id"; then want=bad; else want=good; fi
		[ "$verdict" = "$want" ] || fail "seed $seed: step $id said '$verdict', truth $want"
	done
done

# A rerun resumes from the journal: the same answer, nothing measured;
# --first-parent walks the same line of commits.
before=$(measures 1)
bisect_run "$TMPDIR/h1" 1 "$TMPDIR/o1b" --first-parent
[ $rc -eq 0 ] || fail "rerun: exit $rc"
[ "$(measures 1)" -eq "$before" ] || fail "rerun measured $(($(measures 1) - before)) more"
grep -qE '^spent: ([0-9]+) measurement runs \(0 new, \1 from the journal\), ([0-9]+) builds \(0 new, \2 from the journal\)' \
	"$TMPDIR/o1b" || fail "rerun spent: $(grep '^spent' "$TMPDIR/o1b")"
diff <(grep -v '^spent\|^bisect (study' "$TMPDIR/o1") <(grep -v '^spent\|^bisect (study' "$TMPDIR/o1b") ||
	fail "rerun differs"

# Interrupted (SIGINT once measurements are in the journal): exit 130,
# and the rerun finishes with what the journal holds.
bisect_study "$TMPDIR/s7.yaml" "$TMPDIR/h1" "$noisy" 7
"$TUNER" bisect -q "$TMPDIR/s7.yaml" --good good --bad bad --results "$TMPDIR/r7" >"$TMPDIR/o7" 2>"$TMPDIR/o7.err" &
pid=$!
for _ in $(seq 200); do
	n=$(measures 7 2>/dev/null)
	[ "${n:-0}" -ge 20 ] && break
	sleep 0.05
done
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 130 ] || fail "interrupt: exit $rc"
grep -q '^tuner: bisect: interrupted; run again to resume$' "$TMPDIR/o7.err" || fail "interrupt: $(cat "$TMPDIR/o7.err")"
bisect_run "$TMPDIR/h1" 7 "$TMPDIR/o7"
[ $rc -eq 0 ] && [ "$(named "$TMPDIR/o7")" = "$culprit" ] || fail "after the interrupt: $(cat "$TMPDIR/o7")"
grep -qE '^spent: .* \([0-9]+ new, [1-9][0-9]* from the journal\)' "$TMPDIR/o7" || fail "the rerun did not resume"

# Another history, the regression early.
bisect_history "$TMPDIR/h2" 6
bisect_run "$TMPDIR/h2" 4 "$TMPDIR/o4"
[ $rc -eq 0 ] && [ "$(named "$TMPDIR/o4")" = "$culprit" ] || fail "early regression: $(cat "$TMPDIR/o4")"

# No change between the endpoints: nothing to bisect, exit 0.
bisect_study "$TMPDIR/s5.yaml" "$TMPDIR/h2" "$noisy" 5
"$TUNER" bisect -q "$TMPDIR/s5.yaml" --good "$culprit" --bad bad --results "$TMPDIR/r5" >"$TMPDIR/o5" ||
	fail "no change: exit $?"
grep -q '^nothing to bisect: bad does not differ significantly from good with 32 layout seeds$' "$TMPDIR/o5" ||
	fail "no change: $(cat "$TMPDIR/o5")"
grep -q '^first bad commit' "$TMPDIR/o5" && fail "no change, yet a culprit"

# The commit before the regression does not build: skipped, and bisect
# says the first bad commit is it or the regression, naming neither.
BISECT_BROKEN=1 bisect_history "$TMPDIR/h4" 19
bisect_run "$TMPDIR/h4" 8 "$TMPDIR/o8"
cat "$TMPDIR/o8"
[ $rc -eq 1 ] || fail "broken commit: exit $rc"
grep -qE '^  K=[0-9]+: not measured \(failed\): skipped$' "$TMPDIR/o8" || fail "broken commit: not skipped"
grep -q '^no culprit named: commits that could not be measured hide it; the first bad commit is: one of 2 commits:$' \
	"$TMPDIR/o8" || fail "broken commit: the range"
grep -q "^  $culprit fp_rx: hash every received Ethernet header$" "$TMPDIR/o8" || fail "broken commit: the culprit"
grep -q ' (skipped)$' "$TMPDIR/o8" || fail "broken commit: the skipped one"

# A change in two steps of 5% (commits 10 and 20): with the layout seeds
# to see it (16 from the start), the commit between them differs from
# both, and bisect says so instead of guessing. (With less data it may
# call that commit bad and name the first step, as git bisect would.)
bisect_history "$TMPDIR/h3" 10 0.95 20 0.9025
bisect_run "$TMPDIR/h3" 6 "$TMPDIR/o6" --layout 16 --max-layout 16
cat "$TMPDIR/o6"
[ $rc -eq 1 ] || fail "two steps: exit $rc"
grep -q '^no culprit named: .*between good and bad' "$TMPDIR/o6" || fail "two steps: no reason"
grep -q '^first bad commit' "$TMPDIR/o6" && fail "two steps, yet a culprit"
grep -q "^  $culprit " "$TMPDIR/o6" || fail "two steps: the range lacks the first step"

# Usage and revision errors: exit 2, one message.
err() {
	set +e
	"$TUNER" bisect -q "$TMPDIR/s1.yaml" --results "$TMPDIR/rerr" "$@" >/dev/null 2>"$TMPDIR/err"
	rc=$?
	set -e
	[ $rc -eq 2 ] || fail "bisect $*: exit $rc, want 2"
	[ "$(wc -l <"$TMPDIR/err")" -eq 1 ] || fail "bisect $*: $(cat "$TMPDIR/err")"
	grep -q "^tuner: bisect: $msg" "$TMPDIR/err" || fail "bisect $*: $(cat "$TMPDIR/err")"
}
msg="unknown revision 'nosuch'" err --good nosuch --bad bad
msg="unknown revision 'nosuch'" err --good good --bad nosuch
msg="good 'bad' and bad 'bad~0' are the same commit" err --good bad --bad bad~0
msg="good 'bad' (.*) is not an ancestor of bad 'good' .*swapped" err --good bad --bad good
msg="bisect needs at least 2 layout seeds.*layout shift" err --good good --bad bad --layout 1
msg="bisect needs at least 2 layout seeds" err --good good --bad bad --max-layout 1
msg="--max-layout is below --layout" err --good good --bad bad --layout 8 --max-layout 4
msg="need --good REV and --bad REV" err --good good
msg="--repeats takes" err --good good --bad bad --repeats 0
[ ! -e "$TMPDIR/rerr" ] || fail "an error left results behind"
"$TUNER" bisect --help | grep -q '^usage: tuner bisect' || fail "--help"
diff <("$TUNER" bisect --help) <("$TUNER" help bisect) || fail "help differs"
echo ok
