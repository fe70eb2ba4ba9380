# SPDX-License-Identifier: GPL-2.0-or-later
# build.executor: slurm against a fake Slurm (tests/fixtures/slurm: sbatch,
# squeue and scancel that run each job on this machine in a session of its
# own, as slurmd would on a node). The executor's logic: builds as jobs
# with the same results as the local executor, the options reaching
# sbatch, job id and node in the journal; a job lost with its node is
# submitted again; tuner's timeout, Ctrl-C and SIGKILL leave no job running;
# sbatch refusing is an error, not a failed build; squeue behind a site's
# wrapper (a banner, no answer) is read or said; bad keys are refused.
# The real Slurm: tests/cluster/t_slurm_real.sh (make test-cluster).
# make-deps: deps (its sbatch, squeue and scancel are the fakes)
. "$ROOT/tests/e2e/lib.sh"

export FAKE_SLURM_DIR=$TMPDIR/fake-slurm
mkdir -p "$FAKE_SLURM_DIR"
export PATH="$ROOT/tests/fixtures/slurm:$PATH"
# Whatever happens, no fake job outlives the test.
trap 'q=$(squeue 2>/dev/null) && [ -z "$q" ] || scancel $q' EXIT

repo=$TMPDIR/repo
make_repo "$repo"
write_study "$repo/local.yaml" slurm <<'EOF2'
  opt: [-O2, -Os]
  align: ["", -falign-functions=64]
EOF2
# While $TMPDIR/hang exists, builds hang (a long kernel build).
sed -i "s|command: make -s -f|command: if [ -e $TMPDIR/hang ]; then sleep 1000; fi; make -s -f|" "$repo/local.yaml"
sed -e '/^  timeout: 300$/a\  executor: slurm\n  slurm: {partition: builds, cpus: 3, mem: 2G, poll: 0.1}' \
	"$repo/local.yaml" >"$repo/study.yaml"
grep -q 'executor: slurm' "$repo/study.yaml" || fail "could not edit the study"
git -C "$repo" add local.yaml study.yaml && git -C "$repo" commit -q -m study

# 1. The same results as the local executor, every build a job (the
# results directories' names are as long: the fixture's instruction count
# depends on its path).
"$TUNER" run -q -j 2 --results "$TMPDIR/local" "$repo/local.yaml" >/dev/null
"$TUNER" run -q -j 2 --results "$TMPDIR/slurm" "$repo/study.yaml" >"$TMPDIR/out" 2>&1 ||
	fail "slurm run failed: $(tail -n 5 "$TMPDIR/out")"
[ "$(count_records "$TMPDIR/slurm/journal.jsonl" build)" -eq 4 ] || fail "not 4 builds"
[ "$(wc -l <"$FAKE_SLURM_DIR/sbatch.log")" -eq 4 ] || fail "not 4 jobs: $(cat "$FAKE_SLURM_DIR/sbatch.log")"
same_results "$TMPDIR/local" "$TMPDIR/slurm"
grep -q -- '--partition=builds --cpus-per-task=3 --mem=2G --time=6 ' "$FAKE_SLURM_DIR/sbatch.log" ||
	fail "options did not reach sbatch: $(head -n 1 "$FAKE_SLURM_DIR/sbatch.log")"
grep -q -- "--export=ALL --no-requeue" "$FAKE_SLURM_DIR/sbatch.log" || fail "no --export=ALL"
python3 - "$TMPDIR/slurm/journal.jsonl" <<'PY' || fail "no job ids in the journal"
import json, re, sys
builds = [json.loads(l) for l in open(sys.argv[1]) if '"type":"build"' in l]
for b in builds:
    assert re.fullmatch(r"build=\d+@fake1", b["slurm_jobs"]), b
    assert b["slurm_submitted"] == 1, b
PY
grep -q '== tuner: slurm job [0-9]* on fake1' "$TMPDIR"/slurm/builds/*/build.log ||
	fail "the job's own line is not in build.log"
# TUNER_JOBS is the job's CPUs; flags reach the job in its environment.
sed -i "s|command: if|command: echo \"jobs=\$TUNER_JOBS flags=\$TUNER_FLAGS\"; if|" "$repo/study.yaml"
git -C "$repo" commit -q -am jobs
"$TUNER" run -q --results "$TMPDIR/res2" "$repo/study.yaml" >/dev/null 2>&1 || fail "run 2 failed"
grep -q '^jobs=3 flags=-Os -falign-functions=64$' "$TMPDIR"/res2/builds/*/build.log ||
	fail "TUNER_JOBS or TUNER_FLAGS did not reach the job"
rm -f "$FAKE_SLURM_DIR/sbatch.log"

# PGO: the instrumented build, the training and the use build, a job each.
sed -e 's/^  align: .*$/  pgo: [on]/' -e 's/^  opt: .*$/  opt: [-O2]/' "$repo/study.yaml" >"$repo/pgo.yaml"
git -C "$repo" add pgo.yaml && git -C "$repo" commit -q -m pgo
"$TUNER" run -q --results "$TMPDIR/pgo" "$repo/pgo.yaml" >"$TMPDIR/out" 2>&1 ||
	fail "PGO run failed: $(tail -n 5 "$TMPDIR/out")"
