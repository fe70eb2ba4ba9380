/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gcda-summary: gives the kernel's .gcda files the object summary GCC needs
 * before -fprofile-use reads them.
 *
 *   gcda-summary [--runs N] DIR
 *
 * Why: Linux (kernel/gcov/gcc_4_7.c, convert_to_gcda, up to 6.1 at least)
 * writes its debugfs .gcda files as magic, version, stamp, checksum, then
 * the functions and their counters, with no GCOV_TAG_OBJECT_SUMMARY record.
 * GCC 12 only sets its profile_info from that record, and without it a
 * -fprofile-use compile reads the counters and ignores them: no warning, not
 * even -Wmissing-profile, and an object byte for byte the same as with no
 * profile at all (checked on net/core/dev.c, targets/qemu-linux/README.md).
 *
 * This tool reads every *.gcda under DIR (recursively), takes the largest
 * arc counter over all of them (the program's, as libgcov computes sum_max
 * over one run of a whole program), and rewrites each file with a summary
 * {runs = N (default 1: one training run), sum_max = that counter, capped at
 * 2^32-1} right after the header, as libgcov writes it, replacing a summary
 * already there. Everything else is copied unchanged. A file is replaced
 * atomically (written beside it, then renamed).
 *
 * Format (gcc/gcov-io.h, GCC 12 and later: lengths in bytes, a checksum
 * word in the header): 32-bit words in the writer's byte order, told by the
 * magic "gcda"; records are tag, length, payload; a counter record holds
 * 64-bit values as low word, high word, and a negative length means "that
 * many bytes of counters, all zero" (libgcov's shorthand, never the
 * kernel's); a zero tag ends the records. Older formats (GCC < 12) are
 * refused.
 *
 * Prints one line on stdout: files, how many lacked a summary, the maximum.
 * Exit status 0, or 1 with FILE: offset N: reason on stderr (nothing is
 * rewritten unless every file parses), 2 for bad usage.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GCDA_MAGIC 0x67636461u
#define TAG_FUNCTION 0x01000000u
#define TAG_COUNTER_ARCS 0x01a10000u
#define TAG_OBJECT_SUMMARY 0xa1000000u
#define HEADER_WORDS 4 /* magic, version, stamp, checksum */

struct gcda {
	char *path;    /* malloced */
	uint8_t *data; /* malloced, the whole file */
	size_t len;
	int swap;            /* the file's words are big-endian here */
	size_t summary_at;   /* offset of an existing summary record, or 0 */
};

static struct gcda *files;
static size_t nfiles, files_alloc;
static const char *prog = "gcda-summary";

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static uint32_t word(const struct gcda *g, size_t off)
{
	uint32_t v;

	memcpy(&v, g->data + off, 4);
	return g->swap ? bswap32(v) : v;
}

static void put_word(const struct gcda *g, uint8_t *to, uint32_t v)
{
	if (g->swap)
		v = bswap32(v);
	memcpy(to, &v, 4);
}

static int bad(const struct gcda *g, size_t off, const char *why)
{
	fprintf(stderr, "%s: %s: offset %zu: %s\n", prog, g->path, off, why);
	return -1;
}

