# SPDX-License-Identifier: GPL-2.0-or-later
# tuner layout on natbench with its planted alignment effect (fp_plant.c):
# a study of 2 pads x 3 layout seeds (6 real builds scored under
# cachegrind), then
#   - over the study: nb_plant_mix, whose offset the pad sets, ranks first
#     and is the one whose alignment goes with the (modelled) throughput;
#   - two builds that differ only in the pad: it is the one function that
#     moved and it carries the cycle difference; two layout seeds: the
#     moves tuner counts are those readelf shows;
#   - the plant changes no transmitted byte; bad input fails cleanly.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
R=$TMPDIR/results
make_natbench_repo "$repo"

study=$repo/plant.yaml
cat >"$study" <<'YAML'
study: plant
source: {repo: ., rev: HEAD, path: natbench}
space:
  opt: [-O2]
  plant: [-DNB_PLANT_PAD=0, -DNB_PLANT_PAD=24]
layout: {samples: 3}
build:
  command: make -s -j"$TUNER_JOBS" -f "$TUNER_SRC/Makefile"
  artifact: natbench
  timeout: 600
measure: {command: '"$TUNER_SRC/score.sh"', parser: cachegrind-model, repeats: 1, timeout: 600}
objectives:
  - {name: throughput, unit: Mbit/s (modelled), goal: max}
YAML
"$TUNER" run -q --results "$R" "$study" >"$TMPDIR/run.out" 2>&1 ||
	fail "tuner run: $(tail -5 "$TMPDIR/run.out")"

# key PAD SEED: the build key of that pad and layout seed
key() {
	grep '"type":"build"' "$R/journal.jsonl" |
		grep "\"seed\":$2,\"flags\":\"-O2 -DNB_PLANT_PAD=$1\"" |
		sed 's/.*"key":"\([0-9a-f]*\)".*/\1/'
}
keys=""
for pad in 0 24; do
	for seed in 0 1 2; do
		k=$(key $pad $seed)
		[ -n "$k" ] || fail "no build of pad $pad seed $seed"
		keys="$keys $k"
	done
done

# The plant changes no behaviour: every build transmitted the same bytes,
# and a planted artifact verifies every checksum and translation.
sums=$(for k in $keys; do cat "$R/builds/$k/natbench.stdout.0"; done | sort -u)
[ "$(echo "$sums" | wc -l)" = 1 ] || fail "the builds transmit different bytes: $sums"
"$R/builds/$(key 24 1)/natbench" --packets 20000 --verify >/dev/null 2>"$TMPDIR/verify" ||
	fail "--verify: $(cat "$TMPDIR/verify")"
grep -q 'bad=0 translation_errors=0' "$TMPDIR/verify" || fail "verify: $(cat "$TMPDIR/verify")"

# The plant as built: nb_plant_mix at the pad's offset in an 8 KB-aligned
# slot; its size sets how many lines it spans at each pad.
for pad in 0 24; do
	a=$(nm "$R/builds/$(key $pad 1)/natbench" | awk '$3 == "nb_plant_mix" { print $1 }')
	[ -n "$a" ] && [ $((0x$a % 8192)) = $pad ] || fail "pad $pad: nb_plant_mix at '$a'"
done
size=$(nm -S "$R/builds/$(key 0 1)/natbench" | awk '$4 == "nb_plant_mix" { print $2 }')
size=$((0x$size))
lines0=$(((0 + size - 1) / 32 + 1))
lines24=$(((24 + size - 1) / 32 + 1))
[ $lines0 = 1 ] && [ $lines24 = 2 ] ||
	fail "nb_plant_mix is $size bytes: spans $lines0 / $lines24 lines at pads 0 / 24"
# Its instruction misses, straight from cachegrind's files: about none in
# one line, at least one a round (NB_PLANT_ROUNDS a packet) in two.
rounds=$(sed -n 's/^#define NB_PLANT_ROUNDS \([0-9]*\)$/\1/p' "$ROOT/targets/natbench/fp_plant.c")
i1mr() {
	awk '/^fn=/ { f = substr($0, 4) } /^[0-9]/ && f == "nb_plant_mix" { m += $3 }
	     END { printf "%.2f\n", m / 30000 }' "$R/builds/$1/cachegrind.out.0"
}
awk -v a="$(i1mr "$(key 0 2)")" -v b="$(i1mr "$(key 24 2)")" -v r="$rounds" \
	'BEGIN { exit !(a < 1 && b >= r) }' ||
	fail "nb_plant_mix I1 misses/packet: $(i1mr "$(key 0 2)") at pad 0, $(i1mr "$(key 24 2)") at 24 ($rounds rounds)"

# Over the study: the planted function ranks first, significantly.
"$TUNER" layout "$R" --study "$study" >"$TMPDIR/study.out" 2>"$TMPDIR/study.err" ||
	fail "tuner layout (study): $(cat "$TMPDIR/study.err")"
cat "$TMPDIR/study.out"
grep -q '^results: .*: 6 builds with cachegrind data' "$TMPDIR/study.out" || fail "not 6 builds"
grep -q 'MODELLED' "$TMPDIR/study.out" || fail "the report does not say the costs are modelled"
grep -q '^objective: throughput (Mbit/s (modelled)), MODELLED' "$TMPDIR/study.out" ||
	fail "the objective is not said to be modelled"
