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
# (tests/e2e/t_hostile.sh). qemu-system-arm and qemu-system-mips (its
# qemu-system-mipsel) run bare-metal programs under the plugin's cache
# maintenance model (t_uarch_maint.sh); qemu-system-arm, with
# device-tree-compiler, checks the kernel model's device tree
# (t_mk_dtb.sh).
set -eu

PKGS="gcc make pkg-config git binutils libgit2-dev libyaml-dev libjansson-dev libcmocka-dev valgrind
gcc-arm-linux-gnueabihf libc6-dev-armhf-cross gcc-mipsel-linux-gnu libc6-dev-mipsel-cross qemu-user
ccache clang libclang-rt-14-dev chromium fonts-dejavu-core python3-optuna r-cran-irace time jq cmark-gfm
qemu-system-arm qemu-system-mips device-tree-compiler"

. "$(dirname "$0")/sudo.sh"
# shellcheck disable=SC2086
missing=$(missing_packages $PKGS)
if [ -z "$missing" ]; then
	"$(dirname "$0")/qemu-plugin-h.sh" >/dev/null
	exit 0
fi

# shellcheck disable=SC2086
apt_install tuner $missing
"$(dirname "$0")/qemu-plugin-h.sh" >/dev/null
