/* SPDX-License-Identifier: GPL-2.0-or-later */
/* qemu_plugin_files: tuner-uarch.so's files: the ranges it reads, the
 * reports it writes, the ctl FIFO it obeys (qemu_plugin_priv.h) */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu_plugin_priv.h"

static struct range *ranges;
size_t nranges;
int have_ranges;

volatile int ctl_pending;
static int ctl_reset;
static char *ctl_dump;

/* ---- where code is ---- */

const struct range *find_range(uint64_t a)
{
	for (size_t i = 0; i < nranges; i++)
		if (a >= ranges[i].lo && a < ranges[i].hi)
			return &ranges[i];
	return NULL;
}

void add_range(uint64_t lo, uint64_t hi, int counted)
{
	struct range *r = realloc(ranges, (nranges + 1) * sizeof(*r));

	if (!r)
		abort();
	ranges = r;
	ranges[nranges].lo = lo;
	ranges[nranges].hi = hi;
	ranges[nranges].counted = counted;
	nranges++;
}

int load_ranges(const char *path)
{
	FILE *f = fopen(path, "r");
	char kind[32];
	unsigned long long lo, hi;
	int n, line = 0;

	if (!f) {
		fprintf(stderr, "tuner-uarch: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = fscanf(f, "%31s %llx %llx", kind, &lo, &hi)) == 3) {
		line++;
		if (hi < lo) {
			fprintf(stderr, "tuner-uarch: %s:%d: range ends before it starts\n", path,
				line);
			fclose(f);
			return -1;
		}
		if (!strcmp(kind, "fp"))
			add_range(lo, hi, 1);
		else if (!strcmp(kind, "own"))
			add_range(lo, hi, 0);
	}
	if (n != EOF) {
		fprintf(stderr, "tuner-uarch: %s:%d: not 'KIND 0xLO 0xHI'\n", path, line + 1);
		fclose(f);
		return -1;
	}
	fclose(f);
	have_ranges = 1;
	return 0;
}

/* ---- reports ---- */

struct linecount {
	uint64_t addr, count;
};

static int cmp_line(const void *a, const void *b)
{
	const struct linecount *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every counted instruction's executions, folded into 32-byte lines by
 * the busiest instruction of each. */
static int write_lines(FILE *f)
{
	struct linecount *insn = NULL, *lines;
	size_t n = 0, alloc = 0, nl = 0;

	for (size_t b = 0; b < NBUCKETS; b++) {
		for (struct block *blk = buckets[b]; blk; blk = blk->next) {
			if (!blk->count || blk->region != UA_COUNTED || !blk->offs)
				continue;
			for (uint32_t i = 0; i < blk->ninsns; i++) {
				if (n == alloc) {
					alloc = alloc ? 2 * alloc : 4096;
					insn = realloc(insn, alloc * sizeof(*insn));
					if (!insn)
						abort();
				}
				insn[n].addr = blk->vaddr + blk->offs[i];
				insn[n++].count = blk->count;
			}
		}
	}
	qsort(insn, n, sizeof(*insn), cmp_line);
	/* Sum translations of one instruction, then take each line's max. */
	lines = malloc((n ? n : 1) * sizeof(*lines));
	if (!lines)
		abort();
	for (size_t i = 0; i < n;) {
		uint64_t a = insn[i].addr, c = 0, l = a >> 5;

		while (i < n && insn[i].addr == a)
			c += insn[i++].count;
		if (nl && lines[nl - 1].addr == l) {
			if (c > lines[nl - 1].count)
				lines[nl - 1].count = c;
		} else {
			lines[nl].addr = l;
			lines[nl++].count = c;
		}
	}
	fprintf(f, "# uarch-lines 1: 32-byte line, executions of its busiest instruction\n");
	for (size_t i = 0; i < nl; i++)
		fprintf(f, "0x%" PRIx64 " %" PRIu64 "\n", lines[i].addr << 5, lines[i].count);
	free(insn);
	free(lines);
	return ferror(f) ? -1 : 0;
}

/* Every counted block that ran: its address, size, instructions,
 * executions and the counters its executions added. */
static int write_blocks(FILE *f)
{
	fprintf(f, "uarch-blocks 1\ncounters");
	for (size_t i = 0; i < ua_ncounters; i++)
		fprintf(f, " %s", ua_counter_names[i]);
	fputc('\n', f);
	for (size_t b = 0; b < NBUCKETS; b++) {
		for (struct block *blk = buckets[b]; blk; blk = blk->next) {
			if (!blk->count || !blk->acc)
				continue;
			fprintf(f, "0x%" PRIx64 " %u %u %" PRIu64, blk->vaddr, blk->size, blk->ninsns,
				blk->count);
			for (size_t i = 0; i < ua_ncounters; i++)
				fprintf(f, " %" PRIu64, blk->acc[i]);
			fputc('\n', f);
		}
	}
	fprintf(f, "end\n");
	return ferror(f) ? -1 : 0;
}

/* Writes path + suffix through a temporary file with fn. */
static void write_side(const char *path, const char *suffix, int (*fn)(FILE *))
{
	char *p = malloc(strlen(path) + strlen(suffix) + 1), *tmp = malloc(strlen(path) + strlen(suffix) + 8);
	FILE *f;

	if (!p || !tmp)
		abort();
	sprintf(p, "%s%s", path, suffix);
	sprintf(tmp, "%s.tmp", p);
	f = fopen(tmp, "w");
	if (!f || fn(f) < 0 || fclose(f) != 0 || rename(tmp, p) != 0)
		fprintf(stderr, "tuner-uarch: cannot write %s: %s\n", p, strerror(errno));
	free(p);
	free(tmp);
}

void write_report(const char *path)
{
	char *tmp = malloc(strlen(path) + 16);
	FILE *f;

	if (!tmp)
		abort();
	/* The side files first: a reader waiting for the report finds them
	 * whole once it is there. */
	if (want_lines)
		write_side(path, ".lines", write_lines);
	if (want_blocks) {
		blocks_flush();
		write_side(path, ".blocks", write_blocks);
	}
	sprintf(tmp, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || ua_report_write(f, &core, arch_name) < 0 || fclose(f) != 0 ||
	    rename(tmp, path) != 0)
		fprintf(stderr, "tuner-uarch: cannot write %s: %s\n", path, strerror(errno));
	free(tmp);
}

struct ua_counters block_snap;

void reset_counts(void)
{
	ua_core_reset_counters(&core);
	memset(&block_snap, 0, sizeof(block_snap));
	for (size_t b = 0; b < NBUCKETS; b++) {
		for (struct block *blk = buckets[b]; blk; blk = blk->next) {
			blk->count = 0;
			if (blk->acc)
				memset(blk->acc, 0, ua_ncounters * sizeof(*blk->acc));
		}
	}
}

/* ---- ctl ---- */

void *ctl_loop(void *arg)
{
	const char *path = arg;
	FILE *f;
	char line[4096];
	int fd = open(path, O_RDWR | O_CLOEXEC); /* never sees EOF */

	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		fprintf(stderr, "tuner-uarch: ctl %s: %s\n", path, strerror(errno));
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		pthread_mutex_lock(&lock);
		if (!strcmp(line, "reset")) {
			ctl_reset = 1;
		} else if (!strncmp(line, "dump ", 5) && line[5]) {
			free(ctl_dump);
			ctl_dump = strdup(line + 5);
		} else {
			fprintf(stderr, "tuner-uarch: ctl: unknown command '%s'\n", line);
		}
		__atomic_store_n(&ctl_pending, 1, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

void ctl_act(void)
{
	pthread_mutex_lock(&lock);
	__atomic_store_n(&ctl_pending, 0, __ATOMIC_RELAXED);
	if (ctl_dump) {
		write_report(ctl_dump);
		free(ctl_dump);
		ctl_dump = NULL;
	}
	if (ctl_reset) {
		reset_counts();
		ctl_reset = 0;
	}
	pthread_mutex_unlock(&lock);
}
