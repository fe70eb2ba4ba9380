#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the insncount QEMU plugin (insncount.c) against qemu-plugin.h from
# Debian's qemu source package, which scripts/install-kernel-deps.sh
# unpacks under $TUNER_KERNEL_WORK/qemu-src. Prints the plugin's path; a
# plugin built from the same source is reused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
hdr=$(find "$work/qemu-src" -path '*/include/qemu/qemu-plugin.h' 2>/dev/null | head -1)
[ -n "$hdr" ] || { echo "mk-plugin: no qemu-plugin.h under $work/qemu-src (run scripts/install-kernel-deps.sh)" >&2; exit 1; }
key=$(cat "$here/insncount.c" "$hdr" | sha1sum | cut -c1-12)
so=$work/plugin/insncount-$key.so
if [ ! -f "$so" ]; then
	mkdir -p "$work/plugin"
	# shellcheck disable=SC2046
	gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -I"$(dirname "$hdr")" \
		$(pkg-config --cflags glib-2.0) -o "$so.tmp.$$" "$here/insncount.c" -lpthread
	mv "$so.tmp.$$" "$so"
fi
echo "$so"
