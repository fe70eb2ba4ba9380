/* SPDX-License-Identifier: GPL-2.0-or-later */
/* slurm: see tuner/sys/slurm.h */
#include "slurm.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tuner/guard.h"
#include "tuner/runner.h"
#include "tuner/util.h"

/* Fixed text: the command and the status file's path come in the
 * environment. The status file appears whole (rename) once the command
 * has ended; a requeued job removes an old one first. */
static const char job_script[] =
	"#!/bin/sh\n"
	"# Written by tuner (tuner/sys/slurm.c): one build phase as a Slurm job.\n"
	"rm -f \"$TUNER_JOB_STATUS\"\n"
	"trap 'exit 143' TERM\n"
	"echo \"== tuner: slurm job ${SLURM_JOB_ID:-?} on ${SLURMD_NODENAME:-$(hostname)}\"\n"
	"/bin/sh -c \"$TUNER_JOB_COMMAND\"\n"
	"status=$?\n"
	"echo \"$status\" >\"$TUNER_JOB_STATUS.tmp\" && mv -f \"$TUNER_JOB_STATUS.tmp\" "
	"\"$TUNER_JOB_STATUS\"\n"
	"exit \"$status\"\n";

/* Times sbatch is tried before the submission is given up. */
#define SBATCH_TRIES 3
/* Failed squeue calls in a row after which the job counts as gone. */
#define SQUEUE_FAILS 5
/* Seconds to wait for a finished job's status file to show (a shared
 * filesystem's attribute cache). */
#define STATUS_WAIT 10.0

int slurm_state_ended(const char *state)
{
	static const char *const ended[] = {
		"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
		"OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "REVOKED", "SPECIAL_EXIT", NULL
	};

	for (size_t i = 0; ended[i]; i++)
		if (!strcmp(state, ended[i]))
			return 1;
	return 0;
}

/* A state in which Slurm ended the job before its command: it is lost
 * (submitted again), or timed out. */
static int lost_state(const char *state)
{
	return slurm_state_ended(state) && strcmp(state, "COMPLETED") && strcmp(state, "FAILED") &&
	       strcmp(state, "OUT_OF_MEMORY");
}

