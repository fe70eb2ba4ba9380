#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian packages tuner needs to build and test, when missing,
# and fetches qemu-plugin.h (scripts/qemu-plugin-h.sh) for the uarch plugin.
# Called by `make deps` (so by every goal that installs: make test, demo,
# bench, fuzz and the opt-in ones); safe to run again: with everything
# there it only checks.
# The cross compilers and qemu-user run the router models (ARM and MIPS
# code under the uarch plugin); qemu-user comes without its recommended
# qemu-user-binfmt, which would register handlers system-wide. ccache
# compiles natbench's harness once per study (TUNER_CACHE).
# clang and its runtime build the libFuzzer targets (tests/fuzz).
# chromium (headless) renders report.html in tests/e2e/t_report.sh: a
# screenshot and the DOM's points; DejaVu is the page's font. time
# (/usr/bin/time) takes the CPU seconds in bench/natbench-router.sh; jq
# reads JSON outputs in the end-to-end tests (t_compare.sh, ...).
# cmark-gfm renders the Markdown outputs as GitHub would
# (tests/e2e/t_hostile.sh).
set -eu

PKGS="gcc make pkg-config git binutils libgit2-dev libyaml-dev libjansson-dev libcmocka-dev valgrind
gcc-arm-linux-gnueabihf libc6-dev-armhf-cross gcc-mipsel-linux-gnu libc6-dev-mipsel-cross qemu-user
ccache clang libclang-rt-14-dev chromium fonts-dejavu-core python3-optuna r-cran-irace time jq cmark-gfm"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	"$(dirname "$0")/qemu-plugin-h.sh" >/dev/null
	exit 0
fi

echo "tuner: installing missing Debian packages:$missing" >&2
. "$(dirname "$0")/sudo.sh"
if [ "$SUDO" = need-root ]; then
	echo "tuner: need root (or sudo) to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
"$(dirname "$0")/qemu-plugin-h.sh" >/dev/null
