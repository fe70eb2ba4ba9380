/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runner: see include/tuner/runner.h (the environments: runner_env.c) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "runner_priv.h"
#include "tuner/guard.h"
#include "tuner/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_CAPTURE_MAX ((size_t)1 << 20)
#define DEFAULT_GRACE 2.0
/* Upper bound on one sleep of the wait loop: how late a deadline or a
 * cancellation can be noticed. */
#define TICK_MS 20
/* How long to keep reading after the child is gone: a grandchild that
 * escaped the process group (setsid) may hold the pipe open forever. */
#define DRAIN_SECONDS 0.2
/* The pipes' buffer (the default is 64 KiB). */
#define PIPE_SIZE (1 << 20)

/* The number in each command's mark (guard.h): unique within this tuner. */
static atomic_uint mark_seq;
/* runner_set_warn(); set before threads start, read after. */
static void (*warn_fn)(const char *line);

void runner_set_warn(void (*fn)(const char *line))
{
	warn_fn = fn;
}

void runner_warn(const char *line)
{
	if (warn_fn)
		warn_fn(line);
}

static int open_log(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0)
		tn_error_errno("cannot open log '%s'", path);
	return fd;
}

/* A pipe whose read end (ours, fds[0]) does not block; the child's end
 * stays blocking. Both close-on-exec. 0, or -1 with message. */
static int open_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return tn_error_errno("cannot create pipe");
	if (fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0)
		return tn_error_errno("cannot set up pipe");
	/* Fewer wake-ups for a chatty command (1.5 GB: 3.0 s, not 4.3 s);
	 * the size is a wish (fs.pipe-max-size), never an error. */
	fcntl(fds[0], F_SETPIPE_SZ, PIPE_SIZE);
	return 0;
}

/* Our descriptors are all O_CLOEXEC, so a child spawned concurrently by
 * another thread never inherits them; dup2 in the file actions clears the
 * flag on the child's 0/1/2 only. out_w: the capture pipe, err_w: the
 * log's (or -1). The log file itself is never the child's. */
static int setup_actions(posix_spawn_file_actions_t *fa,
			 const struct runner_opts *opts, int out_w, int err_w)
{
	int err;

	err = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (!err && out_w >= 0)
		err = posix_spawn_file_actions_adddup2(fa, out_w, 1);
	else if (!err && err_w >= 0)
		err = posix_spawn_file_actions_adddup2(fa, err_w, 1);
	else if (!err)
		err = posix_spawn_file_actions_addopen(fa, 1, "/dev/null", O_WRONLY, 0);
	if (!err && err_w >= 0)
		err = posix_spawn_file_actions_adddup2(fa, err_w, 2);
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

/*
 * The command as the warning names it: a shell command's text (argv[2] of
 * sh -c), else the program; its first line, printable, shortened.
 */
static void set_name(struct runner *r, const char *const *argv)
{
	const char *s = argv[0];
	size_t len, max = sizeof(r->name) - 4;

	if (argv[1] && !strcmp(argv[1], "-c") && argv[2])
		s = argv[2];
	len = strcspn(s, "\n");
	if (len > max)
		len = max;
	memcpy(r->name, s, len);
	if (len < strlen(s)) {
		memcpy(r->name + len, "...", 3);
		len += 3;
	}
	r->name[len] = '\0';
	for (char *p = r->name; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
}

int runner_start(struct runner *r, const struct runner_opts *opts)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int fa_ok = 0, attr_ok = 0;
	int pipefd[2] = { -1, -1 }, errfd[2] = { -1, -1 };
	int log_fd = -1;
	char **envp = NULL;
	pid_t pid;
	int err, ret = -1;

	*r = (struct runner)RUNNER_INIT;
	if (!opts->argv || !opts->argv[0])
		return tn_error("runner: empty command");
	r->capture_max = opts->capture_max ? opts->capture_max : DEFAULT_CAPTURE_MAX;
	r->log_max = opts->log_max ? opts->log_max : RUNNER_LOG_MAX;
	r->grace = opts->grace > 0 ? opts->grace : DEFAULT_GRACE;
	r->uncancellable = opts->uncancellable;
	r->log_last = '\n';
	if (!opts->unmarked)
		snprintf(r->mark, sizeof(r->mark), GUARD_MARK "%ld_%u=1", (long)getpid(),
			 atomic_fetch_add(&mark_seq, 1) + 1);
	set_name(r, opts->argv);

	/* What goes to the log goes through us, so that we can cap it. */
	if (opts->log_path) {
		log_fd = open_log(opts->log_path);
		if (log_fd < 0 || open_pipe(errfd) < 0)
			goto out;
	}
	if (opts->capture && open_pipe(pipefd) < 0)
		goto out;
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
	if (setup_actions(&fa, opts, pipefd[1], errfd[1]) < 0 || setup_attr(&attr) < 0)
		goto out;

	envp = runner_child_env(opts, r->mark);
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
	r->err_fd = errfd[0];
	errfd[0] = -1;
	r->log_fd = log_fd;
	log_fd = -1;
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
	for (int i = 0; i < 2; i++)
		if (errfd[i] >= 0)
			close(errfd[i]);
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

/* Copies buf to the log, up to log_max bytes in all; counts the rest. */
static void to_log(struct runner *r, const char *buf, size_t len)
{
	size_t room = r->log_max - (r->result.log_bytes < r->log_max ?
				    r->result.log_bytes : r->log_max);

	r->result.log_bytes += len;
	if (len > room) {
		r->result.log_truncated = 1;
		len = room;
	}
	if (len) {
		log_copy(r->log_fd, buf, len);
		r->log_last = buf[len - 1];
	}
}

/*
 * Reads what *fd (the capture pipe when out is not NULL, else the log's)
 * has now. Returns 1 at EOF (the descriptor is closed and *fd -1), else 0.
 * Bytes past the caps are still read (so the writer never blocks on a full
 * pipe), counted, but neither kept nor logged. Captured bytes are copied
 * to the log too.
 */
static int read_fd(struct runner *r, int *fd, struct strbuf *out)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(*fd, buf, sizeof(buf));
		size_t keep;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n <= 0) {
			/* EOF, or an error no retry will fix. */
			close(*fd);
			*fd = -1;
			return 1;
		}
		if (out) {
			keep = r->capture_max - out->len;
			if ((size_t)n < keep)
				keep = (size_t)n;
			if (keep)
				strbuf_add(out, buf, keep);
			if (keep < (size_t)n)
				r->result.out_truncated = 1;
		}
		if (r->log_fd >= 0)
			to_log(r, buf, (size_t)n);
	}
}

