#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build.applied command of the qemu-linux study: prints the cross compiler's
# command line of every C file compiled into the kernel build in
# $TUNER_OUT, one per line, from Kbuild's .cmd files (their cmd_ line), so
# tuner can check that each requested flag was in effect. Host tools
# (scripts/, built with the host gcc) and assembler files are left out:
# KCFLAGS is meant for the kernel's C code only. For a PGO build, the
# instrumented kernel tuner built in $TUNER_OUT/pgo-generate is not the
# one measured: it is left out too.
#
#   applied.sh [vexpress | malta]   (the board: which cross compiler)
set -euo pipefail
set -f
: "${TUNER_OUT:?TUNER_OUT not set}"
case ${1:-vexpress} in
vexpress) cross=${TUNER_KERNEL_CROSS:-arm-linux-gnueabihf-} ;;
malta) cross=${TUNER_KERNEL_CROSS:-mipsel-linux-gnu-} ;;
*) echo "applied.sh: unknown board '$1' (vexpress or malta)" >&2; exit 1 ;;
esac
find "$TUNER_OUT" \( -path "$TUNER_OUT/scripts" -o -path "$TUNER_OUT/pgo-generate" \) -prune -o \
	-name '.*.o.cmd' -print0 |
	xargs -0 -r sed -s -n '1{s/^cmd_[^ ]* := //;s/[[:space:]]*$//;p}' |
	grep -F -- "${cross}gcc" | grep -E '\.c$' || true
