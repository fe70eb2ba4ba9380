/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util: see include/tuner/util.h */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tuner/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

static _Thread_local char errbuf[1024];
static _Thread_local enum tn_errkind errkind;

static void set_errv(const char *prefix, const char *fmt, va_list ap, int with_errno)
{
	int saved = errno;
	size_t n = 0;

	errkind = TN_ERR_RUNTIME;
	if (prefix)
		n = (size_t)snprintf(errbuf, sizeof(errbuf), "%s", prefix);
	if (n < sizeof(errbuf))
		n += (size_t)vsnprintf(errbuf + n, sizeof(errbuf) - n, fmt, ap);
	if (with_errno && n < sizeof(errbuf))
		snprintf(errbuf + n, sizeof(errbuf) - n, ": %s", strerror(saved));
}

int tn_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_errv(NULL, fmt, ap, 0);
	va_end(ap);
	return -1;
}

int tn_error_line(const char *parser, size_t no, const char *what, const char *text,
		  size_t len)
{
	char shown[64];
	size_t n = len < 60 ? len : 60;

	for (size_t i = 0; i < n; i++)
		shown[i] = (unsigned char)text[i] < 0x20 || text[i] == 0x7f ? '?' : text[i];
	shown[n] = '\0';
	return tn_error("%s: line %zu: %s: '%s%s'", parser, no, what, shown, len > n ? "..." : "");
}

int tn_error_errno(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_errv(NULL, fmt, ap, 1);
	va_end(ap);
	return -1;
}

static void set_at(const char *file, int line, int col, const char *fmt, va_list ap)
{
	char prefix[512];

	if (line > 0 && col > 0)
		snprintf(prefix, sizeof(prefix), "%s:%d:%d: ", file, line, col);
	else if (line > 0)
		snprintf(prefix, sizeof(prefix), "%s:%d: ", file, line);
	else
		snprintf(prefix, sizeof(prefix), "%s: ", file);
	set_errv(prefix, fmt, ap, 0);
}

int tn_error_at(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_at(file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int tn_input_error_at(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_at(file, line, col, fmt, ap);
	va_end(ap);
	errkind = TN_ERR_INPUT;
	return -1;
}

const char *tn_errmsg(void)
{
	return errbuf;
}

enum tn_errkind tn_errkind(void)
{
	return errkind;
}

int tn_error_set(enum tn_errkind kind, const char *msg)
{
	snprintf(errbuf, sizeof(errbuf), "%s", msg);
	errkind = kind;
	return -1;
}

void tn_error_clear(void)
{
	errbuf[0] = '\0';
	errkind = TN_ERR_RUNTIME;
}

static void *check(void *p)
{
	if (!p) {
		static const char msg[] = "tuner: out of memory\n";
		if (write(2, msg, sizeof(msg) - 1) < 0) {
			/* nothing left to report with */
		}
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		check(NULL);
	return s;
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need > sb->alloc) {
		size_t a = sb->alloc ? sb->alloc : 64;
		while (a < need)
			a *= 2;
		sb->buf = xrealloc(sb->buf, a);
		sb->alloc = a;
	}
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

uint64_t hash64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t hash64_str(uint64_t h, const char *s)
{
	return hash64(h, s, strlen(s) + 1);
}

void hash64_hex(char out[17], uint64_t h)
{
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t splitmix64(uint64_t *x)
{
	return mix64(*x += 0x9e3779b97f4a7c15ULL);
}

int u64set_add(struct u64set *set, uint64_t v)
{
	size_t i;

	if (!v) {
		int was = set->has_zero;

		set->has_zero = 1;
		return !was;
	}
	if (2 * (set->n + 1) > set->cap) {
		struct u64set big = { NULL, 0, set->cap ? 2 * set->cap : 64, set->has_zero };

		big.slot = xcalloc(big.cap, sizeof(*big.slot));
		for (size_t k = 0; k < set->cap; k++)
			if (set->slot[k])
				u64set_add(&big, set->slot[k]);
		free(set->slot);
		*set = big;
	}
	for (i = mix64(v) & (set->cap - 1); set->slot[i]; i = (i + 1) & (set->cap - 1))
		if (set->slot[i] == v)
			return 0;
	set->slot[i] = v;
	set->n++;
	return 1;
}

void u64set_release(struct u64set *set)
{
	free(set->slot);
	*set = (struct u64set)U64SET_INIT;
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* Rejection sampling: drop the values that would bias the modulo. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

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

int remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : tn_error_errno("cannot stat '%s'", path);
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0)
			return tn_error_errno("cannot remove '%s'", path);
		return 0;
	}
	d = opendir(path);
	if (!d)
		return tn_error_errno("cannot open directory '%s'", path);
	while ((e = readdir(d))) {
		char *child;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		child = xasprintf("%s/%s", path, e->d_name);
		if (remove_tree(child) < 0)
			ret = -1;
		free(child);
	}
	closedir(d);
	if (ret == 0 && rmdir(path) < 0)
		ret = tn_error_errno("cannot remove '%s'", path);
	return ret;
}

/* The names in directory path but "." and "..", sorted (scandir()):
 * *out malloced with its entries, free_names(). -1 with message. */
static int sorted_names(struct dirent ***out, const char *path)
{
	int n = scandir(path, out, NULL, alphasort);

	if (n < 0)
		return tn_error_errno("cannot read directory '%s'", path);
	return n;
}

static void free_names(struct dirent **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int dot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
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

/* The target of the link at path, NUL-terminated, into target (size
 * bytes); 0 or -1 with message. */
static int read_link(char *target, size_t size, const char *path)
{
	ssize_t len = readlink(path, target, size - 1);

	if (len < 0)
		return tn_error_errno("cannot read link '%s'", path);
	target[len] = '\0';
	return 0;
}

static int copy_file(const char *from, const char *to, const struct stat *st)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, ret = 0;
	ssize_t n;

	if (in < 0)
		return tn_error_errno("cannot open '%s'", from);
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st->st_mode & 07777);
	if (out < 0) {
		close(in);
		return tn_error_errno("cannot create '%s'", to);
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = tn_error_errno("cannot read '%s'", from);
			break;
		}
		if (write_all(out, buf, (size_t)n) < 0) {
			ret = tn_error_errno("cannot write '%s'", to);
			break;
		}
	}
	close(in);
	if (close(out) < 0 && ret == 0)
		ret = tn_error_errno("cannot write '%s'", to);
	return ret;
}

