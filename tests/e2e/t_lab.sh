# SPDX-License-Identifier: GPL-2.0-or-later
# Real-router testbeds, with fake ones that fail on cue
# (tests/fixtures/fakelab): deploy once per build per testbed, ready
# polled, reboot between runs, a build that does not come up recorded as
# a failed deploy, a power cut redone on the other testbed, a dead testbed
# quarantined and its work done by the other, secrets kept out of the
# journal and logs, split balancing and all mode, resume after SIGKILL
# without flashing again.
. "$ROOT/tests/e2e/lib.sh"

repo=$TMPDIR/repo
make_repo "$repo"
cp -r "$ROOT/tests/fixtures/fakelab" "$repo/fakelab"
export LAB=$TMPDIR/lab LAB_SECRET=s3cr3t-Pa55word
two="[{name: r1, env: {ROUTER: r1, ROUTER_PASS: '\${LAB_SECRET}'}}, {name: r2, env: {ROUTER: r2, ROUTER_PASS: 'pw=\${LAB_SECRET}'}}]"
# study NAME MODE ORDER VALUES [TESTBEDS]: a study of the fake lab (on
# r1 and r2 by default).
study() {
	local tbs=${5:-$two}
	cat >"$repo/$1.yaml" <<EOF2
study: $1
source: {path: prog}
space:
  v: [$4]
build:
  command: '[ "\$TUNER_FLAGS" != "\${SLOW_BUILD:-}" ] || sleep 2; echo "\$TUNER_FLAGS" | sed "s/.*=//" > "\$TUNER_OUT/art"'
  artifact: art
deploy: {command: '"\$TUNER_STUDY_DIR"/fakelab/deploy.sh', timeout: 10}
ready: {command: '"\$TUNER_STUDY_DIR"/fakelab/ready.sh', timeout: 5, interval: 0.05, within: 1.5}
reboot: {command: '"\$TUNER_STUDY_DIR"/fakelab/reboot.sh'}
recover: {command: '"\$TUNER_STUDY_DIR"/fakelab/recover.sh', timeout: 10}
measure:
  command: '"\$TUNER_STUDY_DIR"/fakelab/measure.sh'
  repeats: 4
  same_code: separate
  parser: ${PARSER:-number}
testbeds: $tbs
lab: {mode: $2, order: $3}
objectives:
  - {name: speed, goal: max}
EOF2
	git -C "$repo" add -A && git -C "$repo" commit -q -m "$1"
}
fresh_lab() {
	rm -rf "$LAB"
	mkdir -p "$LAB/r1" "$LAB/r2" "$LAB/r3"
}
# deploys RES: "build testbed" of each deploy the journal records.
deploys() {
	grep '"event":"deploy"' "$1/journal.jsonl" | sed -E 's/.*"testbed":"([^"]*)".*"build":"([^"]*)".*/\2 \1/'
}

# 1. Split, builds order: 3 builds that boot, one that panics.
fresh_lab
study split split builds '"-DV=100", "-DV=200", "-DV=300", "-DV=panic"'
res=$TMPDIR/split
# Done, with one configuration failed: exit 3.
expect_exit 3 "$TMPDIR/out" "$TUNER" run -q --all --results "$res" "$repo/split.yaml"
cat "$TMPDIR/out"
j=$res/journal.jsonl
ok=$(grep '"type":"measure"' "$j" | grep -c '"ok":true')
[ "$ok" -eq 12 ] || fail "split: $ok good measurements, want 3 builds x 4"
# Balanced: each testbed measured each good build twice (runs rotate).
for r in r1 r2; do
	n=$(grep '"type":"measure"' "$j" | grep '"ok":true' | grep -c "\"testbed\":\"$r\"")
	[ "$n" -eq 6 ] || fail "split: $r took $n measurements, want 6"
done
# Deploy once per build per testbed: no (build, testbed) pair twice.
[ -z "$(deploys "$res" | sort | uniq -d)" ] || fail "a build flashed twice on one testbed: $(deploys "$res" | sort | uniq -c)"
# Ready was polled (3 polls a boot) and reboots came between runs.
[ "$(grep -c '^== tuner: ready$' "$res/testbeds/r1.log")" -ge 6 ] || fail "ready not polled: $(grep -c ready "$res/testbeds/r1.log")"
[ "$(grep -c '"event":"reboot"' "$j")" -ge 4 ] || fail "no reboot between runs"
# The panicking build: did not come up twice, recovered each time, then a
# failed deploy of that build (one record), not a testbed fault.
[ "$(grep -c '"event":"boot-failed"' "$j")" -eq 2 ] || fail "boot failures: $(grep -c boot-failed "$j")"
[ "$(grep '"type":"measure"' "$j" | grep -c '"deploy_failed":true')" -eq 1 ] || fail "no failed-deploy record"
grep '"deploy_failed":true' "$j" | grep -q '"error":"deploy failed: the build did not come up on r1, r2 (here: not ready within' ||
	fail "failed-deploy reason: $(grep '"deploy_failed":true' "$j")"