/* Sleeps up to seconds, in short naps, returning early once cancelled. */
static void nap(double seconds)
{
	double end = now_seconds() + seconds;

	while (!tn_cancelled()) {
		double left = end - now_seconds();
		struct timespec ts;

		if (left <= 0)
			break;
		if (left > 0.1)
			left = 0.1;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* Runs argv (a Slurm client) with env, stdout captured, stderr to log
 * (NULL: dropped), for at most timeout seconds, without the guard's
 * mark: sbatch's environment is the job's (--export=ALL), and a job on
 * this machine carrying the mark would be killed as an escape of
 * sbatch's. 0 with r filled, or -1 with message. */
static int call(struct runner *r, const char *const *argv, char *const *env, const char *log,
		double timeout)
{
	struct runner_opts ro = RUNNER_OPTS_INIT;

	ro.argv = argv;
	ro.env = (const char *const *)env;
	ro.log_path = log;
	ro.capture = 1;
	ro.capture_max = 4096;
	ro.timeout = timeout;
	ro.unmarked = 1;
	/* A call made to cancel a job must not be cut short by the
	 * cancellation itself. */
	ro.uncancellable = 1;
	return runner_run(r, &ro);
}

/* `scancel ID`, best effort: the job may have ended meanwhile. */
static void cancel(const char *job, const char *log)
{
	const char *argv[] = { "scancel", job, NULL };
	struct runner r = RUNNER_INIT;

	if (call(&r, argv, NULL, log, SLURM_CALL_TIMEOUT) < 0)
		tn_error_clear();
	runner_release(&r);
}

/* Submits the job script; its id into job. 0, or -1 with message. */
static int submit(char job[24], const struct slurm_opts *o, char *const *env, const char *cwd,
		  const char *log, const char *script, const char *name, double timeout)
{
	char *opt[8] = { 0 };
	const char *argv[16];
	size_t n = 0, k = 0;
	unsigned minutes = o->time_min;
	int ret = -1;

	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	argv[n++] = opt[k++] = xasprintf("--job-name=tuner-%s", name);
	argv[n++] = opt[k++] = xasprintf("--chdir=%s", cwd);
	argv[n++] = opt[k++] = xasprintf("--output=%s", log);
	argv[n++] = "--open-mode=append";
	argv[n++] = "--export=ALL";
	/* Slurm does not requeue it by itself (its node failed, it was
	 * preempted): tuner submits it again, counts and records it. */
	argv[n++] = "--no-requeue";
	if (o->partition)
		argv[n++] = opt[k++] = xasprintf("--partition=%s", o->partition);
	if (o->cpus)
		argv[n++] = opt[k++] = xasprintf("--cpus-per-task=%u", o->cpus);
	if (o->mem)
		argv[n++] = opt[k++] = xasprintf("--mem=%s", o->mem);
	if (!minutes && timeout > 0)
		minutes = (unsigned)ceil(timeout / 60) + 1;
	if (minutes)
		argv[n++] = opt[k++] = xasprintf("--time=%u", minutes);
	argv[n++] = script;
	argv[n] = NULL;

	for (int t = 1; t <= SBATCH_TRIES && !tn_cancelled(); t++) {
		struct runner r = RUNNER_INIT;
		char *end = NULL;
		unsigned long id;

		if (call(&r, argv, env, log, SLURM_CALL_TIMEOUT) < 0) {
			runner_release(&r);
			break;
		}
		/* "ID" or "ID;CLUSTER" */
		id = r.result.out ? strtoul(r.result.out, &end, 10) : 0;
		if (r.result.status == 0 && id > 0 && id <= 0x7fffffffUL && end &&
		    (*end == '\0' || *end == ';' || *end == '\n')) {
			snprintf(job, 24, "%lu", id);
			runner_release(&r);
			ret = 0;
			break;
		}
		log_append(log, "== tuner: sbatch failed (%s)\n",
			   r.result.timed_out ? "timed out" : "its message is above");
		runner_release(&r);
		if (t == SBATCH_TRIES)
			tn_error("sbatch could not submit the build's job %d times (its messages "
				 "are in %s)", SBATCH_TRIES, log);
		else
			nap(2.0 * t);
	}
	if (ret < 0 && tn_cancelled())
		tn_error("cancelled before the job was submitted");
	for (size_t i = 0; i < k; i++)
		free(opt[i]);
	return ret;
}

/* squeue's job states (Slurm's job_state_codes: the base states and the
 * flags squeue shows instead of them). */
static const char *const job_states[] = {
	"BOOT_FAIL", "CANCELLED", "COMPLETED", "DEADLINE", "FAILED", "NODE_FAIL", "OUT_OF_MEMORY",
	"PENDING", "PREEMPTED", "RUNNING", "SUSPENDED", "TIMEOUT", "COMPLETING", "CONFIGURING",
	"EXPEDITING", "LAUNCH_FAILED", "POWER_UP_NODE", "RECONFIG_FAIL", "REQUEUED", "REQUEUE_FED",
	"REQUEUE_HOLD", "RESIZING", "RESV_DEL_HOLD", "REVOKED", "SIGNALING", "SPECIAL_EXIT",
	"STAGE_OUT", "STOPPED", "UPDATE_DB", NULL
};

/* Whether line[0..len) is an answer, "STATE" or "STATE NODE" with a state
 * of job_states; its parts into state and node if so. */
static int answer_line(char state[24], char node[64], const char *line, size_t len)
{
	char st[24] = "", nd[64] = "", extra[2] = "";
	char buf[128];
	int n;

	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, line, len);
	buf[len] = '\0';
	n = sscanf(buf, "%23s %63s %1s", st, nd, extra);
	if (n < 1 || n > 2)
		return 0;
	for (size_t i = 0; job_states[i]; i++) {
		if (strcmp(st, job_states[i]))
			continue;
		snprintf(state, 24, "%s", st);
		snprintf(node, 64, "%s", n == 2 && strcmp(nd, "(null)") ? nd : "");
		return 1;
	}
	return 0;
}

int slurm_read_answer(char state[24], char node[64], char junk[SLURM_JUNK_MAX], const char *out)
{
	int found = 0, lines = 0;

	junk[0] = '\0';
	for (const char *p = out ? out : ""; *p;) {
		size_t len = strcspn(p, "\n"), skip = strspn(p, " \t\r");

		if (skip < len) {
			char st[24], nd[64];

			lines++;
			if (answer_line(st, nd, p, len)) {
				if (!found) {
					memcpy(state, st, sizeof(st));
					memcpy(node, nd, sizeof(nd));
				}
				found = 1;
			} else if (!junk[0]) {
				size_t k = 0;

				/* Printable and short: it goes into messages. */
				for (size_t i = skip; i < len && k + 4 < SLURM_JUNK_MAX; i++) {
					unsigned char c = (unsigned char)p[i];

					junk[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
				}
				if (len - skip > k)
					memcpy(junk + k, "...", 3), k += 3;
				while (k && junk[k - 1] == ' ')
					k--;
				junk[k] = '\0';
			}
		}
		p += len;
		if (*p)
			p++;
	}
	return found ? 1 : lines ? -1 : 0;
}

/* How squeue answered for one job. */
enum answer { A_FAILED = -1, A_GONE, A_STATE, A_UNREADABLE };

/* What follow() has said about squeue's answers, once each per job. */
struct said {
	int junk, unreadable;
};

/* Each warning once per tuner (a site's squeue says the same for every
 * job); the build's log gets its own line. */
static atomic_flag warned_junk = ATOMIC_FLAG_INIT, warned_unreadable = ATOMIC_FLAG_INIT;

/* Says (log and, once, the warning) that squeue printed junk about job. */
static void say_junk(struct said *said, const char *job, const char *junk, int unreadable,
		     const char *log)
{
	char *line;

	if (unreadable ? said->unreadable : said->junk)
		return;
	if (unreadable) {
		said->unreadable = 1;
		line = xasprintf("cannot read squeue's answer about slurm job %s: '%s' (not 'STATE "
				 "NODE'); following the job by its status file", job, junk);
	} else {
		said->junk = 1;
		line = xasprintf("squeue printed a line that is not its answer about slurm job %s, "
				 "ignored: '%s'", job, junk);
	}
	log_append(log, "== tuner: %s\n", line);
	if (!atomic_flag_test_and_set(unreadable ? &warned_unreadable : &warned_junk)) {
		char *w = xasprintf("warning: %s", line);

		runner_warn(w);
		free(w);
	}
	free(line);
}

/* The job's state and node, from squeue (lines that are not an answer
 * skipped, and said). A_STATE when found, A_GONE when squeue does not know
 * the job (any more), A_FAILED when squeue failed, A_UNREADABLE when it
 * printed only lines that are not an answer (the first into junk). */
static enum answer query(char state[24], char node[64], char junk[SLURM_JUNK_MAX],
			 const char *job)
{
	const char *argv[] = { "squeue", "-h", "-t", "all", "-j", job, "-o", "%T %N", NULL };
	struct runner r = RUNNER_INIT;
	enum answer ret = A_FAILED;

	junk[0] = '\0';
	if (call(&r, argv, NULL, NULL, SQUEUE_CALL_TIMEOUT) < 0) {
		tn_error_clear();
	} else if (r.result.status == 0 && !r.result.timed_out) {
		switch (slurm_read_answer(state, node, junk, r.result.out)) {
		case 1:
			ret = A_STATE;
			break;
		case 0:
			ret = A_GONE;
			break;
		default:
			ret = A_UNREADABLE;
		}
	}
	runner_release(&r);
	return ret;
}

/* The status the job script left, or -1 when there is none (yet). */
static int read_status(const char *path)
{
	char *text = NULL;
	size_t len;
	int v = -1;

	if (read_file(&text, &len, path) == 0) {
		char *end;
		long x = strtol(text, &end, 10);

		if (end != text && x >= 0 && x <= 255)
			v = (int)x;
	} else {
		tn_error_clear();
	}
	free(text);
	return v;
}

/* Waits up to STATUS_WAIT for the status file to show; whether it did. */
static int status_shows(const char *status)
{
	double end = now_seconds() + STATUS_WAIT;

	while (read_status(status) < 0) {
		if (now_seconds() >= end || tn_cancelled())
			return 0;
		nap(0.2);
	}
	return 1;
}

/*
 * Follows one submitted job to its end (or cancels it at the deadline or
 * on tn_cancelled()). Leaves state, node and out's flags set. The status
 * file wins over an answer of squeue's that failed or could not be read;
 * one that says the job is still there is waited for (Slurm may yet end
 * it otherwise). 0, or -1 with message when squeue's answers could not
 * be read SQUEUE_FAILS times in a row and the job left no status (it is
 * cancelled: tuner cannot follow it).
 */
static int follow(struct slurm_result *out, const struct slurm_opts *o, const char *status,
		  const char *log, double deadline)
{
	unsigned fails = 0, unreadable = 0;
	enum answer q = A_STATE;
	struct said said = { 0, 0 };
	char junk[SLURM_JUNK_MAX];

	for (;;) {
		if (tn_cancelled() || (deadline > 0 && now_seconds() >= deadline)) {
			if (tn_cancelled())
				out->cancelled = 1;
			else
				out->timed_out = 1;
			log_append(log, "== tuner: cancelling slurm job %s\n", out->job);
			cancel(out->job, log);
			return 0;
		}
		/* Not another call (which may hang) when the last one did not
		 * answer and the job has ended meanwhile. */
		if ((q == A_FAILED || q == A_UNREADABLE) && read_status(status) >= 0)
			return 0;
		q = query(out->state, out->node, junk, out->job);
		if (q == A_GONE || (q == A_STATE && slurm_state_ended(out->state)))
			return 0;
		if (junk[0])
			say_junk(&said, out->job, junk, q == A_UNREADABLE, log);
		if ((q == A_FAILED || q == A_UNREADABLE) && read_status(status) >= 0)
			return 0;
		fails = q == A_FAILED ? fails + 1 : 0;
		unreadable = q == A_UNREADABLE ? unreadable + 1 : 0;
		if (fails >= SQUEUE_FAILS) {
			/* squeue no longer answers for it: done if it left
			 * its status, else lost. */
			snprintf(out->state, sizeof(out->state), "UNKNOWN");
			return 0;
		}
		if (unreadable >= SQUEUE_FAILS) {
			/* Not "still running", not lost: unknown, and said. */
			if (status_shows(status))
				return 0;
			log_append(log, "== tuner: cancelling slurm job %s\n", out->job);
			cancel(out->job, log);
			return tn_error("cannot read squeue's answer about slurm job %s (%u times: "
					"'%s'), and the job left no status: cancelled it, not "
					"recorded as a build (is the squeue in PATH Slurm's own? see "
					"docs/cluster.md)", out->job, unreadable, junk);
		}
		nap(o->poll);
	}
}

int slurm_run(struct slurm_result *out, const struct slurm_opts *o, const char *command,
	      const char *cwd, char *const *env, const char *log, const char *state_dir,
	      const char *name, double timeout)
{
	char *script = xasprintf("%s/.tuner-job.sh", state_dir);
	char *status = NULL, *cmd_var = NULL, *status_var = NULL;
	char **full = NULL;
	size_t nenv = 0;
	double start = now_seconds(), deadline = timeout > 0 ? start + timeout : 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (write_file_atomic(script, job_script, sizeof(job_script) - 1) < 0 ||
	    chmod(script, 0755) < 0) {
		if (!tn_errmsg()[0])
			tn_error_errno("cannot make %s executable", script);
		goto out;
	}
	while (env && env[nenv])
		nenv++;
	full = xcalloc(nenv + 3, sizeof(*full));
	for (size_t i = 0; i < nenv; i++)
		full[i] = env[i];
	cmd_var = xasprintf("TUNER_JOB_COMMAND=%s", command);
	full[nenv] = cmd_var;

	for (unsigned attempt = 0; attempt <= o->retries; attempt++) {
		unsigned long id;
		double wait_end;
		int st = -1;

		free(status);
		free(status_var);
		status = xasprintf("%s/.tuner-job-%s-%u.status", state_dir, name, attempt);
		status_var = xasprintf("TUNER_JOB_STATUS=%s", status);
		full[nenv + 1] = status_var;
		if (unlink(status) < 0 && errno != ENOENT) {
			tn_error_errno("cannot remove %s", status);
			goto out;
		}
		out->node[0] = out->state[0] = '\0';
		if (submit(out->job, o, full, cwd, log, script, name, timeout) < 0)
			goto out;
		out->attempts++;
		id = strtoul(out->job, NULL, 10);
		guard_watch_job((unsigned)id);
		log_append(log, "== tuner: submitted slurm job %s\n", out->job);
		if (follow(out, o, status, log, deadline) < 0) {
			guard_unwatch_job((unsigned)id);
			goto out;
		}
		if (out->cancelled || out->timed_out) {
			/* Until it is gone, the guard still cancels it if
			 * tuner dies now. */
			for (int t = 0; t < 20; t++) {
				char s2[24] = "", n2[64] = "", j2[SLURM_JUNK_MAX];
				enum answer q = query(s2, n2, j2, out->job);

				if (q != A_STATE || slurm_state_ended(s2))
					break;
				nap(0.5);
				if (t == 10)
					cancel(out->job, log);
			}
			guard_unwatch_job((unsigned)id);
			out->status = 128 + 9;
			break;
		}
		guard_unwatch_job((unsigned)id);
		/* Finished (COMPLETED, FAILED, or gone from squeue): its
		 * status file, once the shared filesystem shows it. A job
		 * Slurm ended otherwise is lost even with one: the command
		 * killed under it may have left its signal's status. */
		if (!lost_state(out->state)) {
			wait_end = now_seconds() + STATUS_WAIT;
			while ((st = read_status(status)) < 0 && now_seconds() < wait_end &&
			       !tn_cancelled())
				nap(0.2);
		}
		if (st >= 0) {
			out->exited = 1;
			out->exit_code = out->status = st;
			break;
		}
		if (!strcmp(out->state, "TIMEOUT") || !strcmp(out->state, "DEADLINE")) {
			log_append(log, "== tuner: slurm job %s reached its time limit\n", out->job);
			out->timed_out = 1;
			out->status = 128 + 9;
			break;
		}
		{
			char *what = xasprintf("%s ended in %s%s%s without finishing (attempt %u of %u)%s",
					       out->job, out->state[0] ? out->state : "an unknown state",
					       out->node[0] ? " on " : "", out->node, attempt + 1,
					       o->retries + 1, attempt < o->retries ?
					       "; submitting it again" : "; giving up");

			log_append(log, "== tuner: slurm job %s\n", what);
			free(what);
		}
		out->status = 128 + 9;
		/* A node that just failed may take the next job and fail it
		 * too: give the cluster a moment, longer each time. */
		if (attempt < o->retries) {
			double pause = 10 * o->poll * (attempt + 1);

			nap(pause < 60 ? pause : 60);
		}
		if (tn_cancelled()) {
			out->cancelled = 1;
			break;
		}
	}
	ret = 0;
out:
	out->wall = now_seconds() - start;
	free(script);
	free(status);
	free(cmd_var);
	free(status_var);
	free(full);
	return ret;
}
