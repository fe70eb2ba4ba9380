# SPDX-License-Identifier: GPL-2.0-or-later
# build.executor: slurm on a real Slurm (Debian's slurmctld, slurmd and
# munge, controller and one node on this machine, started here by
# scripts/slurm-local.sh and stopped at the end). make test-cluster runs it
# (scripts/test-cluster.sh), as root.
#   1. a study whose builds run as Slurm jobs gives the local executor's
#      results, with each build's job id and node in the journal;
#   2. Ctrl-C and SIGKILL of tuner leave no job queued or running
#      (squeue empty), and the rerun resumes;
#   3. a job that Slurm kills mid-build (its node set DOWN: NODE_FAIL) is
#      submitted again once the node is back, and the build is not lost.
. "$ROOT/tests/e2e/lib.sh"

slurm=$TMPDIR/cluster
mkdir -p "$slurm"
"$ROOT/scripts/slurm-local.sh" start "$slurm" >"$TMPDIR/slurm.out" ||
	fail "could not start Slurm: $(cat "$TMPDIR/slurm.out")"
export SLURM_CONF=$slurm/slurm.conf
trap '"$ROOT/scripts/slurm-local.sh" stop "$slurm"' EXIT
node=$(hostname -s)

repo=$TMPDIR/repo
make_repo "$repo"
write_study "$repo/local.yaml" cluster <<'EOF2'
  opt: [-O2, -Os]
  align: ["", -falign-functions=64]
EOF2
# While $TMPDIR/hang exists, builds hang (a long kernel build); while
# $TMPDIR/slow exists, they take 3 s more.
sed -i "s|command: make -s -f|command: if [ -e $TMPDIR/hang ]; then sleep 1000; fi; if [ -e $TMPDIR/slow ]; then sleep 3; fi; make -s -f|" \
	"$repo/local.yaml"
sed -e '/^  timeout: 300$/a\  executor: slurm\n  slurm: {partition: builds, cpus: 1, mem: 256M, poll: 0.2}' \
	"$repo/local.yaml" >"$repo/study.yaml"
git -C "$repo" add local.yaml study.yaml && git -C "$repo" commit -q -m study

no_jobs() {
	local q
	for _ in $(seq 1 150); do
		q=$(squeue -h -o %i)
		[ -z "$q" ] && return 0
		sleep 0.2
	done
	fail "$1: jobs left: $(squeue)"
}
wait_running() { # N
	for _ in $(seq 1 300); do
		[ "$(squeue -h -t running -o %i | wc -l)" -ge "$1" ] && return 0
		sleep 0.2
	done
	fail "fewer than $1 jobs running: $(squeue)"
}

# 1. The local executor's results (the results directories' names are as
# long, since the fixture's instruction count depends on its path).
"$TUNER" run -q -j 2 --results "$TMPDIR/local" "$repo/local.yaml" >/dev/null
start=$(date +%s)
"$TUNER" run -q -j 2 --results "$TMPDIR/slurm" "$repo/study.yaml" >"$TMPDIR/out" 2>&1 ||
	fail "slurm run failed: $(tail -n 5 "$TMPDIR/out")"
echo "4 builds as Slurm jobs: $(( $(date +%s) - start )) s"
same_results "$TMPDIR/local" "$TMPDIR/slurm"
python3 - "$TMPDIR/slurm/journal.jsonl" "$node" <<'PY' || fail "job ids and nodes are not in the journal"
import json, re, sys
builds = [json.loads(l) for l in open(sys.argv[1]) if '"type":"build"' in l]
assert len(builds) == 4, builds
for b in builds:
    assert re.fullmatch(r"build=\d+@" + re.escape(sys.argv[2]), b["slurm_jobs"]), b
    assert b["slurm_submitted"] == 1, b
PY
no_jobs "after the run"

# 2. Ctrl-C, then SIGKILL: no job left; the rerun resumes.
touch "$TMPDIR/hang"
stop_run INT "$TMPDIR/int" "$repo/study.yaml" wait_running 2
no_jobs "Ctrl-C"
echo "Ctrl-C: squeue empty"
stop_run KILL "$TMPDIR/kill" "$repo/study.yaml" wait_running 2
no_jobs "SIGKILL"
echo "SIGKILL: squeue empty"
rm -f "$TMPDIR/hang"
"$TUNER" run -q -j 2 --results "$TMPDIR/kill" "$repo/study.yaml" >/dev/null 2>&1 || fail "the rerun failed"
[ "$(grep '"type":"build"' "$TMPDIR/kill/journal.jsonl" | grep -c '"status":"ok"')" -eq 4 ] ||
	fail "the rerun did not finish the 4 builds"

# 3. Slurm kills a job mid-build: its node goes DOWN (NODE_FAIL), comes
# back, the job is submitted again and the build finishes.
touch "$TMPDIR/slow"
"$TUNER" run -q -j 1 --results "$TMPDIR/lost" "$repo/study.yaml" >"$TMPDIR/lost.out" 2>&1 &
pid=$!
wait_running 1
victim=$(squeue -h -t running -o %i | head -n 1)
scontrol update NodeName="$node" State=DOWN Reason=tuner-test
for _ in $(seq 1 100); do
	squeue -h -j "$victim" -o %i 2>/dev/null | grep -q . || break
	state=$(squeue -h -t all -j "$victim" -o %T 2>/dev/null || true)
	case $state in RUNNING | COMPLETING | "") sleep 0.2 ;; *) break ;; esac
done
# The node registers again by itself (ReturnToService=2), maybe between
# sinfo and scontrol (which then refuses to resume an idle node); else it
# is resumed. Either way it must come back.
if sinfo -h -n "$node" -o %T | grep -q down; then
	scontrol update NodeName="$node" State=RESUME 2>/dev/null || true
fi
for _ in $(seq 1 150); do
	sinfo -h -n "$node" -o %T | grep -qE '^(idle|mixed|allocated)' && break
	sleep 0.2
done
sinfo -h -n "$node" -o %T | grep -qE '^(idle|mixed|allocated)' ||
	fail "node $node did not come back: $(sinfo -h -n "$node" -o %T)"
wait $pid || fail "the run with a lost job failed: $(tail -n 5 "$TMPDIR/lost.out")"
grep -q "slurm job $victim ended in [A-Z_]* on $node without finishing (attempt 1 of 3); submitting it again" \
	"$TMPDIR"/lost/builds/*/build.log || fail "job $victim's loss is not in build.log"
python3 - "$TMPDIR/lost/journal.jsonl" <<'PY' || fail "the retried build is not as recorded"
import json, sys
builds = [json.loads(l) for l in open(sys.argv[1]) if '"type":"build"' in l]
assert all(b["status"] == "ok" for b in builds), builds
assert sorted(b["slurm_submitted"] for b in builds) == [1, 1, 1, 2], builds
PY
echo "a job killed by Slurm (node DOWN) was submitted again: $(grep -h "without finishing" "$TMPDIR"/lost/builds/*/build.log)"
no_jobs "the end"
echo "t_slurm_real: ok"
