/* SPDX-License-Identifier: GPL-2.0-or-later */
/* files: whole files read and written, directories made, logs appended (tuner/util.h) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tuner/util.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
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

/* The first of signs (NULL-terminated) that the last 64 KiB of the log
 * at path (NULL: none) say, or NULL. */
static const char *log_says(const char *path, const char *const *signs)
{
	static const size_t max = 65536;
	char *tail;
	ssize_t n;
	off_t end, from;
	const char *found = NULL;
	int fd;

	if (!path || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	tail = xmalloc(max);
	end = lseek(fd, 0, SEEK_END);
	from = end > (off_t)max ? end - (off_t)max : 0;
	n = end > 0 ? pread(fd, tail, (size_t)(end - from), from) : 0;
	close(fd);
	for (size_t i = 0; n > 0 && signs[i] && !found; i++)
		if (memmem(tail, (size_t)n, signs[i], strlen(signs[i])))
			found = signs[i];
	free(tail);
	return found;
}

int out_of_space(const char *log, const char *dir)
{
	static const char *const signs[] = { "No space left on device", "Disk quota exceeded",
					     NULL };
	struct statvfs vfs;
	const char *sign = log_says(log, signs);

	if (sign)
		return tn_error("'%s' says \"%s\": the disk is full, not the command at "
				"fault", log, sign), 1;
	if (dir && statvfs(dir, &vfs) == 0 &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < ((uint64_t)1 << 20))
		return tn_error("'%s' has %llu bytes left: the disk is full, not the command at "
				"fault", dir, (unsigned long long)vfs.f_bavail * vfs.f_frsize), 1;
	return 0;
}

int over_file_size_limit(const char *log, int status)
{
	/* SIGXFSZ's name, as make and gcc say a child died of it; EFBIG's,
	 * from a writer that ignores the signal. */
	static const char *const signs[] = { "File size limit exceeded", "File too large", NULL };
	unsigned long long limit = file_size_limit();
	const char *sign;

	if (!limit)
		return 0;
	if (status == 128 + SIGXFSZ)
		return tn_error("the command was killed by SIGXFSZ (status %d) under tuner's file "
				"size limit (ulimit -f: %llu bytes): the limit, not the command "
				"at fault", status, limit), 1;
	sign = log_says(log, signs);
	if (sign)
		return tn_error("'%s' says \"%s\" under tuner's file size limit (ulimit -f: %llu "
				"bytes): the limit, not the command at fault", log, sign,
				limit), 1;
	return 0;
}

int path_within(const char *dir, const char *path, char **where)
{
	char *d = realpath(dir, NULL), *p = d ? realpath(path, NULL) : NULL;
	int ret = -1;

	if (where)
		*where = NULL;
	if (p) {
		size_t n = strlen(d);

		ret = !strncmp(p, d, n) && (p[n] == '/' || (n == 1 && d[0] == '/'));
		if (!ret && where) {
			*where = p;
			p = NULL;
		}
	}
	free(d);
	free(p);
	return ret;
}

static atomic_uint tmp_seq;

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "directory" : S_ISFIFO(m) ? "FIFO" :
	       S_ISCHR(m) ? "character device" : S_ISBLK(m) ? "block device" :
	       S_ISSOCK(m) ? "socket" : S_ISLNK(m) ? "symbolic link" : "special file";
}

/* Writes data through fd, which tuner did not create (stdout, a FIFO, a
 * terminal, /dev/null): nothing is replaced. */
static int write_through(int fd, const char *path, const void *data, size_t len)
{
	if (write_all(fd, data, len) < 0)
		return tn_error_errno("cannot write '%s'", path);
	return 0;
}

/* How long a FIFO may go without a reader: as a shell's "> FIFO" would
 * wait, but not for ever. */
#define FIFO_WAIT_MS 5000

/* Opens the FIFO or character device at path for writing, waiting at
 * most FIFO_WAIT_MS for a FIFO's reader, never making it a controlling
 * terminal. */
static int write_special(const char *path, const void *data, size_t len)
{
	int fd, ret, flags;

	for (int waited = 0;; waited += 20) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 || errno != ENXIO || waited >= FIFO_WAIT_MS)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000000L }, NULL);
	}
	if (fd < 0)
		return tn_error_errno(errno == ENXIO ? "cannot write '%s' (a FIFO that "
				      "nobody read within 5 s)" : "cannot open '%s'", path);
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	ret = write_through(fd, path, data, len);
	if (close(fd) < 0 && !ret)
		ret = tn_error_errno("cannot write '%s'", path);
	return ret;
}

/* The descriptor that path names as a stream of this process ("-",
 * /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), or -1. */
static int stream_fd(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	uint64_t n;

	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		size_t k = strlen(dirs[i]);

		if (!strncmp(path, dirs[i], k) && parse_u64(&n, path + k) == 0 && n <= 1024 &&
		    fcntl((int)n, F_GETFD) >= 0)
			return (int)n;
	}
	return -1;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct stat st, target;
	char *tmp;
	int fd, ret = -1;

	/* Standard output and its kin are written where they lead, as a
	 * shell's redirection would be: never replaced by a file. */
	fd = stream_fd(path);
	if (fd >= 0)
		return write_through(fd, strcmp(path, "-") ? path : "standard output",
				     data, len);
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A link is followed only to a FIFO or a character device
		 * (/dev/stdout is a link to /proc/self/fd/1): a link to a
		 * file or a directory is never replaced nor written through,
		 * for it may lead anywhere. */
		if (S_ISLNK(st.st_mode)) {
			if (stat(path, &target) < 0 ||
			    !(S_ISFIFO(target.st_mode) || S_ISCHR(target.st_mode)))
				return tn_error("'%s' is a symbolic link: tuner writes a "
						"file by name only where it is a regular "
						"file or absent (remove the link, or name "
						"its target)", path);
			return write_special(path, data, len);
		}
		if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
			return write_special(path, data, len);
		return tn_error("'%s' is a %s, not a regular file: tuner does not "
				"replace it", path, file_kind(st.st_mode));
	}
	/* The temporary file is new (O_EXCL, O_NOFOLLOW), so nothing
	 * planted under its name is followed; the umask applies. */
	for (int n = 0; ; n++) {
		tmp = xasprintf("%s.tmp.%ld.%u", path, (long)getpid(),
				(unsigned)atomic_fetch_add(&tmp_seq, 1));
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST || n == 100)
			break;
		free(tmp);
	}
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
