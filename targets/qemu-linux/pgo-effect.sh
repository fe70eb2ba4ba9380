#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Is a kernel PGO build's profile really used? For each object named (by
# default four on the NAT path), compiles its C file again with the build's
# own command line (its .cmd file, -MMD dropped) three ways, into a
# temporary directory: with the build's .gcda (as train.sh left it, with
# the object summary gcda-summary added), with that .gcda minus its
# summary (what the kernel's debugfs gives), and with no .gcda. Prints the
# code bytes of each as .text/all (.text, and every .text.* section with
# it: the profile moves never-run code to .text.unlikely) and whether the
# summary-less one is byte for byte the no-profile one (GCC 12 ignores a
# profile without a summary).
#
#   pgo-effect.sh BUILD_DIR [OBJECT.o ...]
# BUILD_DIR: a TUNER_PGO=use build (results/<study>/builds/<key>), run
# from anywhere. Exit status 0, or 1 with the reason.
set -euo pipefail
die() { echo "pgo-effect.sh: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: pgo-effect.sh BUILD_DIR [OBJECT.o ...]"
B=$(cd "$1" && pwd) || die "no directory $1"
shift
[ $# -gt 0 ] || set -- net/core/dev.o net/ipv4/ip_forward.o net/ipv4/ip_output.o \
	net/netfilter/nf_conntrack_core.o
cross=${TUNER_KERNEL_CROSS:-arm-linux-gnueabihf-}
tmp=$(mktemp -d /tmp/tuner-pgo-effect.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
text() {
	"${cross}size" -A "$1" | awk '$1 == ".text" { t = $2 } $1 ~ /^\.text/ { a += $2 }
		END { printf "%d/%d", t, a }'
}

printf '%-36s %12s %12s %12s  %s\n' "object (code .text/all)" "with" "no summary" "none" \
	"no summary = none?"
for obj in "$@"; do
	base=${obj%.o}
	cmdfile=$B/$(dirname "$obj")/.$(basename "$obj").cmd
	[ -f "$cmdfile" ] || die "no $cmdfile"
	[ -f "$B/$base.gcda" ] || die "no profile $B/$base.gcda (not a PGO use build?)"
	cmd=$(sed -n "1s|^cmd_$obj := ||p" "$cmdfile")
	case $cmd in *-fprofile-use*) ;; *) die "$obj was not compiled with -fprofile-use" ;; esac
	cmd=$(printf '%s' "$cmd" | sed -E 's/ -Wp,-MMD,[^ ]*//')
	cp "$B/$base.gcda" "$tmp/with.gcda"
	{ head -c 16 "$B/$base.gcda"; tail -c +33 "$B/$base.gcda"; } >"$tmp/nosummary.gcda"
	for v in with nosummary none; do
		# The object's name is where -fprofile-use looks for its .gcda.
		(cd "$B" && eval "${cmd/ -o $obj / -o $tmp/$v.o }") >/dev/null 2>&1 ||
			die "cannot compile $obj again ($v)"
	done
	same=no
	cmp -s "$tmp/nosummary.o" "$tmp/none.o" && same=yes
	printf '%-36s %12s %12s %12s  %s\n' "$obj" "$(text "$tmp/with.o")" \
		"$(text "$tmp/nosummary.o")" "$(text "$tmp/none.o")" "$same"
done
