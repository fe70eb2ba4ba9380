#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The measure command: runs the artifact once under cachegrind with the
# caches of a Cortex-A9 router (32 KB 4-way L1s with 32-byte lines, a
# 512 KB 8-way PL310 L2), then prints the program's "natbench:" line and
# the cachegrind output file (what tuner's cachegrind-model parser reads).
#
# Everything that could move the counts is pinned: no environment (env -i),
# the working directory is /, the binary runs from a copy at a fixed-length
# absolute path (the path's length shifts the stack, its characters do
# not), fixed arguments, fixed packet count.
#
# Needs TUNER_ARTIFACT and TUNER_OUT; TUNER_RUN names the output files.
set -eu

PACKETS=30000
SEED=1

: "${TUNER_ARTIFACT:?score.sh: TUNER_ARTIFACT is not set}"
: "${TUNER_OUT:?score.sh: TUNER_OUT is not set}"
run=${TUNER_RUN:-0}
cgout="$TUNER_OUT/cachegrind.out.$run"
stdout="$TUNER_OUT/natbench.stdout.$run"
log="$TUNER_OUT/cachegrind.log.$run"

# Not $TMPDIR: the template fixes the path's length.
dir=$(mktemp -d /tmp/natbench-score.XXXXXXXX)
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
cp "$TUNER_ARTIFACT" "$dir/natbench"

status=0
(cd / && exec env -i /usr/bin/valgrind --tool=cachegrind --cache-sim=yes \
	--I1=32768,4,32 --D1=32768,4,32 --LL=524288,8,32 \
	--cachegrind-out-file="$cgout" \
	"$dir/natbench" --seed "$SEED" --packets "$PACKETS") \
	>"$stdout" 2>"$log" || status=$?
if [ "$status" -ne 0 ]; then
	echo "score.sh: natbench under cachegrind exited with $status (see $log)" >&2
	exit 1
fi
if ! grep '^natbench: packets=[0-9]* bytes=[0-9]* tx=[0-9]* checksum=[0-9a-f]*$' "$stdout"; then
	echo "score.sh: no checksum line from natbench (see $stdout)" >&2
	exit 1
fi
cat "$cgout"
