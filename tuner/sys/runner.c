/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runner: see include/tuner/runner.h */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tuner/runner.h"
#include "tuner/guard.h"
#include "tuner/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define DEFAULT_CAPTURE_MAX ((size_t)1 << 20)
#define DEFAULT_GRACE 2.0
/* Upper bound on one sleep of the wait loop: how late a deadline or a
 * cancellation can be noticed. */
#define TICK_MS 20
/* How long to keep reading after the child is gone: a grandchild that
 * escaped the process group (setsid) may hold the pipe open forever. */
#define DRAIN_SECONDS 0.2

/* Length of the NAME part of "NAME=value" (the whole string if no '='). */
static size_t env_name_len(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq ? (size_t)(eq - s) : strlen(s);
}

static int env_has_name(const char *const *env, const char *s)
{
	size_t n = env_name_len(s);

	for (; env && *env; env++) {
		if (env_name_len(*env) == n && !memcmp(*env, s, n))
			return 1;
	}
	return 0;
}

/*
 * The child's environment: the inherited one (unless clear_env) minus the
 * names opts->env sets, then opts->env, where a later entry wins over an
 * earlier one of the same name. The strings are borrowed; the caller frees
 * only the array.
 */
static char **build_env(const struct runner_opts *opts)
{
	size_t n = 0, len = 0;
	char **envp;

	if (!opts->clear_env) {
		for (char **e = environ; e && *e; e++)
			n++;
	}
	for (const char *const *e = opts->env; e && *e; e++)
		n++;
	envp = xcalloc(n + 2, sizeof(*envp));
	if (!opts->clear_env) {
		for (char **e = environ; e && *e; e++) {
			if (!env_has_name(opts->env, *e))
				envp[len++] = *e;
		}
	}
	for (const char *const *e = opts->env; e && *e; e++) {
		if (!env_has_name(e + 1, *e))
			envp[len++] = (char *)*e;
	}
	/* The guard's mark (guard.h), also under clear_env. An inherited
	 * one (a tuner run by a tuner's command) stays: that guard finds
	 * its mark too. */
	if (guard_env())
		envp[len++] = (char *)guard_env();
	envp[len] = NULL;
	return envp;
}

static int open_log(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		tn_error_errno("cannot open log '%s'", path);
	return fd;
}

/* Our descriptors are all O_CLOEXEC, so a child spawned concurrently by
 * another thread never inherits them; dup2 in the file actions clears the
 * flag on the child's 0/1/2 only. */
static int setup_actions(posix_spawn_file_actions_t *fa,
			 const struct runner_opts *opts, int out_w, int log_fd)
{
	int err;

	err = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (!err && out_w >= 0)
		err = posix_spawn_file_actions_adddup2(fa, out_w, 1);
	else if (!err && log_fd >= 0)
		err = posix_spawn_file_actions_adddup2(fa, log_fd, 1);
	else if (!err)
		err = posix_spawn_file_actions_addopen(fa, 1, "/dev/null", O_WRONLY, 0);
	if (!err && log_fd >= 0)
		err = posix_spawn_file_actions_adddup2(fa, log_fd, 2);
	else if (!err)
		err = posix_spawn_file_actions_addopen(fa, 2, "/dev/null", O_WRONLY, 0);
	if (!err && opts->cwd)
		err = posix_spawn_file_actions_addchdir_np(fa, opts->cwd);
	if (err) {
		errno = err;
		return tn_error_errno("cannot set up child descriptors");
	}
	return 0;
}

static int setup_attr(posix_spawnattr_t *attr)
{
	sigset_t none, all;
	int err;

	sigemptyset(&none);
	/* sigfillset leaves out glibc's internal signals; KILL and STOP cannot
	 * be reset anyway. */
	sigfillset(&all);
	sigdelset(&all, SIGKILL);
	sigdelset(&all, SIGSTOP);
	err = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP |
				       POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (!err)
		err = posix_spawnattr_setpgroup(attr, 0);
	if (!err)
		err = posix_spawnattr_setsigmask(attr, &none);
	if (!err)
		err = posix_spawnattr_setsigdefault(attr, &all);
	if (err) {
		errno = err;
		return tn_error_errno("cannot set up child attributes");
	}
	return 0;
}