grep -qE '"status":"ok".*"slurm_jobs":"generate=[0-9]+@fake1 train=[0-9]+@fake1 use=[0-9]+@fake1","slurm_submitted":3' \
	"$TMPDIR/pgo/journal.jsonl" || fail "the PGO phases are not 3 jobs: $(grep '"type":"build"' "$TMPDIR/pgo/journal.jsonl")"
rm -f "$FAKE_SLURM_DIR/sbatch.log"

"$TUNER" check "$repo/study.yaml" >"$TMPDIR/check" || fail "tuner check refused the study"
grep -q '^builds: Slurm jobs (partition builds, 3 CPUs, memory 2G, 2 resubmissions of a lost job' "$TMPDIR/check" ||
	fail "tuner check does not say where builds run: $(cat "$TMPDIR/check")"

# 2. A job lost with its node is submitted again; the build is not lost.
sed -i "s|command: echo|command: sleep 1; echo|" "$repo/study.yaml"
git -C "$repo" commit -q -am slow
echo 0.3 >"$FAKE_SLURM_DIR/lose"
"$TUNER" run -q -j 1 --results "$TMPDIR/lost" "$repo/study.yaml" >"$TMPDIR/out" 2>&1 ||
	fail "run with a lost node failed: $(tail -n 5 "$TMPDIR/out")"
[ "$(wc -l <"$FAKE_SLURM_DIR/sbatch.log")" -eq 5 ] || fail "not 5 jobs for 4 builds and a lost one"
grep -q 'slurm job [0-9]* ended in NODE_FAIL on fake1 without finishing (attempt 1 of 3); submitting it again' "$TMPDIR"/lost/builds/*/build.log ||
	fail "the lost job is not in build.log"
python3 - "$TMPDIR/lost/journal.jsonl" <<'PY' || fail "the retried build is not as recorded"
import json, sys
builds = [json.loads(l) for l in open(sys.argv[1]) if '"type":"build"' in l]
assert all(b["status"] == "ok" for b in builds), builds
assert sorted(b["slurm_submitted"] for b in builds) == [1, 1, 1, 2], builds
PY

# 3. Every way tuner stops leaves no job queued or running.
no_jobs() {
	local q
	for _ in $(seq 1 100); do
		q=$(squeue)
		[ -z "$q" ] && return 0
		sleep 0.1
	done
	fail "$1: jobs left: $q"
}
wait_jobs() { # N: until N jobs run
	for _ in $(seq 1 300); do
		[ "$(squeue | wc -l)" -ge "$1" ] && return 0
		sleep 0.1
	done
	fail "fewer than $1 jobs started"
}
touch "$TMPDIR/hang"
# Ctrl-C (SIGINT to tuner alone)
stop_run INT "$TMPDIR/int" "$repo/study.yaml" wait_jobs 2
no_jobs "Ctrl-C"
# SIGKILL: the guard cancels them
jobs_then_ids() {
	wait_jobs 2
	ids=$(squeue | sort | tr '\n' ' ')
}
stop_run KILL "$TMPDIR/kill" "$repo/study.yaml" jobs_then_ids
no_jobs "SIGKILL"
for id in $ids; do
	grep -qw "$id" "$FAKE_SLURM_DIR/scancel.log" || fail "job $id was not cancelled by the guard"
done
session_gone "$pid" SIGKILL
# The rerun resumes: nothing finished is built again.
rm -f "$TMPDIR/hang"
"$TUNER" run -q -j 2 --results "$TMPDIR/kill" "$repo/study.yaml" >/dev/null 2>&1 || fail "resume failed"
[ "$(grep '"type":"build"' "$TMPDIR/kill/journal.jsonl" | grep -c '"status":"ok"')" -eq 4 ] ||
	fail "the resumed run did not finish 4 builds"
# tuner's timeout: the job is cancelled, the build timed out.
touch "$TMPDIR/hang"
sed -e 's/^  timeout: 300$/  timeout: 2/' "$repo/study.yaml" >"$repo/timeout.yaml"
git -C "$repo" add timeout.yaml && git -C "$repo" commit -q -m timeout
rc=0
"$TUNER" run -q -j 2 --all --results "$TMPDIR/to" "$repo/timeout.yaml" >"$TMPDIR/out" 2>&1 || rc=$?
[ "$rc" -eq 3 ] || fail "timeout run: exit $rc, want 3 (done with failures)"
[ "$(grep '"type":"build"' "$TMPDIR/to/journal.jsonl" | grep -c '"status":"timeout"')" -eq 4 ] ||
	fail "not 4 builds timed out"
no_jobs "timeout"
rm -f "$TMPDIR/hang"

# 4. sbatch refusing: an error saying so, no build recorded as failed.
touch "$FAKE_SLURM_DIR/refuse"
rc=0
"$TUNER" run -q --results "$TMPDIR/refused" "$repo/study.yaml" >"$TMPDIR/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] || fail "sbatch refusing: exit $rc"
grep -q 'sbatch could not submit' "$TMPDIR/out" || fail "no word of sbatch: $(cat "$TMPDIR/out")"
[ "$(count_records "$TMPDIR/refused/journal.jsonl" build)" -eq 0 ] || fail "a refused job was recorded as a build"
grep -q 'Invalid partition' "$TMPDIR"/refused/builds/*/build.log || fail "sbatch's message is not in build.log"
rm -f "$FAKE_SLURM_DIR/refuse"