grep -q '"event":"quarantine"' "$j" && fail "a testbed quarantined for a build's fault"
grep -- '-DV=panic' "$TMPDIR/out" | grep -q 'deploy-failed' || fail "table: $(grep panic "$TMPDIR/out")"
# Per-testbed breakdown.
grep -A4 '^Testbeds' "$TMPDIR/out" | grep -q '^ *r1 ' || fail "no per-testbed breakdown"
grep -q '"testbeds": \[' "$res/pareto.json" || fail "pareto.json: no testbeds"
head -n 1 "$res/testbeds.csv" | grep -q '^testbed,' || fail "no testbeds.csv"
# Secrets: in the commands' environment, never in the journal or a log.
grep -rq "$LAB_SECRET" "$res" && fail "the secret leaked: $(grep -rl "$LAB_SECRET" "$res")"
grep -q 'password \*\*\*' "$res/testbeds/r1.log" || fail "r1.log: no scrubbed password"
grep -rq 'password pw=\*\*\*' "$res/builds" || fail "measure logs: no scrubbed password"
# A rerun: nothing flashed, measured or retried.
before=$(deploys "$res" | wc -l)
"$TUNER" run -q --all --results "$res" "$repo/split.yaml" >"$TMPDIR/out2" || [ $? -eq 3 ] || fail "rerun"
grep -q 'measurements: 0 new' "$TMPDIR/out2" || fail "rerun measured: $(grep '^builds' "$TMPDIR/out2")"
[ "$(deploys "$res" | wc -l)" -eq "$before" ] || fail "rerun flashed"

# 2. A power cut on r1 mid-measurement: the run is redone, nothing lost;
# all mode: each testbed measures each build.
fresh_lab
# r2 reads 5% more than r1: a testbed effect, blocked.
study cut all rounds '"-DV=100", "-DV=200"' '[{name: r1, env: {ROUTER: r1, ROUTER_PASS: x}}, {name: r2, env: {ROUTER: r2, ROUTER_PASS: x, PCT: "5"}}]'
touch "$LAB/r1/cut"
res=$TMPDIR/cut
"$TUNER" run -q --all --results "$res" "$repo/cut.yaml" >"$TMPDIR/out" 2>"$TMPDIR/err" ||
	fail "cut run: $(cat "$TMPDIR/out" "$TMPDIR/err")"
cat "$TMPDIR/out"
j=$res/journal.jsonl
[ "$(grep '"type":"measure"' "$j" | grep -c '"ok":true')" -eq 16 ] || fail "cut: not 2 x 4 x 2 good measurements"
grep '"type":"measure"' "$j" | grep -q '"ok":false' && fail "cut: the power cut was recorded as the build's failure"
grep '"event":"fault"' "$j" | grep -q '"testbed":"r1"' || fail "cut: no fault of r1"
grep -q 'testbed r1: measurement of .* (75: the testbed' "$TMPDIR/err" || fail "cut: no note: $(cat "$TMPDIR/err")"
grep -q '^speed: the testbeds differ (p = ' "$TMPDIR/out" || fail "cut: no testbed effect: $(cat "$TMPDIR/out")"
# On a log scale r2 sits ln(1.05)/2 above the testbeds' mean: +2.47%.
grep -E '^r2 .* \+2\.47%' "$TMPDIR/out" | grep -q ok || fail "cut: r2's effect: $(grep '^r2' "$TMPDIR/out")"
grep -E '^r1 .* -2\.41%' "$TMPDIR/out" | grep -q ok || fail "cut: r1's effect: $(grep '^r1' "$TMPDIR/out")"
# Taken back by it, a configuration's 8 samples agree (100 and 105 both
# read 102.5): the testbeds' difference is not noise of the build's.
grep -E 'DV=100' "$TMPDIR/out" | grep -Eq '102\.5 ±(0|[0-9.]+e-1[0-9]) \(n=8\)' || fail "cut: V=100: $(grep DV=100 "$TMPDIR/out")"
grep -q '"adjusted": true' "$res/pareto.json" || fail "cut: pareto.json testbeds"
grep -q '^r2,8,0,8,0,0,0,[0-9]*,0,0.0246' "$res/testbeds.csv" || fail "cut: testbeds.csv: $(cat "$res/testbeds.csv")"

# 3. A dead testbed: quarantined after 3 faults, its work done by r1.
fresh_lab
study dead split rounds '"-DV=100", "-DV=200", "-DV=300"'
touch "$LAB/r2/dead"
res=$TMPDIR/dead
"$TUNER" run -q --all --results "$res" "$repo/dead.yaml" >"$TMPDIR/out" 2>"$TMPDIR/err" ||
	fail "dead run: $(cat "$TMPDIR/out" "$TMPDIR/err")"
j=$res/journal.jsonl
grep '"event":"quarantine"' "$j" | grep -q '"testbed":"r2"' || fail "r2 not quarantined"
grep -q 'warning: testbed r2: quarantined after 3 faults in a row; the last: ' "$TMPDIR/err" ||
	fail "no quarantine warning: $(cat "$TMPDIR/err")"
# Each fault says what the command said last.
grep -q "testbed r2: deploy of .* failed with status 255: ssh: connect to host r2: No route to host" "$TMPDIR/err" ||
	fail "no reason in the fault: $(cat "$TMPDIR/err")"
