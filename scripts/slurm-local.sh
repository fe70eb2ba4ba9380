#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real Slurm on this machine, for tests (make test-cluster,
# tests/cluster/t_slurm_real.sh) and for trying build.executor: slurm
# (docs/cluster.md): Debian's munge and slurm (slurmctld, slurmd, the
# clients), one controller and one node, both this machine, everything
# but munge's socket under DIR. Needs root (slurmd runs jobs as their
# users).
#
#   scripts/slurm-local.sh start DIR   configure and start; prints
#                                      "export SLURM_CONF=DIR/slurm.conf"
#   scripts/slurm-local.sh stop DIR    cancel every job, stop the daemons
#
# The node is this machine with all its CPUs, in partition "builds"
# (the default). proctrack/linuxproc and task/none: no cgroups needed.
set -euo pipefail
cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then echo "usage: $0 start|stop DIR" >&2; exit 2; fi
dir=$(readlink -f "$dir")
conf=$dir/slurm.conf
host=$(hostname -s)

start_munge() {
	mkdir -p /run/munge
	chown munge:munge /run/munge
	if ! munge -n >/dev/null 2>&1; then
		runuser -u munge -- /usr/sbin/munged
		for _ in $(seq 1 50); do
			munge -n >/dev/null 2>&1 && return 0
			sleep 0.1
		done
		echo "slurm-local.sh: munged did not start" >&2
		exit 1
	fi
}

case $cmd in
start)
	for p in slurmctld slurmd sbatch munged; do
		command -v "$p" >/dev/null || [ -x "/usr/sbin/$p" ] ||
			{ echo "slurm-local.sh: $p missing (make deps-cluster)" >&2; exit 1; }
	done
	[ "$(id -u)" = 0 ] || { echo "slurm-local.sh: needs root" >&2; exit 1; }
	mkdir -p "$dir/state" "$dir/spool"
	cpus=$(nproc)
	mem=$(( $(awk '/^MemTotal/ { print $2 }' /proc/meminfo) / 1024 / 2 ))
	cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh: one controller and one node, this machine.
ClusterName=tuner-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
MpiDefault=none
ReturnToService=2
MinJobAge=300
KillWait=5
SlurmdTimeout=30
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=builds Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF=$conf
	start_munge
	/usr/sbin/slurmctld -c
	/usr/sbin/slurmd
	for _ in $(seq 1 100); do
		state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
		[ "$state" = idle ] && break
		sleep 0.2
	done
	[ "${state:-}" = idle ] ||
		{ echo "slurm-local.sh: node $host is '${state:-unknown}', not idle (logs in $dir)" >&2; exit 1; }
	echo "export SLURM_CONF=$conf"
	;;
stop)
	export SLURM_CONF=$conf
	if [ -e "$conf" ]; then
		scancel --quiet --user="$(id -un)" 2>/dev/null || true
	fi
	for d in slurmd slurmctld; do
		if [ -s "$dir/$d.pid" ]; then
			pid=$(cat "$dir/$d.pid")
			kill "$pid" 2>/dev/null || true
			for _ in $(seq 1 50); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.1
			done
			kill -KILL "$pid" 2>/dev/null || true
		fi
	done
	;;
*)
	echo "usage: $0 start|stop DIR" >&2
	exit 2
	;;
esac
