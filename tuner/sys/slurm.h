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
 * until the job has ended. Only a line "STATE NODE" with one of Slurm's
 * job states is an answer; other lines (a site wrapper's banner) are
 * skipped and said (a warning, once per tuner, and a line in the log).
 * When squeue fails or prints no answer, the job's status file decides:
 * once it is there the job has finished. After SQUEUE_FAILS answers in a
 * row that cannot be read and no status file, the job is cancelled and
 * the build is an error, not a result: tuner cannot tell a job that is
 * still running from one that is lost. The job is finished when its
 * status file exists: exited, with that status. A job that ended without one (a node
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
 * of its own (SLURM_CALL_TIMEOUT; squeue's, SQUEUE_CALL_TIMEOUT, is
 * short, since a build's recorded time runs on while tuner waits for an
 * answer), and sbatch is called again when it fails (a controller that is
 * restarting), up to 3 times.
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

/* Seconds each call of sbatch or scancel may take. */
#define SLURM_CALL_TIMEOUT 60.0
/* Seconds a call of squeue may take: Slurm's own default MessageTimeout.
 * One that takes longer has failed (SQUEUE_FAILS of them in a row: the
 * job is gone from squeue); a hung call adds at most this to the build's
 * recorded time, not SLURM_CALL_TIMEOUT. */
#define SQUEUE_CALL_TIMEOUT 10.0
/* The size of the line slurm_read_answer() keeps of what is not an
 * answer. */
#define SLURM_JUNK_MAX 96

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

/*
 * Reads squeue's output out (NULL: none) for one job: the first line
 * "STATE" or "STATE NODE" with one of Slurm's job states is the answer,
 * its state into state and its node into node ("" when none or
 * "(null)"). The first line that is not an answer (a banner, a state
 * this tuner does not know), printable and shortened, goes into junk
 * ("" when none). 1 when an answer was found, 0 when out has no line at
 * all (squeue does not know the job), -1 when it has only lines that are
 * not one. For tests too.
 */
int slurm_read_answer(char state[24], char node[64], char junk[SLURM_JUNK_MAX], const char *out);

/* Whether a squeue state ("RUNNING", "NODE_FAIL", ...) is one a job no
 * longer leaves. For tests. */
int slurm_state_ended(const char *state);

#endif
