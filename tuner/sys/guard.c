/* SPDX-License-Identifier: GPL-2.0-or-later */
/* guard: see include/tuner/guard.h */
#include "tuner/guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tuner/util.h"

/* One message: fits in PIPE_BUF, so concurrent writes never interleave. */
struct msg {
	char op; /* 'w' watch, 'u' unwatch, 'j' watch job, 'k' unwatch job,
	            's' stop */
	pid_t pgid; /* or a Slurm job id */
};

static int guard_fd = -1;
static pid_t guard_pid = -1;
static char guard_token[40]; /* "TUNER_GUARD=<the guard's pid>" */

static void send_msg(char op, pid_t pgid)
{
	struct msg m;

	if (guard_fd < 0)
		return;
	memset(&m, 0, sizeof(m));
	m.op = op;
	m.pgid = pgid;
	while (write(guard_fd, &m, sizeof(m)) < 0 && errno == EINTR)
		;
}

void guard_watch(pid_t pgid)
{
	send_msg('w', pgid);
}

void guard_unwatch(pid_t pgid)
{
	send_msg('u', pgid);
}

void guard_watch_job(unsigned job)
{
	send_msg('j', (pid_t)job);
}

void guard_unwatch_job(unsigned job)
{
	send_msg('k', (pid_t)job);
}

/* Seconds the guard gives scancel before it kills it. */
#define SCANCEL_WAIT 30

/* Removes one v from the unordered set[0..*n) (the last takes its place). */
static void drop(pid_t *set, size_t *n, pid_t v)
{
	for (size_t i = 0; i < *n; i++)
		if (set[i] == v) {
			set[i] = set[--*n];
			return;
		}
}

/* `scancel ID...` of the jobs still watched, waited for (at most
 * SCANCEL_WAIT seconds); in the guard, after tuner died. */
