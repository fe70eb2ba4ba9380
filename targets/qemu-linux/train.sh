#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The qemu-linux study's train command (PGO): boots the gcov kernel that
# build.sh made with TUNER_PGO=generate ($TUNER_ARTIFACT, built in
# $TUNER_OUT) as the router, puts the NAT workload through it (iperf3 LAN ->
# WAN, by measure.sh), takes the guest's gcov profile and lays it out in
# $TUNER_PROFILE_DIR like a build directory (net/ipv4/ip_forward.gcda, ...):
# build.sh with TUNER_PGO=use puts each beside its object for -fprofile-use.
#
# The profile counts the workload only: the guest zeroes its counters when
# the router is ready, so boot-only code reads as never run.
#
# The kernel writes its .gcda files without the object summary record that
# GCC 12 needs before -fprofile-use uses a profile (without it GCC ignores
# the counters, silently); gcda-summary.c adds it (runs 1, sum_max the
# largest counter). It is compiled here with the host's gcc, once per
# source version, into $TUNER_KERNEL_WORK/bin.
#
# Options (environment): TUNER_KERNEL_TRAIN_TIME, seconds of traffic
# (default 10); TUNER_KERNEL_BOOT_TIMEOUT (default 180 here: a gcov kernel
# boots slower); everything else measure.sh reads.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
die() { echo "train.sh: $*" >&2; exit 1; }
: "${TUNER_ARTIFACT:?TUNER_ARTIFACT not set}" "${TUNER_OUT:?TUNER_OUT not set}"
: "${TUNER_PROFILE_DIR:?TUNER_PROFILE_DIR not set}"

tmp=$(mktemp -d /tmp/tuner-train.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# tuner's timeout TERMs the process group: leave through EXIT (measure.sh
# tears QEMU and the namespaces down itself).
trap 'exit 130' INT
trap 'exit 143' TERM
TUNER_KERNEL_INSNS=0 TUNER_KERNEL_GCOV=$tmp/gcov.tar.gz \
	TUNER_KERNEL_IPERF_TIME=${TUNER_KERNEL_TRAIN_TIME:-10} \
	TUNER_KERNEL_BOOT_TIMEOUT=${TUNER_KERNEL_BOOT_TIMEOUT:-180} \
	"$here/measure.sh" >"$tmp/iperf3.json"

# Each .gcda is named by its object's absolute path, in the directory the
# kernel was built in (its objtree).
mkdir "$tmp/x"
tar -xzf "$tmp/gcov.tar.gz" -C "$tmp/x"
B=$(cd "$TUNER_OUT" && pwd -P)
top=$tmp/x/${B#/}
[ -d "$top" ] || die "the profile is not of the kernel built in $B: it holds $(cd "$tmp/x" &&
	find . -name main.gcda -path '*/init/*' | head -1)"
mkdir -p "$TUNER_PROFILE_DIR"
(cd "$top" && find . -name '*.gcda' -print0 | cpio -0pdm --quiet "$TUNER_PROFILE_DIR")
n=$(find "$TUNER_PROFILE_DIR" -name '*.gcda' | wc -l)
all=$(find "$tmp/x" -name '*.gcda' | wc -l)
[ "$n" -gt 0 ] || die "no .gcda in the profile"

key=$(sha1sum <"$here/gcda-summary.c" | cut -c1-12)
tool=$work/bin/gcda-summary-$key
if [ ! -x "$tool" ]; then
	mkdir -p "$work/bin"
	gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$tool.tmp.$$" "$here/gcda-summary.c"
	mv "$tool.tmp.$$" "$tool"
fi
summary=$("$tool" "$TUNER_PROFILE_DIR") || die "gcda-summary failed"
echo "train.sh: gcda-summary: $summary" >&2
mbit=$(jq -r '.end.sum_received.bits_per_second / 1e6 | . * 10 | round / 10' "$tmp/iperf3.json")
echo "train.sh: $n .gcda files ($((all - n)) outside the build directory, left out)" \
	"from ${TUNER_KERNEL_TRAIN_TIME:-10} s of NAT traffic at $mbit Mbit/s (gcov kernel)" >&2
