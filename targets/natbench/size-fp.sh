#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fast path's code bytes: what stands for the kernel image in a study's
# size objective (a static natbench's .text is mostly libc and the
# harness, which no flag touches).
#
#   size-fp.sh [ARTIFACT]
#
# Sums the "fp" ranges of ARTIFACT.ranges (ranges.sh: every input section
# of code from the fp_*.o objects, .text.hot and .text.unlikely included,
# padding between objects not), for ARTIFACT or $TUNER_ARTIFACT (a size
# command's environment). Prints the number of bytes alone.
set -eu
art=${1:-${TUNER_ARTIFACT:-}}
if [ -z "$art" ]; then
	echo "usage: size-fp.sh ARTIFACT (or TUNER_ARTIFACT set)" >&2
	exit 2
fi
ranges=$art.ranges
if [ ! -f "$ranges" ]; then
	echo "size-fp.sh: $ranges: no such file (built by natbench's Makefile)" >&2
	exit 1
fi
total=0
n=0
while read -r kind lo hi; do
	[ "$kind" = fp ] || continue
	total=$((total + hi - lo))
	n=$((n + 1))
done <"$ranges"
if [ "$n" -eq 0 ]; then
	echo "size-fp.sh: $ranges lists no fast-path code" >&2
	exit 1
fi
echo "$total"
