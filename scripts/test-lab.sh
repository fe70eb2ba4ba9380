#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make test-lab`: real-router testbeds, end to end, on two lab routers in
# QEMU (targets/lab-router): a 4-configuration study in split mode, each
# build flashed over ssh (deploy.sh: scp + sysupgrade -n), booted from the
# router's flash by its supervisor, ready polled, measured by iperf3 LAN ->
# WAN through the router's NAT, a reboot between runs. One configuration's
# kernel panics at boot (-DTUNER_LAB_NO_INIT, the lab's fault injection):
# tuner recovers the routers through the failsafe and records a failed
# deploy of that build. One router loses power in the middle of a
# measurement: the sample is taken again, nothing is lost.
#
#   scripts/test-lab.sh [TUNER_BINARY]
#   TUNER_LAB_RESULTS  results directory (default results/test-lab). Its
#                      builds are kept across runs (a kernel build takes
#                      ~20 minutes here); everything measured is removed
#                      first (the journal keeps its build records only), so
#                      each run flashes and measures again
#   LAB_STATE          the lab's state (default results/lab-router/test-lab)
#   LAB_GOOD_BUILD     a lab build at -O2, the known-good image (default
#                      results/lab-router/kernel-O2; built when missing)
#   TUNER_LAB_CUT      1 (default): cut a router's power mid-measurement
# `make test-lab` installs what it needs first (make deps-kernel); run
# directly, this script installs nothing. Needs root. Exit 0 when every
# check passed; prints the run's output, the per-testbed breakdown and the
# wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tuner=$(readlink -f "${1:-build/release/tuner}")
lab=$root/targets/lab-router/lab.sh
export TUNER_KERNEL_WORK=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
work=$TUNER_KERNEL_WORK
res=${TUNER_LAB_RESULTS:-$root/results/test-lab}
export LAB_STATE=${LAB_STATE:-$root/results/lab-router/test-lab}
good_build=${LAB_GOOD_BUILD:-$root/results/lab-router/kernel-O2}
cut=${TUNER_LAB_CUT:-1}
t0=$(date +%s)
fails=0
say() { echo "== $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
stamp() { echo "$(( $(date +%s) - t0 )) s"; }

cleanup() {
	[ -n "${cutter:-}" ] && kill "$cutter" 2>/dev/null
	"$lab" stop r1 >/dev/null 2>&1 || true
	"$lab" stop r2 >/dev/null 2>&1 || true
}
trap cleanup EXIT

say "kernel source (make deps-kernel installs what this needs)"
targets/qemu-linux/prepare-source.sh

say "the known-good image (a lab build at -O2): $good_build"
if [ ! -f "$good_build/lab-firmware.img" ]; then
	TUNER_SRC=$work/linux TUNER_OUT=$good_build TUNER_FLAGS=-O2 TUNER_JOBS=2 \
		TUNER_LAYOUT_SEED=0 TUNER_PGO=off targets/lab-router/build.sh
fi
mkdir -p "$LAB_STATE"
cp "$good_build/lab-firmware.img" "$LAB_STATE/good.img"

say "two lab routers on fresh flashes ($(stamp))"
cleanup
for n in r1 r2; do rm -f "$LAB_STATE/$n/flash.img"; done
"$lab" start r1 1
"$lab" start r2 2

# The study, beside a link to targets/ (its commands are
# $TUNER_STUDY_DIR/../targets/...), with each router's env.
sroot=$LAB_STATE/study
mkdir -p "$sroot/spaces"
ln -sfn "$root/targets" "$sroot/targets"
study=$sroot/spaces/test-lab.yaml
r1env=$("$lab" env r1)
r2env=$("$lab" env r2)
sed -e "s|@STUDY@|test-lab|" -e "s|@SOURCE@|$work/linux|" \
	-e "s|@OPTS@|[-O2, -Os, -O2 -fno-reorder-blocks, -O2 -DTUNER_LAB_NO_INIT]|" \
	-e "s|@R1_ENV@|$r1env|" -e "s|@R2_ENV@|$r2env|" \
	tests/lab/lab-study.yaml.in >"$study"
"$tuner" check "$study"

# The power cut: once a few measurements are in, r2's power goes off while
# its iperf3 client runs (a measurement in flight), and on again 5 s later.
if [ -f "$res/journal.jsonl" ]; then
	grep -E '"type":"(header|build)"' "$res/journal.jsonl" >"$res/journal.keep" || true
	mv "$res/journal.keep" "$res/journal.jsonl"
	rm -rf "$res/testbeds" "$res"/builds/*/measure-*.log "$res/pareto.json" "$res/results.csv" \
		"$res/testbeds.csv"
fi
rm -f "$LAB_STATE/cut.time"
if [ "$cut" = 1 ]; then
	(
		set +e
		r2lan=$(printf '%s\n' "$r2env" | grep -o "LAN_NS: '[^']*'" | cut -d"'" -f2)
		for _ in $(seq 7200); do
			n=$(grep -c '"type":"measure".*"ok":true' "$res/journal.jsonl" 2>/dev/null)
			if [ "${n:-0}" -ge 2 ]; then
				for p in $(ip netns pids "$r2lan" 2>/dev/null); do
					if [ "$(cat /proc/$p/comm 2>/dev/null)" = iperf3 ]; then
						sleep 2
						echo "== power cut: r2 off mid-measurement at $(date +%T)"
						"$lab" power r2 off
						date +%s >"$LAB_STATE/cut.time"
						sleep 5
						"$lab" power r2 on
						exit 0
					fi
				done
			fi
			sleep 0.5
		done
	) &
	cutter=$!
fi

say "tuner run ($(stamp))"
rstart=$(date +%s)
set +e
"$tuner" run --jobs 1 --all --results "$res" "$study" 2>&1 | tee "$LAB_STATE/run.out"
rc=${PIPESTATUS[0]}
set -e
rwall=$(( $(date +%s) - rstart ))
j=$res/journal.jsonl

say "checks"
# Done, with the panicking configuration failed: exit 3.
[ "$rc" -eq 3 ] || bad "tuner run exited $rc, want 3 (done, one configuration failed)"
ok=$(grep '"type":"measure"' "$j" | grep -c '"ok":true' || true)
[ "$ok" -eq 6 ] || bad "$ok good measurements, want 3 builds x 2"
for r in r1 r2; do
	n=$(grep '"type":"measure"' "$j" | grep '"ok":true' | grep -c "\"testbed\":\"$r\"" || true)
	[ "$n" -ge 1 ] || bad "$r took no measurement (split)"
done
nb=$(grep '"type":"measure"' "$j" | grep -c '"deploy_failed":true' || true)
[ "$nb" -eq 1 ] || bad "$nb failed-deploy records, want 1"
grep -- '-DTUNER_LAB_NO_INIT' "$LAB_STATE/run.out" | grep -q 'deploy-failed' ||
	bad "the panicking configuration is not deploy-failed"
[ "$(grep -c '"event":"boot-failed"' "$j")" -eq 2 ] || bad "boot failures: $(grep -c '"event":"boot-failed"' "$j")"
bf=$(grep '"type":"measure"' "$j" | grep '"ok":false' | grep -vc '"deploy_failed":true' || true)
[ "$bf" -eq 0 ] || bad "$bf measurements recorded as failed (a power cut is not the build's)"
grep -q '^Testbeds' "$LAB_STATE/run.out" || bad "no per-testbed breakdown"
# Booted from flash: after each build's deploy, the router ran that image
# (ready.sh prints the id the image's bootargs carry).
for d in "$res"/builds/*/; do
	img=$d/lab-firmware.img
	[ -f "$img" ] || continue
	rm -rf "$LAB_STATE/x"
	targets/lab-router/fwimage.sh extract "$img" 0 "$LAB_STATE/x" >/dev/null
	id=$(grep -o 'lab\.image=[0-9a-f]*' "$LAB_STATE/x/bootargs" | cut -d= -f2)
	if grep -q 'rdinit=' "$LAB_STATE/x/bootargs"; then
		grep -hq "image=$id" "$res"/testbeds/*.log || bad "image $id ($d) never answered ready"
	fi
done
# The power cut: r2's fault, its sample taken again.
if [ "$cut" = 1 ]; then
	wait "$cutter" || true
	cutter=
	if [ -f "$LAB_STATE/cut.time" ]; then
		grep '"event":"fault"' "$j" | grep -q '"testbed":"r2"' || bad "the power cut left no fault of r2"
		grep -q 'testbed r2: measurement of' "$LAB_STATE/run.out" || bad "no note of r2's fault"
	else
		bad "no power cut happened (r2 was never seen measuring)"
	fi
fi
say "deploys per testbed (build testbed)"
grep '"event":"deploy"' "$j" | sed -E 's/.*"testbed":"([^"]*)".*"build":"([^"]*)".*"ok":([a-z]*).*/  \2 \1 ok=\3/'
say "wall time: tuner run $rwall s, all $(stamp); $fails failed checks"
[ $fails -eq 0 ]
