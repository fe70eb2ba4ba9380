#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Where natbench's code is, from the linker's map (-Wl,-Map):
#
#   ranges.sh MAPFILE
#
# prints one line per address range of executable code,
#
#   KIND 0xLO 0xHI
#
# in hex, HI exclusive, sorted, adjacent ranges of one kind merged. KIND is
# "fp" for code from the fast-path objects (fp_*.o: hand-written,
# generated, fp_mem.o, fp_plant.o) and "own" for code from the harness
# objects built here (main.o, gen*.o, wire.o, verify.o, config*.o,
# apps_tab.o, pad.o). The C runtime, libc, libgcc and gcov's runtime (and
# the linker's stubs) are not listed; nor is the padding between two input
# sections, so two objects' ranges merge only when nothing lies between.
#
# Code is every input section whose name starts with .text: .text itself,
# and gcc's .text.hot, .text.unlikely, .text.startup (PGO, and functions
# gcc splits into hot and cold parts), .text.NAME (-ffunction-sections,
# the layout pad, the planted effect). Objects inside archives
# (libc.a(memcpy.o)) never count, whatever the member's name.
#
# GNU ld's map lists an input section as " NAME ADDRESS SIZE FILE", or,
# when the name is long, " NAME" alone and the rest on the next line; the
# same on x86-64, ARM and MIPS (8 or 16 hex digits). Only the part after
# "Linker script and memory map" counts (discarded sections come before).
# awk without hex input or 64-bit %x (mawk): hex is converted by hand,
# exactly below 2^53.
set -eu

if [ $# -ne 1 ] || [ ! -r "$1" ]; then
	echo "usage: ranges.sh MAPFILE" >&2
	exit 2
fi

awk '
function hexval(s,    i, v, c) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (c == 0)
			return -1
		v = v * 16 + c - 1
	}
	return v
}
function hexstr(v,    s, d) {
	if (v == 0)
		return "0x0"
	s = ""
	while (v > 0) {
		d = v % 16
		s = substr("0123456789abcdef", d + 1, 1) s
		v = (v - d) / 16
	}
	return "0x" s
}
function kind(file,    b) {
	if (file ~ /\(/)
		return ""               # an archive member
	b = file
	sub(/.*\//, "", b)
	if (b ~ /^fp_.*\.o$/)
		return "fp"
	if (b ~ /^(main|gen[a-z_]*|wire|verify|config[a-z_]*|apps_tab|pad)\.o$/)
		return "own"
	return ""
}
function section(name, addr, size, file,    k, lo, n) {
	if (name !~ /^\.text(\.|$)/)
		return
	k = kind(file)
	if (k == "")
		return
	lo = hexval(addr)
	n = hexval(size)
	if (lo < 0 || n <= 0)
		return
	nr++
	rk[nr] = k
	rlo[nr] = lo
	rhi[nr] = lo + n
}
# The file is the rest of the line from its field f on.
function rest(f,    s, i) {
	s = $f
	for (i = f + 1; i <= NF; i++)
		s = s " " $i
	return s
}
/^Linker script and memory map/ { inmap = 1; next }
!inmap { next }
/^ \.[^ ]/ {
	pending = ""
	if (NF >= 4 && $2 ~ /^0x/ && $3 ~ /^0x/)
		section($1, $2, $3, rest(4))
	else if (NF == 1)
		pending = $1
	next
}
pending != "" && /^  +0x/ && NF >= 3 && $2 ~ /^0x/ {
	section(pending, $1, $2, rest(3))
	pending = ""
	next
}
{ pending = "" }
END {
	# Insertion sort by start address (a few hundred ranges), then merge.
	for (i = 2; i <= nr; i++) {
		k = rk[i]; lo = rlo[i]; hi = rhi[i]
		for (j = i - 1; j >= 1 && rlo[j] > lo; j--) {
			rk[j + 1] = rk[j]; rlo[j + 1] = rlo[j]; rhi[j + 1] = rhi[j]
		}
		rk[j + 1] = k; rlo[j + 1] = lo; rhi[j + 1] = hi
	}
	for (i = 1; i <= nr; i++) {
		if (i > 1 && rk[i] == ck && rlo[i] == chi) {
			chi = rhi[i]
			continue
		}
		if (i > 1)
			printf "%s %s %s\n", ck, hexstr(clo), hexstr(chi)
		ck = rk[i]; clo = rlo[i]; chi = rhi[i]
	}
	if (nr > 0)
		printf "%s %s %s\n", ck, hexstr(clo), hexstr(chi)
}' "$1"
