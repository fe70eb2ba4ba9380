#!/bin/bash
# `make test-kernel`: the qemu-linux target end to end. Installs what is
# missing, unpacks Debian's kernel source into a local git repository,
# builds -O2 and -Os (spaces/qemu-linux.yaml) and measures each 3 times,
# interleaved, with `tuner run`, then asks `tuner compare` for a verdict on
# the same journal (nothing is built or measured twice), and prints build
# times, zImage and vmlinux .text sizes, Mbit/s and guest instructions per
# byte per repeat.
#
#   test-kernel.sh TUNER_BINARY
#   TUNER_KERNEL_RESULTS  results directory (default results/test-kernel);
#                         a rerun resumes from its journal (seconds when
#                         complete): remove it for a fresh run
#   TUNER_KERNEL_WORK     work area (default results/qemu-linux-work); the
#                         study's source.repo must point at its linux/
# Exit status: 0 when every build and measurement succeeded and compare
# ran, whatever its verdict.
set -euo pipefail
cd "$(dirname "$0")/../.."
tuner=${1:-build/release/tuner}
study=spaces/qemu-linux.yaml
res=${TUNER_KERNEL_RESULTS:-results/test-kernel}
t0=$(date +%s)

echo "== dependencies"
scripts/install-kernel-deps.sh
echo "== kernel source"
targets/qemu-linux/prepare-source.sh
targets/qemu-linux/mk-initramfs.sh >/dev/null

echo "== tuner run $study (one build at a time, -j2 inside it)"
# (tuner run takes its options before the study file.)
"$tuner" run --jobs 1 --all --results "$res" "$study"

echo "== tuner compare -O2 (A) vs -Os (B), the run's builds and measurements"
# TCG throughput has no layout effect to speak of (it follows the guest's
# instruction count): one layout seed a side, layout sd assumed 0.
"$tuner" compare "$study" --a -O2 --b -Os --repeats 3 --layout 1 --layout-sd 0 \
	--results "$res"

echo "== figures"
j=$res/journal.jsonl
for flags in -O2 -Os; do
	key=$(jq -r --arg f "$flags" 'select(.type == "build" and .flags == $f and .seed == 0
		and .status == "ok") | .key' "$j" | tail -1)
	[ -n "$key" ] || { echo "test-kernel: no successful $flags build" >&2; exit 1; }
	dir=$(jq -r --arg k "$key" 'select(.type == "build" and .key == $k) | .dir' "$j" | tail -1)
	sizes=$(find "$dir" -maxdepth 2 -name tuner-sizes.txt | head -1)
	secs=$(jq -r --arg k "$key" 'select(.type == "build" and .key == $k) | .seconds' "$j" | tail -1)
	zb=$(sed -n 's/^zimage_bytes=//p' "$sizes")
	tb=$(sed -n 's/^vmlinux_text_bytes=//p' "$sizes")
	runs=$(jq -r --arg k "$key" 'select(.type == "measure" and .build == $k) |
		if .ok then (.values.throughput * 10 | round / 10 | tostring) else "failed" end' "$j" |
		paste -sd' ')
	ipb=$(jq -r --arg k "$key" 'select(.type == "measure" and .build == $k) |
		if .ok then (.values.instructions * 100 | round / 100 | tostring) else "failed" end' "$j" |
		paste -sd' ')
	printf '%-4s build %4.0f s  zImage %8d B  vmlinux .text %8d B\n' "$flags" "$secs" "$zb" "$tb"
	printf '     Mbit/s per repeat: %s\n     guest instructions per byte per repeat: %s\n' \
		"$runs" "$ipb"
done
echo "test-kernel: $(( $(date +%s) - t0 )) s"