int copy_tree(const char *from, const char *to)
{
	struct stat st;
	struct dirent **names;
	int n, ret = 0;

	if (lstat(from, &st) < 0)
		return tn_error_errno("cannot stat '%s'", from);
	if (S_ISLNK(st.st_mode)) {
		char target[4096];

		if (read_link(target, sizeof(target), from) < 0)
			return -1;
		if (symlink(target, to) < 0)
			return tn_error_errno("cannot make link '%s'", to);
		return 0;
	}
	if (S_ISREG(st.st_mode))
		ret = copy_file(from, to, &st);
	else if (!S_ISDIR(st.st_mode))
		return tn_error("cannot copy '%s': not a file, directory or link", from);
	else if (mkdir(to, 0700) < 0)
		return tn_error_errno("cannot make directory '%s'", to);
	else if ((n = sorted_names(&names, from)) < 0)
		return -1;
	else {
		for (int i = 0; i < n && ret == 0; i++) {
			char *a, *b;

			if (dot(names[i]->d_name))
				continue;
			a = xasprintf("%s/%s", from, names[i]->d_name);
			b = xasprintf("%s/%s", to, names[i]->d_name);
			ret = copy_tree(a, b);
			free(a);
			free(b);
		}
		free_names(names, n);
		if (ret == 0 && chmod(to, st.st_mode & 07777) < 0)
			ret = tn_error_errno("cannot set the mode of '%s'", to);
	}
	if (ret == 0) {
		struct timespec times[2] = { st.st_atim, st.st_mtim };

		if (utimensat(AT_FDCWD, to, times, 0) < 0)
			ret = tn_error_errno("cannot set the times of '%s'", to);
	}
	return ret;
}

/* Hashes the tree at path, named rel (relative to the top) into *h. */
static int hash_tree(uint64_t *h, const char *path, const char *rel)
{
	struct stat st;
	struct dirent **names;
	int n, ret = 0;

	if (lstat(path, &st) < 0)
		return tn_error_errno("cannot stat '%s'", path);
	*h = hash64_str(*h, rel);
	if (S_ISLNK(st.st_mode)) {
		char target[4096];

		if (read_link(target, sizeof(target), path) < 0)
			return -1;
		*h = hash64_str(hash64_str(*h, "link"), target);
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		char *data;
		size_t len;
		uint64_t size;

		if (read_file(&data, &len, path) < 0)
			return -1;
		size = len;
		*h = hash64(hash64(hash64_str(*h, "file"), &size, sizeof(size)), data, len);
		free(data);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return tn_error("cannot hash '%s': not a file, directory or link", path);
	*h = hash64_str(*h, "dir");
	if ((n = sorted_names(&names, path)) < 0)
		return -1;
	for (int i = 0; i < n && ret == 0; i++) {
		char *p, *r;

		if (dot(names[i]->d_name))
			continue;
		p = xasprintf("%s/%s", path, names[i]->d_name);
		r = *rel ? xasprintf("%s/%s", rel, names[i]->d_name) : xstrdup(names[i]->d_name);
		ret = hash_tree(h, p, r);
		free(p);
		free(r);
	}
	free_names(names, n);
	return ret;
}

int tree_hash(char out[17], const char *path)
{
	uint64_t h = hash64_str(HASH64_INIT, "tuner-tree-1");

	if (hash_tree(&h, path, "") < 0)
		return -1;
	hash64_hex(out, h);
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

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

unsigned cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

/* Lock-free atomic: async-signal-safe and race-free across threads. */
static atomic_int cancel_flag;

void tn_cancel(void)
{
	atomic_store(&cancel_flag, 1);
}

int tn_cancelled(void)
{
	return atomic_load(&cancel_flag) != 0;
}

void tn_cancel_reset(void)
{
	atomic_store(&cancel_flag, 0);
}

int parse_double(double *out, const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int parse_u64(uint64_t *out, const char *s)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

void format_duration(char *buf, size_t len, double seconds)
{
	unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;

	if (s >= 3600)
		snprintf(buf, len, "%luh%02lum", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, len, "%lum%02lus", s / 60, s % 60);
	else
		snprintf(buf, len, "%lus", s);
}

int parse_duration(double *out, const char *s)
{
	double total = 0;
	int any = 0;

	if (!s || !*s)
		return -1;
	while (*s) {
		char *end;
		double v;

		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtod(s, &end);
		if (errno || end == s || !isfinite(v))
			return -1;
		switch (*end) {
		case 'd':
			v *= 86400;
			end++;
			break;
		case 'h':
			v *= 3600;
			end++;
			break;
		case 'm':
			v *= 60;
			end++;
			break;
		case 's':
			end++;
			break;
		case '\0':
			if (any) /* "1h30" is ambiguous */
				return -1;
			break;
		default:
			return -1;
		}
		total += v;
		any = 1;
		s = end;
	}
	*out = total;
	return 0;
}