grep -q 'recover failed with status 1: PDU: no answer' "$TMPDIR/err" || fail "no reason for recover"
[ "$(grep '"type":"measure"' "$j" | grep '"ok":true' | grep -c '"testbed":"r1"')" -eq 12 ] ||
	fail "r1 did not take r2's work"
grep -q '^Pareto set (1 of 3' "$TMPDIR/out" || fail "dead: $(cat "$TMPDIR/out")"
# Every testbed dead: the run stops with an error, exit 1.
fresh_lab
touch "$LAB/r1/dead" "$LAB/r2/dead"
expect_exit 1 "$TMPDIR/err" "$TUNER" run -q --all --results "$TMPDIR/alldead" "$repo/dead.yaml"
grep -q 'every testbed is quarantined' "$TMPDIR/err" || fail "every testbed dead: $(cat "$TMPDIR/err")"

# 4. SIGKILL mid-measurement, rerun: the build on the testbed is not
# flashed again. V=100 builds slowly, so V=200 is measured first and is
# killed in its run 2 (held); the rerun goes on with V=200, which the
# testbed holds, before V=100 (first in configuration order).
fresh_lab
study kill split builds '"-DV=100", "-DV=200"' '[{name: r3, env: {ROUTER: r3, ROUTER_PASS: x}}]'
touch "$LAB/r3/hold"
res=$TMPDIR/kill
SLOW_BUILD=-DV=100 "$TUNER" run -q --all --results "$res" "$repo/kill.yaml" >"$TMPDIR/out" 2>&1 &
pid=$!
for _ in $(seq 600); do
	[ -e "$LAB/r3/holding" ] && break
	sleep 0.05
done
[ -e "$LAB/r3/holding" ] || fail "kill: run 2 never started: $(cat "$TMPDIR/out")"
kill -9 $pid
wait $pid 2>/dev/null || true
[ "$(count_records "$res/journal.jsonl" measure)" -eq 2 ] || fail "kill: not 2 measurements before SIGKILL"
[ "$(wc -l <"$LAB/r3/deploys")" -eq 1 ] || fail "kill: $(cat "$LAB/r3/deploys")"
v200=$("$TUNER" check "$repo/kill.yaml" | awk '/-DV=200/ { print $1 }')
[ "$(cat "$LAB/r3/holding")" = "$v200" ] || fail "kill: held $(cat "$LAB/r3/holding"), not V=200 ($v200)"
rm "$LAB/r3/hold"
"$TUNER" run -q --all --results "$res" "$repo/kill.yaml" >"$TMPDIR/out" 2>&1 || fail "resume: $(cat "$TMPDIR/out")"
[ "$(count_records "$res/journal.jsonl" measure)" -eq 8 ] || fail "resume: not 8 measurements"
[ "$(wc -l <"$LAB/r3/deploys")" -eq 2 ] ||
	fail "resume flashed again: $(cat "$LAB/r3/deploys"; grep -E '"(deploy|measure)"' "$res/journal.jsonl")"

# A parser's complaint that quotes the secret: scrubbed in the journal too.
fresh_lab
touch "$LAB/r3/garble"
PARSER=iperf3 study garble split rounds '"-DV=1"' "[{name: r3, env: {ROUTER: r3, ROUTER_PASS: '\${LAB_SECRET}'}}]"
"$TUNER" run -q --all --results "$TMPDIR/garble" "$repo/garble.yaml" >"$TMPDIR/out" 2>&1 || [ $? -eq 3 ] ||
	fail "garble: $(cat "$TMPDIR/out")"
grep -q "password \*\*\*" "$TMPDIR/garble/journal.jsonl" || fail "garble: no quoted complaint: $(grep error "$TMPDIR/garble/journal.jsonl")"
grep -rq "$LAB_SECRET" "$TMPDIR/garble" "$TMPDIR/out" && fail "garble: the secret leaked"

# 5. Bad testbeds: an unset ${VAR}, a bad env name; nothing created.
study bad split rounds '"-DV=1"' '[{name: r1, env: {ROUTER: r1, ROUTER_PASS: "${NO_SUCH_VARIABLE}"}}]'
expect_exit 2 "$TMPDIR/out" "$TUNER" run -q --results "$TMPDIR/bad" "$repo/bad.yaml"
grep -q "bad.yaml:[0-9]*:[0-9]*: testbed 'r1' names \${NO_SUCH_VARIABLE}, not set in tuner's environment (set it before the run)" "$TMPDIR/out" ||
	fail "unset variable: $(cat "$TMPDIR/out")"
[ ! -e "$TMPDIR/bad" ] || fail "unset variable: results created"
study bad2 split rounds '"-DV=1"' '[{name: r1, env: {1BAD: x}}]'
expect_exit 2 "$TMPDIR/out" "$TUNER" check "$repo/bad2.yaml"
grep -q "bad2.yaml:[0-9]*:[0-9]*: testbed 'r1': '1BAD' is not an environment variable name" "$TMPDIR/out" ||
	fail "bad env name: $(cat "$TMPDIR/out")"
echo "t_lab: ok"
