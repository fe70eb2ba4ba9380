#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make test-kernel`: the qemu-linux target end to end, after `make
# deps-kernel` (the packages, the armhf userspace, Debian's kernel source
# unpacked into a local git repository; run directly, this script
# installs nothing: run that once). Builds -O2 and -Os
# (spaces/qemu-linux.yaml) and measures each 3 times, interleaved, with
# `tuner run`, then asks `tuner compare` for a verdict on the same journal
# (nothing is built or measured twice), and prints build times, zImage and
# vmlinux .text sizes, Mbit/s and guest instructions per byte per repeat.
#
# With "pgo" (`make test-kernel-pgo`) it compares -O2 with -O2 built with
# kernel PGO instead: a gcov kernel (TUNER_PGO=generate), trained on the
# NAT workload in QEMU (train.sh), rebuilt with -fprofile-use. Only
# `tuner compare` runs then: it builds and measures both.
#
#   test-kernel.sh TUNER_BINARY [pgo]
#   TUNER_KERNEL_RESULTS  results directory (default results/test-kernel,
#                         results/test-kernel-pgo with pgo);
#                         a rerun resumes from its journal (seconds when
#                         complete): remove it for a fresh run
#   TUNER_KERNEL_WORK     work area (default results/qemu-linux-work); the
#                         study's source.repo must point at its linux/
# Exit status: 0 when every build and measurement succeeded and compare
# ran, whatever its verdict.
set -euo pipefail
cd "$(dirname "$0")/../.."
tuner=${1:-build/release/tuner}
mode=${2:-flags}
study=spaces/qemu-linux.yaml
case $mode in
flags) res=${TUNER_KERNEL_RESULTS:-results/test-kernel} ;;
pgo) res=${TUNER_KERNEL_RESULTS:-results/test-kernel-pgo} ;;
*) echo "test-kernel: the mode is flags or pgo, not '$mode'" >&2; exit 2 ;;
esac
t0=$(date +%s)

echo "== kernel source"
targets/qemu-linux/prepare-source.sh
targets/qemu-linux/mk-initramfs.sh >/dev/null

# TCG throughput has no layout effect to speak of (it follows the guest's
# instruction count): one layout seed a side, layout sd assumed 0.
if [ $mode = flags ]; then
	echo "== tuner run $study (one build at a time, -j2 inside it)"
	"$tuner" run --jobs 1 --all --results "$res" "$study"
	echo "== tuner compare -O2 (A) vs -Os (B), the run's builds and measurements"
	"$tuner" compare "$study" --a -O2 --b -Os --repeats 3 --layout 1 --layout-sd 0 \
		--results "$res"
	variants="-O2:0 -Os:0"
else
	echo "== tuner compare -O2 (A) vs -O2 with kernel PGO (B), one build at a time"
	"$tuner" compare "$study" --a -O2 --b -O2 --b-pgo on --repeats 3 --layout 1 \
		--layout-sd 0 --jobs 1 --results "$res"
	variants="-O2:0 -O2:1"
fi

echo "== figures"
j=$res/journal.jsonl
for v in $variants; do
	flags=${v%:*} pgo=${v##*:}
	key=$(jq -r --arg f "$flags" --argjson p "$pgo" 'select(.type == "build" and .flags == $f
		and .pgo == $p and .seed == 0 and .status == "ok") | .key' "$j" | tail -1)
	[ -n "$key" ] || { echo "test-kernel: no successful $flags (pgo $pgo) build" >&2; exit 1; }
	dir=$(jq -r --arg k "$key" 'select(.type == "build" and .key == $k) | .dir' "$j" | tail -1)
	sizes=$dir/tuner-sizes.txt
	secs=$(jq -r --arg k "$key" 'select(.type == "build" and .key == $k) | .seconds' "$j" | tail -1)
	zb=$(sed -n 's/^zimage_bytes=//p' "$sizes")
	tb=$(sed -n 's/^vmlinux_text_bytes=//p' "$sizes")
	runs=$(jq -r --arg k "$key" 'select(.type == "measure" and .build == $k) |
		if .ok then (.values.throughput * 10 | round / 10 | tostring) else "failed" end' "$j" |
		paste -sd' ')
	ipb=$(jq -r --arg k "$key" 'select(.type == "measure" and .build == $k) |
		if .ok then (.values.instructions * 100 | round / 100 | tostring) else "failed" end' "$j" |
		paste -sd' ')
	name=$flags
	[ "$pgo" = 1 ] && name="$flags PGO"
	printf '%-7s build %4.0f s  zImage %8d B  vmlinux .text %8d B\n' "$name" "$secs" "$zb" "$tb"
	if [ "$pgo" = 1 ]; then
		# generate + train + use; the use build alone, the profile and
		# the training run.
		sed -n 's/^build_seconds=/     the -fprofile-use build alone (s): /p' "$sizes"
		sed -n 's/^pgo_/     PGO /p' "$sizes"
		grep -h '^train.sh: ' "$dir/build.log" | sed 's/^/     /' || true
	fi
	printf '     Mbit/s per repeat: %s\n     guest instructions per byte per repeat: %s\n' \
		"$runs" "$ipb"
done
echo "test-kernel: $(( $(date +%s) - t0 )) s"
