#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the insncount QEMU plugin (insncount.c) against qemu-plugin.h from
# Debian's qemu source package (scripts/qemu-plugin-h.sh fetches it). Prints
# the plugin's path; a plugin built from the same source is reused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}
hdr=$("$root/scripts/qemu-plugin-h.sh")/qemu-plugin.h
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
