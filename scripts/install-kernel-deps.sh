#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what the qemu-linux target (targets/qemu-linux) needs, when
# missing: Debian's kernel source, the armhf and mipsel cross compilers,
# QEMU (arm, and mips for the malta kernel), iperf3,
# the kernel build tools and device-tree-compiler (fdtput, for the
# kernel model's device tree: targets/qemu-linux/mk-dtb.sh); then fetches
# the armhf and the mipsel router userspace (busybox-static, nft, ethtool
# and their libraries) into the kernel work area ($work/armhf,
# $work/mipsel) with `apt-get download` + `dpkg -x` (never installed on
# the host),
# and qemu-plugin.h (scripts/qemu-plugin-h.sh) for the QEMU plugins; and
# the lab router's dropbear (targets/lab-router) into $work/armhf/lab.
# Called by `make deps-kernel` (so by make test-kernel, test-kernel-pgo,
# bench-kernel, test-lab and test-cluster), not by `make test`; safe to run
# again: with everything there it does nothing.
#
#   TUNER_KERNEL_WORK   the work area (default: results/qemu-linux-work)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
work=${TUNER_KERNEL_WORK:-$root/results/qemu-linux-work}

PKGS="linux-source-6.1 gcc-arm-linux-gnueabihf binutils-arm-linux-gnueabihf
gcc-mipsel-linux-gnu binutils-mipsel-linux-gnu qemu-system-mips
qemu-system-arm iperf3 bc flex bison libssl-dev libelf-dev cpio iproute2
make xz-utils git ccache jq libglib2.0-dev openssh-client device-tree-compiler"
# The router's userspace, armhf and mipsel alike; libraries are taken by
# the ELF NEEDED closure of the programs, so listing a few too many costs
# nothing.
ROUTER="busybox-static nftables libnftables1 libmnl0 libnftnl11 libgmp10
libjansson4 libxtables12 libedit2 libbsd0 libmd0 libtinfo6 libc6 ethtool"
# The lab router's extra userspace (targets/lab-router): dropbear and its
# libraries, kept apart (armhf/lab/) so the qemu-linux initramfs, keyed by
# the list of armhf/debs, stays the same.
ARMHF_LAB="dropbear-bin libcrypt1 libtomcrypt1 libtommath1 zlib1g"

. "$root/scripts/sudo.sh"
export DEBIAN_FRONTEND=noninteractive
updated=0
update() {
	[ $updated -eq 1 ] && return 0
	# A mirror in mid-sync fails one index now and then: warn, go on
	# with what was fetched, and let the install or download say no.
	$SUDO apt-get update -qq ||
		echo "install-kernel-deps: warning: apt-get update reported errors" >&2
	updated=1
}

# shellcheck disable=SC2086
missing=$(missing_packages $PKGS)
if [ -n "$missing" ]; then
	echo "install-kernel-deps: installing:$missing" >&2
	[ "$SUDO" = need-root ] && { echo "install-kernel-deps: need root (or sudo)" >&2; exit 1; }
	update
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# fetch_arch ARCH DIR WHAT PACKAGE...: the ARCH .debs of the packages,
# downloaded into DIR/debs and unpacked under DIR/root (never installed on
# the host), once (DIR/.complete).
fetch_arch() {
	arch=$1 dir=$2 what=$3 list=""
	shift 3
	[ -f "$dir/.complete" ] && return 0
	echo "install-kernel-deps: fetching $arch $what into $dir" >&2
	[ "$SUDO" = need-root ] && { echo "install-kernel-deps: need root (or sudo)" >&2; exit 1; }
	if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		$SUDO dpkg --add-architecture "$arch"
		updated=0
	fi
	update
	rm -rf "$dir"
	mkdir -p "$dir/debs" "$dir/root"
	for p in "$@"; do list="$list $p:$arch"; done
	# shellcheck disable=SC2086
	(cd "$dir/debs" && apt-get download -qq -o APT::Sandbox::User=root $list)
	for d in "$dir"/debs/*.deb; do
		dpkg -x "$d" "$dir/root"
	done
	touch "$dir/.complete"
}
# The router's userspace; the lab router's dropbear beside it; the MIPS
# kernel's (targets/qemu-linux: build.sh malta) in its own tree.
# shellcheck disable=SC2086
fetch_arch armhf "$work/armhf" "router userspace" $ROUTER
# shellcheck disable=SC2086
fetch_arch armhf "$work/armhf/lab" dropbear $ARMHF_LAB
# shellcheck disable=SC2086
fetch_arch mipsel "$work/mipsel" "router userspace" $ROUTER
# qemu-plugin.h (no binary package ships it), for the plugins.
"$root/scripts/qemu-plugin-h.sh" >/dev/null
exit 0