/* Reads both pipes; 1 when both are closed. */
static int read_pipes(struct runner *r, struct strbuf *out)
{
	if (r->out_fd >= 0)
		read_fd(r, &r->out_fd, out);
	if (r->err_fd >= 0)
		read_fd(r, &r->err_fd, NULL);
	return r->out_fd < 0 && r->err_fd < 0;
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

/* Sleeps until output, the child's exit (pidfd, or -1), or timeout_ms;
 * reads the output. */
static void wait_events(struct runner *r, struct strbuf *out, int pidfd,
			int timeout_ms)
{
	struct pollfd pfd[3];
	int fds[3] = { r->out_fd, r->err_fd, pidfd };
	nfds_t n = 0;

	for (int i = 0; i < 3; i++) {
		if (fds[i] < 0)
			continue;
		pfd[n].fd = fds[i];
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		n++;
	}
	if (poll(pfd, n, timeout_ms) > 0)
		read_pipes(r, out);
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

/* The log's last lines, and the warning: what the runner cut and killed. */
static void log_notes(struct runner *r)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned n = r->result.escaped;

	if (r->log_fd >= 0 && r->result.log_truncated) {
		if (r->log_last != '\n')
			strbuf_addch(&sb, '\n');
		strbuf_addf(&sb, "[tuner: log truncated after %zu bytes; the command printed %zu bytes in all]\n",
			    r->log_max, r->result.log_bytes);
	}
	if (r->log_fd >= 0 && n)
		strbuf_addf(&sb, "[tuner: killed %u process%s the command left running outside its process group]\n",
			    n, n == 1 ? "" : "es");
	if (sb.len)
		log_copy(r->log_fd, sb.buf, sb.len);
	if (n && warn_fn) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "warning: killed %u process%s that the command '%s' left running outside its process group (setsid)",
			    n, n == 1 ? "" : "es", r->name);
		warn_fn(sb.buf);
	}
	strbuf_release(&sb);
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
			else if (!r->uncancellable && tn_cancelled())
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

	/* Whatever the command left behind in its group goes with it, and
	 * what left the group carrying its mark; the child, not yet reaped,
	 * keeps the group's id from being reused meanwhile. */
	kill(-r->pid, SIGKILL);
	r->result.escaped = r->mark[0] ? guard_kill_marked(r->mark, r->pid) : 0;
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
	while (!read_pipes(r, &out)) {
		double left = drain_end - now_seconds();

		if (left <= 0)
			break;
		wait_events(r, &out, -1, (int)(left * 1000) + 1);
	}
	log_notes(r);
	ret = 0;
out:
	if (pidfd >= 0)
		close(pidfd);
	if (r->out_fd >= 0) {
		close(r->out_fd);
		r->out_fd = -1;
	}
	if (r->err_fd >= 0) {
		close(r->err_fd);
		r->err_fd = -1;
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
		if (r->mark[0])
			guard_kill_marked(r->mark, r->pid);
		while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR)
			;
		guard_unwatch(r->pid);
	}
	if (r->out_fd >= 0)
		close(r->out_fd);
	if (r->err_fd >= 0)
		close(r->err_fd);
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

int runner_shell(struct runner *r, const char *command, const char *cwd, char *const *env,
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
