# SPDX-License-Identifier: GPL-2.0-or-later
# The rest of a study's surface on one cheap study: size by command, the
# json: parser, two testbeds x 3 repeats, 2 layout seeds pooled, a hard limit
# that keeps a config off the front, --budget, deploy before each measure.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
cat >"$repo/study.yaml" <<'EOF2'
study: features
source: {path: prog}
space:
  level: ["-DLEVEL=1", "-DLEVEL=2", "-DLEVEL=3", "-DLEVEL=4"]
build:
  command: 'echo "$TUNER_FLAGS" | sed "s/.*=//" > "$TUNER_OUT/level"; echo "$TUNER_LAYOUT_SEED" > "$TUNER_OUT/seed"; cp "$TUNER_OUT/level" "$TUNER_OUT/art"'
  artifact: art
deploy:
  command: 'echo "deploy $TUNER_TESTBED $TUNER_RUN" >> "$TUNER_OUT/deploys"'
size:
  of: artifact
  measure: command
  command: 'echo "size: $(( $(cat "$TUNER_ARTIFACT") * 1000 ))"'
measure:
  command: 'l=$(cat "$TUNER_ARTIFACT"); s=$(cat "$TUNER_OUT/seed"); printf "{\"r\": {\"v\": [%d, %d]}}\n" $((l * 100 + s + TUNER_RUN)) 7'
  # It judges the flags (a -D the program never reads) or its own files,
  # not only the program: each build is measured.
  same_code: separate
  parser: 'json:r.v[0]'
  repeats: 3
testbeds: [bench-a, bench-b]
lab: {mode: all}
layout: {samples: 2}
objectives:
  - {name: speed, goal: max}
  - {name: size, unit: bytes, goal: min, limit: 3500}
EOF2
git -C "$repo" add -A && git -C "$repo" commit -q -m study
res=$TMPDIR/res
"$TUNER" run -q --all --results "$res" "$repo/study.yaml" >"$TMPDIR/out" || fail "run failed: $(cat "$TMPDIR/out")"
cat "$TMPDIR/out"
j=$res/journal.jsonl
# 4 configs x 2 seeds builds; x 2 testbeds x 3 repeats measurements.
[ "$(count_records "$j" build)" -eq 8 ] || fail "builds: $(count_records "$j" build)"
[ "$(count_records "$j" measure)" -eq 48 ] || fail "measures: $(count_records "$j" measure)"
[ "$(grep '"type":"measure"' "$j" | grep -c '"testbed":"bench-b"')" -eq 24 ] || fail "bench-b measurements"
# Deploy ran before every measurement (interleaved: each testbed held
# another build before), with testbed and run index.
for d in "$res"/builds/*; do
	[ "$(wc -l <"$d/deploys")" -eq 6 ] || fail "$d: $(wc -l <"$d/deploys") deploys, want 6"
	grep -q '^deploy bench-a 2$' "$d/deploys" || fail "$d: no deploy of run 2 on bench-a"
done
# Speed trades against size, so LEVEL=1..3 are all on the front; LEVEL=4
# is fastest but its 4000 bytes break the 3500-byte limit. LEVEL=3 pools
# 300..303 over seeds, runs and testbeds: trimmed mean 301.5 of 12.
grep -q '^Pareto set (3 of 4 configurations)' "$TMPDIR/out" || fail "front size"
grep -E '^\* .* 301\.5 ±[0-9.]+ \(n=12\) +3000 ±0 \(n=2\) ' "$TMPDIR/out" | grep -q 'DLEVEL=3' ||
	fail "LEVEL=3 row: $(grep DLEVEL=3 "$TMPDIR/out")"
grep 'DLEVEL=4' "$TMPDIR/out" | grep -q 'over a limit' || fail "LEVEL=4 not marked over the limit"
grep -q '"n": 12' "$res/pareto.json" || fail "pareto.json lacks n"
csv=$res/results.csv
head -n 1 "$csv" | grep -q '^config,flags,pgo,status,on_front,feasible,speed,speed_n,speed_median,speed_sd,speed_min,speed_max,size,size_n,' ||
	fail "results.csv header: $(head -n 1 "$csv")"
grep -q ',-DLEVEL=3,off,ok,1,1,301.5,12,301.5,[0-9.]*,300,303,3000,2,3000,0,3000,3000' "$csv" ||
	fail "results.csv LEVEL=3 row: $(grep LEVEL=3 "$csv")"
grep -q ',-DLEVEL=4,off,ok,0,0,' "$csv" || fail "results.csv LEVEL=4 row: $(grep LEVEL=4 "$csv")"
# Layout noise as a random effect: LEVEL=3's two seeds have means 301 and
# 302 over 6 runs each (each seed's runs 300..302 or 301..303 on both
# testbeds): within-seed sd sqrt(8/10), between-seed sd sqrt((3 - 0.8)/6).
# Newer columns come after the older ones; last, one per dimension.
head -n 1 "$csv" | tr -d '\r' | grep -q ',size_max,tied,tied_with,race,runs,speed_run_sd,speed_layout_sd,size_run_sd,size_layout_sd,applied_lines,not_applied,same_code_as,dim:level$' ||
	fail "results.csv new columns: $(head -n 1 "$csv")"
tr -d '\r' <"$csv" | grep -q ',-DLEVEL=3,.*,3000,3000,0,,,,0.894427191,0.6055300708,,,,,,-DLEVEL=3$' ||
	fail "results.csv LEVEL=3 spread: $(grep LEVEL=3 "$csv")"
grep 'DLEVEL=3' "$TMPDIR/out" | grep -q ' 0.3% / 0.2% ' || fail "table spread column: $(grep DLEVEL=3 "$TMPDIR/out")"
grep -q '"layout_sd": 0.605530' "$res/pareto.json" || fail "pareto.json lacks layout_sd"
grep -q '"noisy": true' "$res/pareto.json" || fail "pareto.json: speed not compared under noise"

# --budget takes a seeded sample of the space.
"$TUNER" run -q --all --budget 2 --seed 5 --results "$TMPDIR/b" "$repo/study.yaml" >"$TMPDIR/out2"
[ "$(count_records "$TMPDIR/b/journal.jsonl" build)" -eq 4 ] || fail "budget 2 x 2 seeds should build 4"
"$TUNER" run -q --all --budget 2 --seed 5 --results "$TMPDIR/b2" "$repo/study.yaml" >"$TMPDIR/out3"
diff <(grep -o 'DLEVEL=[0-9]' "$TMPDIR/out2" | sort) <(grep -o 'DLEVEL=[0-9]' "$TMPDIR/out3" | sort) ||
	fail "same seed, different sample"

# A measure command that prints more than 1 MiB: its numbers are not read
# from the first MiB (the "number" parser takes the last number: 7 there,
# 1 in the whole output); the measurement fails and says why.
cat >"$repo/big.yaml" <<'EOF2'
study: big-output
source: {path: prog}
space:
  level: ["-DLEVEL=1"]
build: {command: 'echo 1 > "$TUNER_OUT/art"', artifact: art}
measure: {command: 'yes 7 | head -c 2000000; echo 1', parser: number}
objectives:
  - {name: speed, goal: max}
EOF2
"$TUNER" run -q --all --results "$TMPDIR/big" "$repo/big.yaml" >/dev/null 2>&1 || true
grep '"type":"measure"' "$TMPDIR/big/journal.jsonl" | head -n 1 |
	grep -q '"ok":false,.*measure printed more than 1 MiB on stdout: not parsed' ||
	fail "2 MB of measure output: $(grep '"type":"measure"' "$TMPDIR/big/journal.jsonl" | head -n 1)"
echo ok
