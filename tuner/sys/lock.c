/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock: one writer per directory, by flock (tuner/util.h) */
#include "tuner/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int dir_lock(int *fd, const char *dir)
{
	char *path = xasprintf("%s/lock", dir);
	char pid[32];
	int ret = -1;
	int n;

	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (*fd < 0) {
		tn_error_errno("cannot open '%s'", path);
		goto out;
	}
	if (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
		int saved = errno;
		ssize_t got = pread(*fd, pid, sizeof(pid) - 1, 0);

		pid[got > 0 ? got : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		if (saved == EWOULDBLOCK)
			tn_error("'%s' is in use by another tuner (pid %s): one run at a time may "
				 "write a results directory; wait for it, or stop it", dir,
				 *pid ? pid : "unknown");
		else
			tn_error("cannot lock '%s': %s", path, strerror(saved));
		close(*fd);
		*fd = -1;
		goto out;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(*fd, 0) < 0 || pwrite(*fd, pid, (size_t)n, 0) != n) {
		tn_error_errno("cannot write '%s'", path);
		close(*fd);
		*fd = -1;
		goto out;
	}
	ret = 0;
out:
	free(path);
	return ret;
}