/* Reads path whole into g. Returns 0 or -1 (message printed). */
static int slurp(struct gcda *g, const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n;

	memset(g, 0, sizeof(*g));
	g->path = strdup(path);
	if (!f || !g->path) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	g->data = malloc(cap);
	while (g->data && (n = fread(g->data + g->len, 1, cap - g->len, f)) > 0) {
		g->len += n;
		if (g->len == cap) {
			uint8_t *p = realloc(g->data, cap *= 2);
			if (!p) {
				free(g->data);
				g->data = NULL;
			}
			g->data = p;
		}
	}
	if (!g->data || ferror(f)) {
		fprintf(stderr, "%s: %s: cannot read\n", prog, path);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/*
 * Checks g's structure, records where a summary is, and raises *max to
 * its largest arc counter. Returns 0 or -1 (message printed).
 */
static int scan(struct gcda *g, uint64_t *max)
{
	uint32_t version;
	size_t off;

	if (g->len < HEADER_WORDS * 4)
		return bad(g, 0, "shorter than a .gcda header");
	if (word(g, 0) != GCDA_MAGIC) {
		g->swap = 1;
		if (word(g, 0) != GCDA_MAGIC)
			return bad(g, 0, "not a .gcda file (no 'gcda' magic)");
	}
	/* Version "B22*": a letter for the tens of GCC's major version, then
	 * its units, the minor, and a status character. */
	version = word(g, 4);
	{
		int tens = (int)(version >> 24) - 'A', units = (int)((version >> 16) & 0xff) - '0';
		if (tens < 0 || tens > 25 || units < 0 || units > 9)
			return bad(g, 4, "unknown .gcda version");
		if (tens * 10 + units < 12)
			return bad(g, 4, "a .gcda format older than GCC 12's (lengths in words): not supported");
	}
	for (off = HEADER_WORDS * 4; off < g->len;) {
		uint32_t tag, raw;
		int32_t slen;
		size_t len;

		/* libgcov ends its files with a zero word: the end, as for
		 * GCC's reader. */
		if (g->len - off >= 4 && word(g, off) == 0)
			break;
		if (g->len - off < 8)
			return bad(g, off, "truncated record header");
		tag = word(g, off);
		raw = word(g, off + 4);
		slen = (int32_t)raw;
		/* All-zero counters: a negative length and no payload. */
		if (slen < 0 && (tag & 0xffff0000u) >= TAG_COUNTER_ARCS &&
		    (tag & 0xff000000u) == 0x01000000u) {
			off += 8;
			continue;
		}
		len = raw;
		if (len % 4 || len > g->len - off - 8)
			return bad(g, off, "record length runs past the end of the file");
		if (tag == TAG_OBJECT_SUMMARY) {
			if (len != 8)
				return bad(g, off, "object summary of unexpected length");
			if (g->summary_at)
				return bad(g, off, "a second object summary");
			g->summary_at = off;
		} else if (tag == TAG_COUNTER_ARCS) {
			if (len % 8)
				return bad(g, off, "arc counters of odd length");
			for (size_t i = 0; i < len; i += 8) {
				uint64_t v = word(g, off + 8 + i) |
					     (uint64_t)word(g, off + 8 + i + 4) << 32;
				if (v > *max)
					*max = v;
			}
		}
		off += 8 + len;
	}
	return 0;
}

/* Writes g with the summary {runs, sum_max}; atomically. */
static int rewrite(const struct gcda *g, uint32_t runs, uint32_t sum_max)
{
	size_t head = HEADER_WORDS * 4, tmp_len = strlen(g->path) + 16;
	char *tmp = malloc(tmp_len);
	uint8_t rec[16];
	FILE *f;
	int ok;

	if (!tmp)
		return bad(g, 0, "out of memory");
	snprintf(tmp, tmp_len, "%s.tmp%ld", g->path, (long)getpid());
	put_word(g, rec, TAG_OBJECT_SUMMARY);
	put_word(g, rec + 4, 8);
	put_word(g, rec + 8, runs);
	put_word(g, rec + 12, sum_max);
	f = fopen(tmp, "wb");
	ok = f && fwrite(g->data, 1, head, f) == head && fwrite(rec, 1, sizeof(rec), f) == sizeof(rec);
	if (ok && g->summary_at) {
		/* The old summary is left out; what surrounds it is kept. */
		size_t a = head, b = g->summary_at, c = g->summary_at + 16;
		ok = fwrite(g->data + a, 1, b - a, f) == b - a &&
		     fwrite(g->data + c, 1, g->len - c, f) == g->len - c;
	} else if (ok) {
		ok = fwrite(g->data + head, 1, g->len - head, f) == g->len - head;
	}
	if (f && fclose(f) != 0)
		ok = 0;
	if (!ok || rename(tmp, g->path) < 0) {
		fprintf(stderr, "%s: %s: cannot write: %s\n", prog, g->path, strerror(errno));
		remove(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

static int collect(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	size_t n = strlen(path);

	(void)sb;
	(void)ftw;
	if (type != FTW_F || n < 5 || strcmp(path + n - 5, ".gcda"))
		return 0;
	if (nfiles == files_alloc) {
		size_t cap = files_alloc ? 2 * files_alloc : 256;
		struct gcda *p = realloc(files, cap * sizeof(*p));
		if (!p) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return -1;
		}
		files = p;
		files_alloc = cap;
	}
	if (slurp(&files[nfiles], path) < 0) {
		free(files[nfiles].path);
		free(files[nfiles].data);
		return -1;
	}
	nfiles++;
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: %s [--runs N] DIR\n", prog);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long runs = 1;
	uint64_t max = 0;
	size_t missing = 0;
	const char *dir;
	int ret = 1;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s [--runs N] DIR\n\n"
		       "Gives every .gcda under DIR an object summary (runs N, default 1;\n"
		       "sum_max the largest arc counter of them all), which the kernel's\n"
		       "debugfs .gcda files lack and without which GCC's -fprofile-use\n"
		       "ignores them.\n", prog);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--runs")) {
		char *end;
		errno = 0;
		runs = strtoul(argv[2], &end, 10);
		if (errno || *end || !*argv[2] || runs == 0 || runs > UINT32_MAX)
			return usage();
		dir = argv[3];
	} else if (argc == 2 && argv[1][0] != '-') {
		dir = argv[1];
	} else {
		return usage();
	}
	if (nftw(dir, collect, 32, FTW_PHYS) != 0) {
		if (errno)
			fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
		goto out;
	}
	if (nfiles == 0) {
		fprintf(stderr, "%s: no .gcda files under %s\n", prog, dir);
		goto out;
	}
	/* Every file parses before any is rewritten. */
	for (size_t i = 0; i < nfiles; i++) {
		if (scan(&files[i], &max) < 0)
			goto out;
		missing += files[i].summary_at == 0;
	}
	for (size_t i = 0; i < nfiles; i++)
		if (rewrite(&files[i], (uint32_t)runs, max > UINT32_MAX ? UINT32_MAX : (uint32_t)max) < 0)
			goto out;
	printf("%zu .gcda files, %zu without an object summary; summary runs=%lu sum_max=%llu\n",
	       nfiles, missing, runs, (unsigned long long)(max > UINT32_MAX ? UINT32_MAX : max));
	ret = 0;
out:
	for (size_t i = 0; i < nfiles; i++) {
		free(files[i].path);
		free(files[i].data);
	}
	free(files);
	return ret;
}
