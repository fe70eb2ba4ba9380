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
#include <unistd.h>

#include "tuner/util.h"

/* One message: fits in PIPE_BUF, so concurrent writes never interleave. */
struct msg {
	char op; /* 'w' watch, 'u' unwatch, 's' stop */
	pid_t pgid;
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

/* 1 if the environment of process pid holds the entry `want`. */
static int marked(const char *pid, const char *want)
{
	char path[300], *buf = NULL;
	size_t len = 0, alloc = 0, wl = strlen(want);
	ssize_t r;
	int fd, found = 0;

	snprintf(path, sizeof(path), "/proc/%s/environ", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (;;) {
		ALLOC_GROW(buf, len + 4096 + 1, alloc);
		r = read(fd, buf + len, 4096);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	/* Entries are NUL-separated. */
	for (size_t i = 0; i < len && !found; i += strnlen(buf + i, len - i) + 1)
		found = len - i > wl && !memcmp(buf + i, want, wl) && buf[i + wl] == '\0';
	free(buf);
	return found;
}

/*
 * Kills the group of every process whose environment carries this
 * guard's mark (guard_env()): a command the runner had started but not
 * yet told the guard of when tuner died. Its group goes with it, so what
 * it started under a cleared environment goes too.
 */
static void kill_marked(void)
{
	char want[40];
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid(), own = getpgrp();

	if (!d)
		return;
	snprintf(want, sizeof(want), "TUNER_GUARD=%d", (int)self);
	while ((e = readdir(d))) {
		pid_t pid, pg;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		pid = (pid_t)atoi(e->d_name);
		if (pid == self || !marked(e->d_name, want))
			continue;
		pg = getpgid(pid);
		if (pg > 0 && pg != own)
			kill(-pg, SIGKILL);
	}
	closedir(d);
}

/* The guard process: keeps the set of live groups until told to stop, or
 * until the pipe closes without a stop, when it kills them all, and any
 * group of a command started but not yet watched. */
static void __attribute__((noreturn)) guard_main(int fd)
{
	pid_t *groups = NULL;
	size_t n = 0, alloc = 0;
	struct msg m;
	ssize_t r;
	int stopped = 0;

	/* Ctrl-C reaches the whole foreground group: the guard must outlive it
	 * to do its job if tuner dies. */
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
			for (size_t i = 0; i < n; i++)
				if (groups[i] == m.pgid) {
					groups[i] = groups[--n];
					break;
				}
		}
	}
	if (!stopped) {
		for (size_t i = 0; i < n; i++)
			kill(-groups[i], SIGKILL);
		kill_marked();
	}
	_exit(0);
}

int guard_start(void)
{
	int fds[2];
	pid_t pid;

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
		/* Holding tuner's stdout open would keep a reader of it waiting. */
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		guard_main(fds[0]);
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