# 5. squeue behind a site's wrapper: a banner before the answer is
# skipped, and said; printed instead of the answer, the job's status file
# decides (the build finishes, not times out), and it is said; a job
# tuner cannot follow is an error, not waited on even with no timeout.
sed -e 's/^  timeout: 300$/  timeout: 30/' -e 's/^  opt: .*/  opt: [-O2]/' \
	-e 's/^  align: .*/  align: [""]/' "$repo/study.yaml" >"$repo/squeue.yaml"
sed -e 's/^  timeout: 30$/  timeout: 0/' "$repo/squeue.yaml" >"$repo/squeue0.yaml"
git -C "$repo" add squeue.yaml squeue0.yaml && git -C "$repo" commit -q -m squeue
banner='*** Welcome to the cluster: maintenance on Friday ***'
echo "$banner" >"$FAKE_SLURM_DIR/banner"
# run_built DIR WHAT: squeue.yaml run into $TMPDIR/DIR (output in
# $TMPDIR/out) exits 0 with its build recorded ok; WHAT names the case.
run_built() {
	local rc=0
	"$TUNER" run -q --results "$TMPDIR/$1" "$repo/squeue.yaml" >"$TMPDIR/out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || fail "$2: exit $rc: $(tail -n 5 "$TMPDIR/out")"
	grep -q '"type":"build".*"status":"ok"' "$TMPDIR/$1/journal.jsonl" ||
		fail "$2: $(grep '"type":"build"' "$TMPDIR/$1/journal.jsonl")"
}
run_built banner "a banner before squeue's answer"
grep -qF "warning: squeue printed a line that is not its answer about slurm job" "$TMPDIR/out" &&
	grep -qF "ignored: '$banner'" "$TMPDIR/out" || fail "the banner is not said: $(cat "$TMPDIR/out")"
mv "$FAKE_SLURM_DIR/banner" "$FAKE_SLURM_DIR/garble"
run_built garble "squeue's answer unreadable"
grep -qF "warning: cannot read squeue's answer about slurm job" "$TMPDIR/out" &&
	grep -qF "'$banner' (not 'STATE NODE'); following the job by its status file" "$TMPDIR/out" ||
	fail "the unreadable answer is not said: $(cat "$TMPDIR/out")"
grep -qF "== tuner: cannot read squeue's answer" "$TMPDIR"/garble/builds/*/build.log ||
	fail "the unreadable answer is not in build.log"
# ... and a job that does not finish: cancelled, an error, not a build
# (timeout 300: only so that a tuner that polls forever fails the test).
touch "$TMPDIR/hang"
rc=0
timeout 300 "$TUNER" run -q --results "$TMPDIR/garble0" "$repo/squeue0.yaml" >"$TMPDIR/out" 2>&1 || rc=$?
rm -f "$TMPDIR/hang" "$FAKE_SLURM_DIR/garble"
[ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$rc" -ne 124 ] || fail "an unreadable squeue, a job running: exit $rc"
grep -qF "cannot read squeue's answer about slurm job" "$TMPDIR/out" &&
	grep -qF "and the job left no status: cancelled it, not recorded as a build" "$TMPDIR/out" ||
	fail "an unreadable squeue, a job running: $(cat "$TMPDIR/out")"
[ "$(count_records "$TMPDIR/garble0/journal.jsonl" build)" -eq 0 ] ||
	fail "a job tuner could not follow was recorded as a build"
no_jobs "unreadable squeue"

# 6. Bad keys, each at its place.
bad() { # KEY-LINES MESSAGE
	sed -e '/^  executor: slurm$/d' -e '/^  slurm: /d' -e "/^  timeout: 300\$/a\\$1" \
		"$repo/study.yaml" >"$TMPDIR/bad.yaml"
	expect_exit 2 "$TMPDIR/bad.out" "$TUNER" check "$TMPDIR/bad.yaml"
	grep -q "bad.yaml:[0-9]*:[0-9]*: .*$2" "$TMPDIR/bad.out" || fail "want '$2': $(cat "$TMPDIR/bad.out")"
}
bad '  slurm: {cpus: 2}' "'build.slurm' needs 'build.executor: slurm'"
bad '  executor: cluster' "build.executor"
bad '  executor: slurm\n  slurm: {mem: 4X}' "'build.slurm.mem' must be a size"
bad '  executor: slurm\n  slurm: {partition: "a b"}' "'build.slurm.partition' must be a partition name"
bad '  executor: slurm\n  slurm: {poll: 0}' "'build.slurm.poll' must be between"
bad '  executor: slurm\n  slurm: {retries: 101}' "'build.slurm.retries' must be from 0 to 100"
bad '  executor: slurm\n  slurm: {cpu: 2}' "unknown key 'cpu'"
echo "t_slurm: ok"
