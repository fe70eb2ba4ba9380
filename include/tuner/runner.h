/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner: one child process, from start to reaped.
 *
 * Life cycle:  struct runner r = RUNNER_INIT;
 *              runner_start(&r, &opts);  -> 0, or -1 (could not start)
 *              runner_wait(&r);          -> 0 (r.result filled), or -1
 *              runner_release(&r);
 *
 * The child runs in its own process group (posix_spawn with
 * POSIX_SPAWN_SETPGROUP), with default signal dispositions and an empty
 * signal mask. At the deadline the whole group gets SIGTERM, and SIGKILL
 * after a grace period; the group is also SIGKILLed after the child exits,
 * so no grandchild that stayed in the group outlives its command. When
 * tn_cancelled() becomes true the group is killed the same way.
 *
 * Escapes: every command gets an entry of its own in its environment,
 * "TUNER_CMD_<tuner pid>_<n>=1" (guard.h), which its descendants inherit.
 * Once the group is killed, every process still carrying the entry (one
 * that left the group with setsid or setpgid) is SIGKILLed with its group,
 * counted in result.escaped, noted in the log and reported through
 * runner_set_warn(). A descendant that both leaves the group and clears
 * its environment (setsid env -i ...) is not found: the runner's limit
 * (docs/processes.md).
 *
 * Logs: with log_path, the child's stdout and stderr go through pipes
 * that the runner drains to the end, but it writes at most log_max bytes
 * of them to the log, then one line "[tuner: log truncated after N bytes;
 * the command printed M bytes in all]".
 *
 * Commands are argv vectors, never shell text built by us: a shell command
 * of the study runs as {"/bin/sh", "-c", command} with flags and paths
 * passed in the environment.
 */
#ifndef TUNER_RUNNER_H
#define TUNER_RUNNER_H

#include <stddef.h>
#include <sys/types.h>

struct runner_opts {
	const char *const *argv; /* argv[0] is the program (PATH searched) */
	const char *const *env;  /* NULL-terminated "NAME=value" added to (and
	                            overriding) the inherited environment; or NULL */
	int clear_env;           /* start from an empty environment */
	const char *cwd;         /* NULL: inherit */
	const char *log_path;    /* NULL: stderr -> /dev/null; else stdout and
	                            stderr are appended to this file */
	size_t log_max;          /* cap on the bytes written to the log;
	                            0 = RUNNER_LOG_MAX, SIZE_MAX = none */
	int capture;             /* capture stdout into result.out (also copied
	                            to the log when log_path is set) */
	size_t capture_max;      /* cap on captured bytes; 0 = 1 MiB */
	double timeout;          /* seconds; 0 = none */
	double grace;            /* seconds between TERM and KILL; 0 = 2 */
	int unmarked;            /* no mark (guard.h) in its environment: a
	                            client whose work goes on elsewhere under
	                            the same environment (sbatch --export=ALL:
	                            the job, maybe on this machine, must not
	                            look like an escape of the client's); its
	                            group is still killed */
	int uncancellable;       /* runs on after tn_cancelled() (a cleanup:
	                            scancel, and the squeue calls that see
	                            it through); the timeout still holds */
};
#define RUNNER_OPTS_INIT { .argv = NULL, .env = NULL, .clear_env = 0, .cwd = NULL, \
			   .log_path = NULL, .log_max = 0, .capture = 0, .capture_max = 0, \
			   .timeout = 0, .grace = 0, .unmarked = 0, \
			   .uncancellable = 0 }

/* What a command may write to its log by default: a build's log stays
 * readable and a runaway command cannot fill the disk. */
#define RUNNER_LOG_MAX ((size_t)64 << 20)

struct runner_result {
	int exited;       /* exited normally */
	int exit_code;    /* when exited */
	int signal;       /* terminating signal, or 0 */
	int status;       /* exit_code, or 128 + signal */
	int timed_out;    /* killed by the deadline */
	int cancelled;    /* killed because tn_cancelled() */
	double wall;      /* seconds */
	double user, sys; /* CPU seconds of the child (and reaped children) */
	long maxrss_kb;
	char *out;        /* captured stdout, NUL-terminated, or NULL;
	                     owned by the runner, freed by runner_release */
	size_t out_len;
	int out_truncated;
	size_t log_bytes;  /* bytes the command printed to the log, in all */
	int log_truncated; /* log_bytes > log_max: the log holds the first log_max */
	unsigned escaped;  /* processes found outside the group by the mark, killed */
};

