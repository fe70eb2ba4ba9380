#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The measure command of the router studies (spaces/natbench-a9.yaml,
# spaces/natbench-1004k.yaml): runs the ARM or MIPS artifact once under
# qemu-user with tuner's uarch plugin (a MODEL of the router's core: its
# caches, branch predictor, return stack), and prints the program's
# "natbench:" line and the plugin's report, which tuner's uarch-model
# parsers turn into modelled cycles per packet and Mbit/s.
#
# The modelled machine comes from the study (measure.uarch) as
# $TUNER_UARCH, the plugin as $TUNER_UARCH_PLUGIN; the counted code is the
# fast path ("fp" ranges of natbench.ranges, which the build writes beside
# the artifact), and "own" code is decoded as A32 on ARM.
#
# Everything that could move the counts is pinned: no environment (env -i;
# QEMU's own variables are unset for the guest too), the working directory
# is /, the binary and its plugin files live at fixed-length absolute paths,
# fixed arguments and packet count, and QEMU's random seed (AT_RANDOM)
# fixed. Two runs of one binary give identical counters.
#
# Needs TUNER_ARTIFACT, TUNER_OUT, TUNER_UARCH, TUNER_UARCH_PLUGIN;
# TUNER_RUN names the output files (uarch.out.RUN, natbench.stdout.RUN).
# NB_SCORE_PACKETS overrides the packet count (default 30000).
set -eu

PACKETS=${NB_SCORE_PACKETS:-30000}
SEED=1

: "${TUNER_ARTIFACT:?score-uarch.sh: TUNER_ARTIFACT is not set}"
: "${TUNER_OUT:?score-uarch.sh: TUNER_OUT is not set}"
: "${TUNER_UARCH:?score-uarch.sh: TUNER_UARCH is not set (the study needs measure.uarch)}"
: "${TUNER_UARCH_PLUGIN:?score-uarch.sh: TUNER_UARCH_PLUGIN is not set (build tuner-uarch.so: make)}"
here=$(cd "$(dirname "$0")" && pwd)
run=${TUNER_RUN:-0}
report="$TUNER_OUT/uarch.out.$run"
stdout="$TUNER_OUT/natbench.stdout.$run"
log="$TUNER_OUT/uarch.log.$run"
ranges=$(dirname "$TUNER_ARTIFACT")/natbench.ranges
[ -r "$ranges" ] || { echo "score-uarch.sh: no $ranges (the build writes it)" >&2; exit 1; }
grep -q '^fp ' "$ranges" || { echo "score-uarch.sh: $ranges has no fp range" >&2; exit 1; }

# Not $TMPDIR: the template fixes the path's length.
dir=$(mktemp -d /tmp/natbench-score.XXXXXXXX)
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
cp "$TUNER_ARTIFACT" "$dir/natbench"
cp "$ranges" "$dir/ranges"
rm -f "$report"

status=0
(cd / && exec env -i PATH=/usr/bin:/bin QEMU_RAND_SEED=1 \
	QEMU_PLUGIN="$TUNER_UARCH_PLUGIN,$TUNER_UARCH,ranges=$dir/ranges,out=$dir/report" \
	QEMU_UNSET_ENV=PATH,QEMU_RAND_SEED,QEMU_PLUGIN,QEMU_UNSET_ENV \
	"$here/run.sh" "$dir/natbench" --seed "$SEED" --packets "$PACKETS") \
	>"$stdout" 2>"$log" || status=$?
[ -f "$dir/report" ] && cp "$dir/report" "$report"
if [ "$status" -ne 0 ]; then
	echo "score-uarch.sh: natbench under the uarch plugin exited with $status (see $log)" >&2
	tail -3 "$log" >&2
	exit 1
fi
if ! grep '^natbench: packets=[0-9]* bytes=[0-9]* tx=[0-9]* checksum=[0-9a-f]*$' "$stdout"; then
	echo "score-uarch.sh: no checksum line from natbench (see $stdout)" >&2
	exit 1
fi
[ -s "$report" ] || { echo "score-uarch.sh: the plugin wrote no report (see $log)" >&2; exit 1; }
cat "$report"
