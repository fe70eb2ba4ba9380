#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what `make test-cluster` needs beyond the kernel's
# (scripts/install-kernel-deps.sh), when missing: Debian's Slurm
# (slurmctld, slurmd, the client commands), munge, and distcc
# (tests/cluster/t_kernel_distcc.sh's distccd). Called by `make
# deps-cluster`; safe to run again: with everything there it does nothing.
set -eu

PKGS="slurmctld slurmd slurm-client munge distcc"

. "$(dirname "$0")/sudo.sh"
# shellcheck disable=SC2086
missing=$(missing_packages $PKGS)
[ -z "$missing" ] && exit 0

# shellcheck disable=SC2086
apt_install install-cluster-deps $missing