struct runner {
	pid_t pid;   /* also the process group id */
	int out_fd;  /* captured stdout (our end), or -1 */
	int err_fd;  /* the log's pipe: stderr, and stdout unless captured; or -1 */
	int log_fd;  /* the log file, or -1 */
	double start, deadline, kill_at;
	size_t capture_max, log_max;
	double grace;
	int uncancellable;
	char log_last;  /* the last byte written to the log */
	char mark[48];  /* "TUNER_CMD_<tuner pid>_<n>=1" */
	char name[72];  /* the command, shortened, for the warning */
	struct runner_result result;
};
#define RUNNER_INIT { .pid = -1, .out_fd = -1, .err_fd = -1, .log_fd = -1, .start = 0, \
		      .deadline = 0, .kill_at = 0, .capture_max = 0, .log_max = 0, .grace = 0, \
		      .uncancellable = 0, .log_last = 0, .mark = "", .name = "", .result = { 0 } }

/* Starts the child. -1 with message if it could not be started (missing
 * program, unopenable log, ...). */
int runner_start(struct runner *r, const struct runner_opts *opts);

/* Waits for the child, enforcing timeout and cancellation, reads captured
 * output, then kills what is left of the process group and reaps the child.
 * Fills r->result. 0, or -1 with message on a system error. */
int runner_wait(struct runner *r);

/* Frees captured output and closes descriptors; kills and reaps the group if
 * runner_wait was never called. */
void runner_release(struct runner *r);

/* Convenience: start + wait. out must be released with runner_release. */
int runner_run(struct runner *r, const struct runner_opts *opts);

/*
 * Where the runner reports what it did beyond a command's result: today,
 * that it killed processes the command had left running outside its
 * process group (result.escaped). fn gets one line without a "tuner: "
 * prefix ("warning: killed 1 process that the command 'CMD' left ...");
 * the line is the runner's, valid during the call only. fn is called on
 * whichever thread waits for the command, so it must be thread-safe.
 * NULL (the default): nothing said. Set it before threads start.
 */
void runner_set_warn(void (*fn)(const char *line));
/* Says line (as runner_set_warn()'s fn gets it: "warning: ...") through
 * that function; nothing without one. For the modules that run commands
 * through the runner (slurm). Thread-safe as fn is. */
void runner_warn(const char *line);

/* ---- study commands: the TUNER_* environment (runner_env.c), /bin/sh ---- */

/*
 * The environment of a study command: a NULL-terminated array of
 * "TUNER_X=value" strings. Fields that are NULL are left out. Caller frees
 * with cmd_env_free().
 */
struct cmd_env {
	const char *flags, *src, *out, *pgo, *profile_dir, *artifact, *testbed,
		*config_id, *cache, *study_dir;
	const char *uarch, *uarch_plugin; /* measure.uarch's machine, plugin */
	unsigned jobs, layout_seed;
	long run; /* -1: unset */
	/* More "NAME=value" strings (a testbed's environment, lab.h), after
	 * tuner's own; NULL-terminated, or NULL: none. Not copied. */
	char *const *extra;
};
char **cmd_env_build(const struct cmd_env *e);
void cmd_env_free(char **env);

/*
 * Runs `/bin/sh -c command` in directory cwd (NULL: the tuner's) with env,
 * appending output to log (NULL: none; at most RUNNER_LOG_MAX bytes),
 * capturing up to capture bytes of stdout (0: none; the rest still goes to
 * the log, and r->result.out_truncated says so). Result in r (release with
 * runner_release). 0, or -1 with message when it could not be started.
 */
int runner_shell(struct runner *r, const char *command, const char *cwd, char *const *env,
		 const char *log, size_t capture, double timeout);

/* What a measure or size command may print (its numbers are read from the
 * whole output, so more is an error, not a prefix to parse), and what a
 * build.applied command may (a kernel's .cmd lines are ~2.5 KB each). */
#define CAPTURE_MEASURE ((size_t)1 << 20)
#define CAPTURE_APPLIED ((size_t)256 << 20)

#endif
