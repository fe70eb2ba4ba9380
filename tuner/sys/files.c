/* SPDX-License-Identifier: GPL-2.0-or-later */
/* files: whole files read and written, directories made, logs appended (tuner/util.h) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tuner/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int ret = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, 0777) < 0 && errno != EEXIST) {
				ret = tn_error_errno("cannot create directory '%s'", p);
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}

int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int read_file(char **out, size_t *len, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	ssize_t n;
	/* O_NONBLOCK: opening a FIFO with no writer must not wait. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	*out = NULL;
	if (fd < 0)
		return tn_error_errno("cannot open '%s'", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			tn_error("'%s' is a directory, not a file", path);
		else
			tn_error("'%s' is not a regular file (a %s)", path,
				 S_ISFIFO(st.st_mode) ? "FIFO" :
				 S_ISCHR(st.st_mode) ? "character device" :
				 S_ISBLK(st.st_mode) ? "block device" :
				 S_ISSOCK(st.st_mode) ? "socket" : "special file");
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > READ_FILE_MAX) {
		close(fd);
		return tn_error("'%s' is too large (%lld bytes; at most %zu are read)", path,
				(long long)st.st_size, READ_FILE_MAX);
	}
	strbuf_grow(&sb, (size_t)st.st_size);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			tn_error_errno("cannot read '%s'", path);
			close(fd);
			strbuf_release(&sb);
			return -1;
		}
		strbuf_add(&sb, buf, (size_t)n);
		if (sb.len > READ_FILE_MAX) {
			close(fd);
			strbuf_release(&sb);
			return tn_error("'%s' grew past %zu bytes while being read", path,
					READ_FILE_MAX);
		}
	}
	close(fd);
	if (len)
		*len = sb.len;
	*out = strbuf_detach(&sb);
	return 0;
}

void log_append(const char *path, const char *fmt, const char *what)
{
	FILE *f = fopen(path, "a");

	if (!f)
		return;
	fprintf(f, fmt, what);
	fclose(f);
}

int out_of_space(const char *log, const char *dir)
{
	static const char *const signs[] = { "No space left on device", "Disk quota exceeded" };
	char tail[65536 + 1];
	struct statvfs vfs;
	ssize_t n = 0;
	int fd;

	if (log && (fd = open(log, O_RDONLY | O_CLOEXEC)) >= 0) {
		off_t end = lseek(fd, 0, SEEK_END);
		off_t from = end > 65536 ? end - 65536 : 0;

		n = end > 0 ? pread(fd, tail, (size_t)(end - from), from) : 0;
		close(fd);
	}
	tail[n > 0 ? n : 0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(signs); i++)
		if (n > 0 && memmem(tail, (size_t)n, signs[i], strlen(signs[i])))
			return tn_error("'%s' says \"%s\": the disk is full, not the command at "
					"fault", log, signs[i]), 1;
	if (dir && statvfs(dir, &vfs) == 0 &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < ((uint64_t)1 << 20))
		return tn_error("'%s' has %llu bytes left: the disk is full, not the command at "
				"fault", dir, (unsigned long long)vfs.f_bavail * vfs.f_frsize), 1;
	return 0;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	int ret = -1;

	if (fd < 0) {
		tn_error_errno("cannot create '%s'", tmp);
		goto out;
	}
	if (write_all(fd, data, len) < 0) {
		tn_error_errno("cannot write '%s'", tmp);
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		tn_error_errno("cannot write '%s'", path);
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	return ret;
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}
