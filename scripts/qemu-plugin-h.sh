#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Prints the directory holding qemu-plugin.h (QEMU's TCG plugin API), which
# no Debian binary package ships: it is taken from Debian's qemu source
# package (`apt-get source --download-only qemu`, with a deb-src entry for
# bookworm main added as /etc/apt/sources.list.d/tuner-qemu-src.sources)
# into $TUNER_DEPS (default build/deps) the first time, then reused. Only
# that one header is unpacked; nothing of it is ever committed.
# Needs root (or sudo) the first time. Called by install-deps.sh and
# install-kernel-deps.sh, and by the Makefile for the plugin; with
# TUNER_NO_APT=1 (`make check`) it only looks, and fails if it is missing.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
deps=${TUNER_DEPS:-$root/build/deps}

hdr=$(find "$deps/qemu-src" -path '*/include/qemu/qemu-plugin.h' 2>/dev/null | head -1)
if [ -z "$hdr" ] && [ -n "${TUNER_NO_APT:-}" ]; then
	echo "qemu-plugin-h: no qemu-plugin.h in $deps (TUNER_NO_APT is set: run \`make deps\` or \`make test\` once)" >&2
	exit 1
fi
if [ -z "$hdr" ]; then
	echo "qemu-plugin-h: fetching Debian's qemu source for qemu-plugin.h" >&2
	. "$root/scripts/sudo.sh"
	if [ "$SUDO" = need-root ]; then
		echo "qemu-plugin-h: need root (or sudo) to add a deb-src entry" >&2
		exit 1
	fi
	src=/etc/apt/sources.list.d/tuner-qemu-src.sources
	if [ ! -f "$src" ]; then
		printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
			'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
			$SUDO tee "$src" >/dev/null
		# A mirror in mid-sync fails one index now and then: warn, go on.
		$SUDO apt-get update -qq ||
			echo "qemu-plugin-h: warning: apt-get update reported errors" >&2
	fi
	rm -rf "$deps/qemu-src"
	mkdir -p "$deps/qemu-src"
	(cd "$deps/qemu-src" && apt-get source --download-only -qq -o APT::Sandbox::User=root qemu) || {
		# The index may predate the deb-src entry (a machine set up earlier).
		$SUDO apt-get update -qq || true
		(cd "$deps/qemu-src" && apt-get source --download-only -qq -o APT::Sandbox::User=root qemu)
	}
	orig=$(ls "$deps"/qemu-src/qemu_*.orig.tar.* | head -1)
	tar -xf "$orig" -C "$deps/qemu-src" --wildcards '*/include/qemu/qemu-plugin.h'
	rm -f "$deps"/qemu-src/qemu_*
	hdr=$(find "$deps/qemu-src" -path '*/include/qemu/qemu-plugin.h' | head -1)
	[ -n "$hdr" ] || { echo "qemu-plugin-h: no qemu-plugin.h in $orig" >&2; exit 1; }
fi
dirname "$hdr"
