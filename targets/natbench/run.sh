#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs a natbench artifact, natively or under qemu-user:
#
#   run.sh ARTIFACT [ARGS...]
#
# The machine comes from the ELF header (e_machine, read in the file's own
# byte order, and its class): a program for this machine runs as it is,
# one for another under the qemu-user emulator of that machine (qemu-arm
# for NB_ARCH=a9, qemu-mipsel for NB_ARCH=1004k), found on PATH. The
# program replaces this script (exec): same process, exit status, signals.
# The builds are static, so no sysroot (-L) is needed.
set -eu

if [ $# -lt 1 ]; then
	echo "usage: run.sh ARTIFACT [ARGS...]" >&2
	exit 2
fi
prog=$1
shift
# A bare name is a file here, not a command on PATH.
case $prog in
*/*) ;;
*) prog=./$prog ;;
esac
set -- "$prog" "$@"

# byte OFFSET: the unsigned byte at OFFSET of the artifact
byte() {
	od -An -tu1 -j"$1" -N1 "$prog" | tr -d ' \n'
}

if [ ! -f "$prog" ]; then
	echo "run.sh: $prog: no such file" >&2
	exit 127
fi
magic=$(od -An -c -N4 "$prog" | tr -d ' \n')
if [ "$magic" != '177ELF' ]; then
	echo "run.sh: $prog: not an ELF file" >&2
	exit 126
fi
class=$(byte 4)    # 1: 32-bit, 2: 64-bit
data=$(byte 5)     # 1: little-endian, 2: big-endian
lo=$(byte 18)
hi=$(byte 19)
if [ "$data" = 2 ]; then
	machine=$((lo * 256 + hi))
else
	machine=$((hi * 256 + lo))
fi

case $machine.$class.$data in
3.1.1) qemu='qemu-i386' ;;
62.2.1) qemu='qemu-x86_64' ;;
40.1.1) qemu='qemu-arm' ;;
40.1.2) qemu='qemu-armeb' ;;
183.2.1) qemu='qemu-aarch64' ;;
8.1.1) qemu='qemu-mipsel' ;;
8.1.2) qemu='qemu-mips' ;;
8.2.1) qemu='qemu-mips64el' ;;
8.2.2) qemu='qemu-mips64' ;;
*)
	echo "run.sh: $prog: no emulator known for ELF machine $machine" \
		"(class $class, data $data)" >&2
	exit 126
	;;
esac

# This machine's emulator name: native if the artifact's is the same.
case $(uname -m) in
x86_64) native='qemu-x86_64' ;;
i?86) native='qemu-i386' ;;
aarch64) native='qemu-aarch64' ;;
armv7l | armv6l) native='qemu-arm' ;;
*) native=none ;;
esac

if [ "$qemu" = "$native" ]; then
	exec "$@"
fi
if ! command -v "$qemu" >/dev/null 2>&1; then
	echo "run.sh: $prog needs $qemu (Debian: qemu-user)" >&2
	exit 127
fi
exec "$qemu" "$@"
