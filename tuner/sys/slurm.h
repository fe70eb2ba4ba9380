/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurm: one build phase as a Slurm batch job, followed to its end
 * (build.executor: slurm, study.h; docs/cluster.md).
 *
 * slurm_run() writes a fixed job script into the build's directory, which
 * runs `/bin/sh -c "$TUNER_JOB_COMMAND"` on the node and leaves the exit
 * status in the file $TUNER_JOB_STATUS. It submits the script with
 * `sbatch --parsable --export=ALL`: the study's command, the flags and the
 * paths reach the node as environment variables, never as shell text of
 * ours. The job's output is appended to the build's log (--output,
 * --open-mode=append), so the results directory must be on a filesystem
 * the nodes share, at the same path.
 *
 * Then it asks `squeue -h -t all -j ID -o "%T %N"` every poll seconds
 * until the job has ended. The job is finished when its status file
 * exists: exited, with that status. A job that ended without one (a node
 * that failed, a preempted job, a job someone cancelled) is submitted
 * again (after 10, 20, ... polls, at most a minute), up to retries times
 * (sbatch --no-requeue: Slurm leaves that to
 * tuner, which counts and records it); one that Slurm stopped at its time
 * limit is timed out, like one past tuner's own timeout (which cancels
 * it).
 *
 * Every job is cancelled (`scancel ID`) when tuner is interrupted
 * (tn_cancelled()) or the timeout passes, and, through the guard
 * (guard_watch_job()), when tuner dies however: no job of tuner's stays
 * queued or running after it.
 *
 * sbatch, squeue and scancel are found in PATH; each call has a timeout
 * of its own (SLURM_CALL_TIMEOUT), and sbatch is called again when it
 * fails (a controller that is restarting), up to 3 times.
 */
#ifndef TUNER_SLURM_H
#define TUNER_SLURM_H

#include <stddef.h>

struct slurm_opts {
	const char *partition; /* --partition; NULL: the cluster's default */
	unsigned cpus;         /* --cpus-per-task; 0: not given */
	const char *mem;       /* --mem ("4G"); NULL: not given */
	unsigned time_min;     /* --time in minutes; 0: the timeout's, rounded
	                          up, plus one (none without a timeout) */
	unsigned retries;      /* submissions again of a job that ended
	                          without finishing */
	double poll;           /* seconds between squeue calls (> 0) */
};

/* Seconds each call of sbatch, squeue or scancel may take. */
#define SLURM_CALL_TIMEOUT 60.0

struct slurm_result {
	int exited;      /* the command ran to its end on a node */
	int exit_code;   /* when exited */
	int status;      /* exit_code; or 128 + 9 when it never finished */
	int timed_out;   /* tuner's timeout or Slurm's time limit */
	int cancelled;   /* tn_cancelled() */
	double wall;     /* seconds from the first submission to the end */
	unsigned attempts; /* jobs submitted */
	char job[24];    /* the last job's id */
	char node[64];   /* the node it ran on, "" if never seen running */
	char state[24];  /* its last state seen ("COMPLETED", ...) */
};

/*
 * Runs command as a job (see above) in directory cwd with env (the
 * TUNER_* variables, cmd_env_build()), the job's output appended to log,
 * its script and status files in state_dir, named after name (the job's
 * name is "tuner-<name>"). Fills out and returns 0 whatever the job's
 * end; -1 with message when no job could be submitted (sbatch missing or
 * refusing: a cluster problem, not a build result) or a file could not
 * be written. Thread-safe: each build thread follows its own jobs.
 */
int slurm_run(struct slurm_result *out, const struct slurm_opts *o, const char *command,
	      const char *cwd, char *const *env, const char *log, const char *state_dir,
	      const char *name, double timeout);

/* Whether a squeue state ("RUNNING", "NODE_FAIL", ...) is one a job no
 * longer leaves. For tests. */
int slurm_state_ended(const char *state);

#endif