first=$(awk '$1 == "1" && NF >= 10 { print $2; exit }' "$TMPDIR/study.out")
[ "$first" = nb_plant_mix ] || fail "rank 1 is '$first', not nb_plant_mix"
grep -q '^verdict: the alignment of nb_plant_mix goes with throughput' "$TMPDIR/study.out" ||
	fail "no verdict for nb_plant_mix"
[ "$(grep -c '^verdict: the alignment of' "$TMPDIR/study.out")" = 1 ] ||
	fail "another function's alignment is claimed too"
# Its classes: offsets 0 and 24, three builds each, the lines nm's size
# gives, dearer and slower at 24.
awk -v l0=$lines0 -v l24=$lines24 '
	/^nb_plant_mix: offset mod 32/ { on = 1; next }
	on && $1 == "+0" { n0 = $2; ln0 = $3; c0 = $4; t0 = $5 }
	on && $1 == "+24" { n24 = $2; ln24 = $3; c24 = $4; t24 = $5; on = 0 }
	END { exit !(n0 == 3 && n24 == 3 && ln0 == l0 && ln24 == l24 && c24 > c0 && t24 < t0) }' \
	"$TMPDIR/study.out" || fail "nb_plant_mix's class table is wrong"

# Two builds that differ only in the pad: one function moved, by 24 bytes,
# and it carries the difference.
a=$(key 0 1)
b=$(key 24 1)
"$TUNER" layout --results "$R" "${a:0:8}" "${b:0:8}" >"$TMPDIR/two.out" 2>"$TMPDIR/two.err" ||
	fail "tuner layout (two builds): $(cat "$TMPDIR/two.err")"
cat "$TMPDIR/two.out"
grep -q 'functions in both artifacts; 1 moved, 1 to another line offset' "$TMPDIR/two.out" ||
	fail "two builds: not exactly one function moved"
# rank function size A:addr off set ln B:addr off set ln moved A B B-A share
awk '$1 == "1" { exit !($2 == "nb_plant_mix" && $5 == 0 && $7 == 1 && $9 == 24 && $11 == 2 &&
			$12 == "+24" && $15 > 0 && $16 + 0 >= 90) }' "$TMPDIR/two.out" ||
	fail "two builds: row 1 is not nb_plant_mix moving +24 with the cost"
# The same from the artifacts' paths.
"$TUNER" layout "$R/builds/$a/natbench" "$R/builds/$b/natbench" --top 1 >"$TMPDIR/two2.out" ||
	fail "tuner layout on two artifacts"
awk '$1 == "1" { exit !($2 == "nb_plant_mix") }' "$TMPDIR/two2.out" || fail "artifacts: row 1"

# Two layout seeds: the counts of functions in both and of those that
# moved are readelf's.
c=$(key 0 0)
"$TUNER" layout --results "$R" "$c" "$a" >"$TMPDIR/seeds.out" || fail "tuner layout (seeds)"
funcs() {
	LC_ALL=C readelf -sW "$R/builds/$1/natbench" |
		awk '$4 == "FUNC" && $7 != "UND" { print $8, $2 }' | LC_ALL=C sort
}
funcs "$c" >"$TMPDIR/c.syms"
funcs "$a" >"$TMPDIR/a.syms"
want=$(LC_ALL=C join "$TMPDIR/c.syms" "$TMPDIR/a.syms" |
	awk '{ n++; m += $2 != $3 } END { print n, m }')
got=$(sed -n 's/^symbols: \([0-9]*\) functions in both artifacts; \([0-9]*\) moved.*/\1 \2/p' \
	"$TMPDIR/seeds.out")
[ "$got" = "$want" ] || fail "seeds: tuner says '$got' (common moved), readelf '$want'"
[ "${got#* }" -gt 50 ] || fail "a layout seed moved only ${got#* } functions"

# Bad input.
"$TUNER" layout --help | grep -q MODELLED || fail "--help"
if "$TUNER" layout "$TMPDIR/nope" 2>"$TMPDIR/err"; then fail "a missing directory"; fi
st=0; "$TUNER" layout "$TMPDIR/nope" 2>/dev/null || st=$?
[ $st = 2 ] || fail "a missing directory: exit $st"
mkdir -p "$TMPDIR/bare"
cp "$R/builds/$a/natbench" "$TMPDIR/bare/"
st=0; "$TUNER" layout "$TMPDIR/bare" "$R/builds/$b" 2>"$TMPDIR/err" || st=$?
[ $st = 1 ] && grep -q 'no cachegrind data.*--cachegrind-out-file' "$TMPDIR/err" ||
	fail "no cachegrind data: exit $st, $(cat "$TMPDIR/err")"
st=0; "$TUNER" layout "$TMPDIR/bare" 2>"$TMPDIR/err" || st=$?
[ $st = 2 ] && grep -q 'no journal.jsonl' "$TMPDIR/err" || fail "no journal: exit $st"
st=0; "$TUNER" layout "$R" --objective nosuch 2>"$TMPDIR/err" || st=$?
[ $st = 2 ] && grep -q "no build of .* has a value of 'nosuch'" "$TMPDIR/err" ||
	fail "unknown objective: exit $st, $(cat "$TMPDIR/err")"
st=0; "$TUNER" layout "$R" --mod x 2>/dev/null || st=$?
[ $st = 2 ] || fail "--mod x: exit $st"
echo ok
