/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tree: directory trees removed, copied and hashed (tuner/util.h) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tuner/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