static void cancel_jobs(const pid_t *jobs, size_t n)
{
	char **argv, (*ids)[16];
	pid_t pid;

	if (!n)
		return;
	argv = xcalloc(n + 2, sizeof(*argv));
	ids = xcalloc(n, sizeof(*ids));
	argv[0] = (char *)"scancel";
	for (size_t i = 0; i < n; i++) {
		snprintf(ids[i], sizeof(ids[i]), "%u", (unsigned)jobs[i]);
		argv[i + 1] = ids[i];
	}
	pid = fork();
	if (pid == 0) {
		/* Ignored by tuner (main.c), inherited through fork and exec. */
		signal(SIGXFSZ, SIG_DFL);
		execvp(argv[0], argv);
		_exit(127);
	}
	for (int t = 0; pid > 0 && t < SCANCEL_WAIT * 10; t++) {
		struct timespec pause = { 0, 100000000L };

		if (waitpid(pid, NULL, WNOHANG) == pid) {
			pid = 0;
			break;
		}
		nanosleep(&pause, NULL);
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	free(ids);
	free(argv);
}

/* Scans of /proc: new processes may appear while we kill (a marked one
 * forking on), so scan again while a scan finds new ones, this often. */
#define KILL_ROUNDS 8
/* A process in the middle of an exec shows no environment for a moment:
 * look at it again this often, this many milliseconds apart. */
#define UNSURE_TRIES 10
#define UNSURE_MS 2
/* include/linux/sched.h */
#define PF_KTHREAD 0x00200000

enum mark { NOT_MARKED, MARKED, UNSURE };

/* /proc/PID/WHAT into buf; -1 if it cannot be opened. */
static int read_proc(struct strbuf *buf, pid_t pid, const char *what)
{
	char path[64], chunk[4096];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/%s", (long)pid, what);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	strbuf_reset(buf);
	for (;;) {
		r = read(fd, chunk, sizeof(chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		strbuf_add(buf, chunk, (size_t)r);
	}
	close(fd);
	return 0;
}

/* 1 if the NUL-separated entries in buf hold one starting with prefix. */
static int has_entry(const struct strbuf *buf, const char *prefix)
{
	size_t pl = strlen(prefix);

	for (size_t i = 0; i < buf->len; i += strnlen(buf->buf + i, buf->len - i) + 1)
		if (buf->len - i >= pl && !memcmp(buf->buf + i, prefix, pl))
			return 1;
	return 0;
}

/*
 * Whether the environment of process pid holds an entry starting with
 * prefix. An empty one is a kernel thread's, a zombie's, a process's that
 * cleared it, or one's in the middle of an exec: the kernel has swapped in
 * the new memory but not yet written the new environment nor the command
 * line (UNSURE: look again), or has just dropped the old memory we were
 * reading (read again, now the new). buf is the caller's, reused.
 */
static enum mark marked(struct strbuf *buf, pid_t pid, const char *prefix)
{
	unsigned flags = 0;
	char state = 0;
	const char *p;

	if (read_proc(buf, pid, "environ") < 0)
		return NOT_MARKED;
	if (buf->len)
		return has_entry(buf, prefix) ? MARKED : NOT_MARKED;
	if (read_proc(buf, pid, "stat") < 0)
		return NOT_MARKED;
	/* "pid (comm) state ppid pgrp session tty tpgid flags ...": comm
	 * may hold anything, ')' too. */
	p = strrchr(strbuf_str(buf), ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2 ||
	    state == 'Z' || state == 'X' || (flags & PF_KTHREAD))
		return NOT_MARKED;
	if (read_proc(buf, pid, "cmdline") < 0)
		return NOT_MARKED;
	if (!buf->len)
		return UNSURE;
	/* The command line is there, so is the environment, if any. */
	if (read_proc(buf, pid, "environ") < 0)
		return NOT_MARKED;
	return has_entry(buf, prefix) ? MARKED : NOT_MARKED;
}

struct scan {
	const char *prefix;
	pid_t spare, self, own;
	struct strbuf buf;
	pid_t *seen;   /* killed */
	size_t nseen, seen_alloc;
	pid_t *unsure; /* to look at again */
	size_t nunsure, unsure_alloc;
};

static int seen_before(const struct scan *s, pid_t pid)
{
	for (size_t i = 0; i < s->nseen; i++)
		if (s->seen[i] == pid)
			return 1;
	return 0;
}

/* Looks at process pid, kills it (and its group) if marked. 1 if it was
 * marked and not killed before. */
static int visit(struct scan *s, pid_t pid)
{
	enum mark m;
	pid_t pg;

	if (pid == s->self)
		return 0;
	m = marked(&s->buf, pid, s->prefix);
	if (m == UNSURE) {
		ALLOC_GROW(s->unsure, s->nunsure + 1, s->unsure_alloc);
		s->unsure[s->nunsure++] = pid;
	}
	if (m != MARKED)
		return 0;
	pg = getpgid(pid);
	if (pg < 0 || (s->spare > 0 && pg == s->spare))
		return 0;
	if (pg > 1 && pg != s->own)
		kill(-pg, SIGKILL);
	kill(pid, SIGKILL);
	if (seen_before(s, pid))
		return 0;
	ALLOC_GROW(s->seen, s->nseen + 1, s->seen_alloc);
	s->seen[s->nseen++] = pid;
	return 1;
}

/* Looks again at the processes that were in the middle of an exec, until
 * none is; 1 if one of them was marked. */
static int revisit(struct scan *s)
{
	struct timespec pause = { 0, UNSURE_MS * 1000000L };
	int fresh = 0;

	for (int t = 0; t < UNSURE_TRIES && s->nunsure; t++) {
		size_t n = s->nunsure;

		nanosleep(&pause, NULL);
		for (size_t i = 0; i < n; i++)
			fresh |= visit(s, s->unsure[i]);
		/* Keep those still unsure: visit() added them after the n. */
		memmove(s->unsure, s->unsure + n, (s->nunsure - n) * sizeof(*s->unsure));
		s->nunsure -= n;
	}
	return fresh;
}

unsigned guard_kill_marked(const char *prefix, pid_t spare)
{
	struct scan s = { .prefix = prefix, .spare = spare, .self = getpid(),
			  .own = getpgrp(), .buf = STRBUF_INIT };
	int fresh = 1;

	for (int round = 0; round < KILL_ROUNDS && fresh; round++) {
		DIR *d = opendir("/proc");
		struct dirent *e;

		fresh = 0;
		if (!d)
			break;
		s.nunsure = 0;
		while ((e = readdir(d)))
			if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
				fresh |= visit(&s, (pid_t)atoi(e->d_name));
		closedir(d);
		fresh |= revisit(&s);
	}
	strbuf_release(&s.buf);
	free(s.seen);
	free(s.unsure);
	return (unsigned)s.nseen;
}

/* The guard process: keeps the set of live groups until told to stop, or
 * until the pipe closes without a stop, when it kills them all, and every
 * process marked as one of tuner's commands: a command started but not
 * yet watched, and whatever left a command's group. */
static void __attribute__((noreturn)) guard_main(int fd, pid_t tuner, pid_t tuner_pg)
{
	pid_t *groups = NULL, *jobs = NULL;
	size_t n = 0, alloc = 0, njobs = 0, jobs_alloc = 0;
	struct msg m;
	ssize_t r;
	int stopped = 0;

	/* In a session of its own, no terminal sends it these; a stray one
	 * must not end the guard either. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	for (;;) {
		r = read(fd, &m, sizeof(m));
		if (r < 0 && errno == EINTR)
			continue;
		if (r != (ssize_t)sizeof(m))
			break;
		if (m.op == 's') {
			stopped = 1;
		} else if (m.op == 'w') {
			ALLOC_GROW(groups, n + 1, alloc);
			groups[n++] = m.pgid;
		} else if (m.op == 'u') {
			drop(groups, &n, m.pgid);
		} else if (m.op == 'j') {
			ALLOC_GROW(jobs, njobs + 1, jobs_alloc);
			jobs[njobs++] = m.pgid;
		} else if (m.op == 'k') {
			drop(jobs, &njobs, m.pgid);
		}
	}
	if (!stopped) {
		char prefix[40];

		for (size_t i = 0; i < n; i++)
			kill(-groups[i], SIGKILL);
		snprintf(prefix, sizeof(prefix), GUARD_MARK "%d_", (int)tuner);
		/* Tuner's own group holds what started tuner (a pipeline's
		 * other end): never the guard's to kill. */
		guard_kill_marked(prefix, tuner_pg);
		/* After the kills: no sbatch of tuner's can submit one more. */
		cancel_jobs(jobs, njobs);
	}
	_exit(0);
}

int guard_start(void)
{
	int fds[2];
	pid_t pid, tuner = getpid(), tuner_pg = getpgrp();

	if (guard_pid > 0)
		return 0;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return tn_error_errno("cannot create the guard's pipe");
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return tn_error_errno("cannot start the guard process");
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		close(fds[1]);
		/* Out of tuner's group and session: what kills that group
		 * (kill -KILL -- -PGID, a terminal's Ctrl-C or hangup) leaves
		 * the guard to clean up after it. */
		setsid();
		/* Holding tuner's stdout open would keep a reader of it waiting. */
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		guard_main(fds[0], tuner, tuner_pg);
	}
	close(fds[0]);
	guard_fd = fds[1];
	guard_pid = pid;
	snprintf(guard_token, sizeof(guard_token), "TUNER_GUARD=%d", (int)pid);
	return 0;
}

const char *guard_env(void)
{
	return guard_pid > 0 ? guard_token : NULL;
}

void guard_stop(void)
{
	if (guard_pid <= 0)
		return;
	send_msg('s', 0);
	close(guard_fd);
	guard_fd = -1;
	while (waitpid(guard_pid, NULL, 0) < 0 && errno == EINTR)
		;
	guard_pid = -1;
}