int runner_start(struct runner *r, const struct runner_opts *opts)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int fa_ok = 0, attr_ok = 0;
	int pipefd[2] = { -1, -1 };
	int log_fd = -1;
	char **envp = NULL;
	pid_t pid;
	int err, ret = -1;

	*r = (struct runner)RUNNER_INIT;
	if (!opts->argv || !opts->argv[0])
		return tn_error("runner: empty command");
	r->capture_max = opts->capture_max ? opts->capture_max : DEFAULT_CAPTURE_MAX;
	r->grace = opts->grace > 0 ? opts->grace : DEFAULT_GRACE;

	if (opts->log_path) {
		log_fd = open_log(opts->log_path);
		if (log_fd < 0)
			goto out;
	}
	if (opts->capture) {
		if (pipe2(pipefd, O_CLOEXEC) < 0) {
			tn_error_errno("cannot create pipe");
			goto out;
		}
		/* Only our end: the child's stdout stays blocking. */
		if (fcntl(pipefd[0], F_SETFL, O_NONBLOCK) < 0) {
			tn_error_errno("cannot set up pipe");
			goto out;
		}
	}
	err = posix_spawn_file_actions_init(&fa);
	if (err) {
		errno = err;
		tn_error_errno("cannot start '%s'", opts->argv[0]);
		goto out;
	}
	fa_ok = 1;
	err = posix_spawnattr_init(&attr);
	if (err) {
		errno = err;
		tn_error_errno("cannot start '%s'", opts->argv[0]);
		goto out;
	}
	attr_ok = 1;
	if (setup_actions(&fa, opts, pipefd[1], log_fd) < 0 || setup_attr(&attr) < 0)
		goto out;

	envp = build_env(opts);
	r->start = now_seconds();
	err = posix_spawnp(&pid, opts->argv[0], &fa, &attr,
			   (char *const *)opts->argv, envp);
	if (err) {
		errno = err;
		if (opts->cwd)
			tn_error_errno("cannot start '%s' in '%s'", opts->argv[0], opts->cwd);
		else
			tn_error_errno("cannot start '%s'", opts->argv[0]);
		goto out;
	}

	r->pid = pid;
	guard_watch(pid);
	r->deadline = opts->timeout > 0 ? r->start + opts->timeout : 0;
	r->out_fd = pipefd[0];
	pipefd[0] = -1;
	/* The log is only written by us when we copy captured stdout to it. */
	if (opts->capture) {
		r->log_fd = log_fd;
		log_fd = -1;
	}
	ret = 0;
out:
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	if (attr_ok)
		posix_spawnattr_destroy(&attr);
	free(envp);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (log_fd >= 0)
		close(log_fd);
	return ret;
}

/* Writes all of buf to the log. A full disk must not stop the command, so
 * write errors are dropped. */
static void log_copy(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

/*
 * Reads what the pipe has now. Returns 1 at EOF (the descriptor is closed),
 * else 0. Bytes past the cap are still read (so the writer never blocks on
 * a full pipe) and copied to the log, but not kept.
 */
static int read_pipe(struct runner *r, struct strbuf *out)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(r->out_fd, buf, sizeof(buf));
		size_t keep;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n <= 0) {
			/* EOF, or an error no retry will fix. */
			close(r->out_fd);
			r->out_fd = -1;
			return 1;
		}
		keep = r->capture_max - out->len;
		if ((size_t)n < keep)
			keep = (size_t)n;
		if (keep)
			strbuf_add(out, buf, keep);
		if (keep < (size_t)n)
			r->result.out_truncated = 1;
		if (r->log_fd >= 0)
			log_copy(r->log_fd, buf, (size_t)n);
	}
}

/*
 * pidfd_open (Linux 5.3) lets poll() wake up the moment the child exits,
 * so short commands do not pay for a polling interval. Without it we fall
 * back to waking up every few milliseconds.
 */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	long fd = syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -1 : (int)fd;
#else
	return -1;
#endif
}

/* Sleeps until output, the child's exit, or timeout_ms; reads the output. */
static void wait_events(struct runner *r, struct strbuf *out, int pidfd,
			int timeout_ms)
{
	struct pollfd pfd[2];
	nfds_t n = 0;

	if (r->out_fd >= 0) {
		pfd[n].fd = r->out_fd;
		pfd[n].events = POLLIN;
		n++;
	}
	if (pidfd >= 0) {
		pfd[n].fd = pidfd;
		pfd[n].events = POLLIN;
		n++;
	}
	if (poll(pfd, n, timeout_ms) > 0 && r->out_fd >= 0 && pfd[0].revents)
		read_pipe(r, out);
}

/* Has the child exited? Leaves it a zombie, so its pid (= the group id)
 * cannot be reused while we still signal the group. */
static int child_exited(pid_t pid, int *err)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
		if (errno == EINTR)
			return 0;
		*err = errno;
		return 1;
	}
	return si.si_pid == pid;
}

