#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what `make test-cluster` needs beyond the kernel's
# (scripts/install-kernel-deps.sh), when missing: Debian's Slurm
# (slurmctld, slurmd, the client commands), munge, and distcc
# (tests/cluster/t_kernel_distcc.sh's distccd). Called by `make
# deps-cluster`; safe to run again: with everything there it does nothing.
set -eu

PKGS="slurmctld slurmd slurm-client munge distcc"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "install-cluster-deps: installing:$missing" >&2
. "$(dirname "$0")/sudo.sh"
if [ "$SUDO" = need-root ]; then
	echo "install-cluster-deps: need root (or sudo) to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