static void fill_status(struct runner_result *res, int status,
			const struct rusage *ru)
{
	if (WIFEXITED(status)) {
		res->exited = 1;
		res->exit_code = WEXITSTATUS(status);
		res->status = res->exit_code;
	} else if (WIFSIGNALED(status)) {
		res->signal = WTERMSIG(status);
		res->status = 128 + res->signal;
	}
	res->user = (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec * 1e-6;
	res->sys = (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec * 1e-6;
	res->maxrss_kb = ru->ru_maxrss;
}

int runner_wait(struct runner *r)
{
	struct strbuf out = STRBUF_INIT;
	struct rusage ru;
	int pidfd, status = 0, err = 0, ret = -1;
	int backoff_ms = 1, killed = 0;
	int capturing = r->out_fd >= 0;
	double drain_end;
	pid_t w;

	if (r->pid <= 0)
		return tn_error("runner: no child to wait for");
	pidfd = open_pidfd(r->pid);

	while (!child_exited(r->pid, &err)) {
		double now = now_seconds();
		int timeout_ms;

		if (!r->kill_at) {
			if (r->deadline && now >= r->deadline)
				r->result.timed_out = 1;
			else if (tn_cancelled())
				r->result.cancelled = 1;
			if (r->result.timed_out || r->result.cancelled) {
				kill(-r->pid, SIGTERM);
				r->kill_at = now + r->grace;
			}
		} else if (!killed && now >= r->kill_at) {
			kill(-r->pid, SIGKILL);
			killed = 1;
		}

		if (pidfd >= 0) {
			timeout_ms = TICK_MS;
		} else {
			timeout_ms = backoff_ms;
			if (backoff_ms < TICK_MS)
				backoff_ms *= 2;
		}
		wait_events(r, &out, pidfd, timeout_ms);
	}
	if (err) {
		errno = err;
		tn_error_errno("cannot wait for process %ld", (long)r->pid);
		goto out;
	}
	r->result.wall = now_seconds() - r->start;

	/* Whatever the command left behind in its group goes with it. */
	kill(-r->pid, SIGKILL);
	do
		w = wait4(r->pid, &status, 0, &ru);
	while (w < 0 && errno == EINTR);
	if (w < 0) {
		tn_error_errno("cannot reap process %ld", (long)r->pid);
		goto out;
	}
	guard_unwatch(r->pid);
	r->pid = -1; /* reaped: nothing left for runner_release to kill */
	fill_status(&r->result, status, &ru);

	drain_end = now_seconds() + DRAIN_SECONDS;
	while (r->out_fd >= 0 && !read_pipe(r, &out)) {
		double left = drain_end - now_seconds();
		struct pollfd pfd = { r->out_fd, POLLIN, 0 };

		if (left <= 0)
			break;
		poll(&pfd, 1, (int)(left * 1000) + 1);
	}
	ret = 0;
out:
	if (pidfd >= 0)
		close(pidfd);
	if (r->out_fd >= 0) {
		close(r->out_fd);
		r->out_fd = -1;
	}
	if (r->log_fd >= 0) {
		close(r->log_fd);
		r->log_fd = -1;
	}
	if (capturing) {
		free(r->result.out);
		r->result.out_len = out.len;
		r->result.out = strbuf_detach(&out);
	}
	return ret;
}

void runner_release(struct runner *r)
{
	if (r->pid > 0) {
		kill(-r->pid, SIGKILL);
		while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
			;
		guard_unwatch(r->pid);
	}
	if (r->out_fd >= 0)
		close(r->out_fd);
	if (r->log_fd >= 0)
		close(r->log_fd);
	free(r->result.out);
	*r = (struct runner)RUNNER_INIT;
}

int runner_run(struct runner *r, const struct runner_opts *opts)
{
	if (runner_start(r, opts) < 0)
		return -1;
	return runner_wait(r);
}

char **env_build(const struct cmd_env *e)
{
	char **env = xcalloc(20, sizeof(*env));
	size_t n = 0;

#define ADD(name, val) \
	do { \
		if (val) \
			env[n++] = xasprintf("TUNER_" name "=%s", (val)); \
	} while (0)
	ADD("FLAGS", e->flags);
	ADD("SRC", e->src);
	ADD("OUT", e->out);
	ADD("PGO", e->pgo);
	ADD("PROFILE_DIR", e->profile_dir);
	ADD("ARTIFACT", e->artifact);
	ADD("TESTBED", e->testbed);
	ADD("CONFIG_ID", e->config_id);
	ADD("CACHE", e->cache);
	ADD("STUDY_DIR", e->study_dir);
	ADD("UARCH", e->uarch);
	ADD("UARCH_PLUGIN", e->uarch_plugin);
#undef ADD
	env[n++] = xasprintf("TUNER_JOBS=%u", e->jobs ? e->jobs : 1);
	env[n++] = xasprintf("TUNER_LAYOUT_SEED=%u", e->layout_seed);
	if (e->run >= 0)
		env[n++] = xasprintf("TUNER_RUN=%ld", e->run);
	env[n] = NULL;
	return env;
}

void env_free(char **env)
{
	if (!env)
		return;
	for (char **p = env; *p; p++)
		free(*p);
	free(env);
}

int run_shell(struct runner *r, const char *command, const char *cwd, char *const *env,
	      const char *log, size_t capture, double timeout)
{
	const char *argv[] = { "/bin/sh", "-c", command, NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;

	o.argv = argv;
	o.cwd = cwd;
	o.env = (const char *const *)env;
	o.log_path = log;
	o.capture = capture > 0;
	o.capture_max = capture;
	o.timeout = timeout;
	return runner_run(r, &o);
}
