/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uarch_blocks: see tuner/formats/uarch_blocks.h */
#include "uarch_blocks.h"

#include <stdlib.h>
#include <string.h>

#include "elfsym.h"
#include "tuner/util.h"

struct cursor {
	const char *s, *end, *path;
	size_t no;
};

/* The next line into buf (NUL-terminated, cut at buflen - 1); 0 at the end. */
static int next_line(struct cursor *c, char *buf, size_t buflen)
{
	const char *nl;
	size_t n;

	if (c->s >= c->end)
		return 0;
	nl = memchr(c->s, '\n', (size_t)(c->end - c->s));
	n = (size_t)((nl ? nl : c->end) - c->s);
	if (n >= buflen)
		n = buflen - 1;
	memcpy(buf, c->s, n);
	buf[n] = '\0';
	c->s = nl ? nl + 1 : c->end;
	c->no++;
	return 1;
}

static int bad(const struct cursor *c, const char *what)
{
	return tn_error("%s:%zu: %s", c->path, c->no, what);
}

/* The header's counter names as indexes into ua_counter_names (-1 for
 * one this tuner does not know). */
static int read_columns(int **cols, size_t *ncols, char *line, const struct cursor *c)
{
	size_t n = 0, alloc = 0;
	int *v = NULL;

	if (strncmp(line, "counters", 8) || (line[8] && line[8] != ' '))
		return bad(c, "expected 'counters NAME...' after 'uarch-blocks 1'");
	for (char *tok = strtok(line + 8, " "); tok; tok = strtok(NULL, " ")) {
		int k = -1;

		for (size_t i = 0; i < ua_ncounters; i++)
			if (!strcmp(tok, ua_counter_names[i]))
				k = (int)i;
		for (size_t i = 0; i < n; i++)
			if (k >= 0 && v[i] == k) {
				free(v);
				return bad(c, "a counter named twice");
			}
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = k;
	}
	*cols = v;
	*ncols = n;
	return 0;
}

/* 1 if s is only hex digits (1-16 of them), with the value in *v. */
static int hex_u64(uint64_t *v, const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	if (!n || n > 16 || s[n])
		return 0;
	*v = strtoull(s, NULL, 16);
	return 1;
}

static int read_block(struct ua_block *b, char *line, const int *cols, size_t ncols,
		      const struct cursor *c)
{
	char *save = NULL, *tok[4];
	uint64_t v[4];

	memset(b, 0, sizeof(*b));
	for (int i = 0; i < 4; i++) {
		tok[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!tok[i])
			return bad(c, "not '0xVADDR SIZE NINSNS EXECS COUNTERS...'");
	}
	if (strncmp(tok[0], "0x", 2) || !hex_u64(&v[0], tok[0] + 2))
		return bad(c, "the block's address is not 0x and hex digits");
	for (int i = 1; i < 4; i++)
		if (parse_u64(&v[i], tok[i]) < 0 || (i < 3 && v[i] > UINT32_MAX))
			return bad(c, "a block's size, instructions or executions is not a count");
	b->vaddr = v[0];
	b->size = (uint32_t)v[1];
	b->ninsns = (uint32_t)v[2];
	b->execs = v[3];
	for (size_t i = 0; i < ncols; i++) {
		char *t = strtok_r(NULL, " ", &save);
		uint64_t x;

		if (!t || parse_u64(&x, t) < 0)
			return bad(c, "fewer counts than the 'counters' line names, or not a count");
		if (cols[i] >= 0)
			*ua_counter(&b->cnt, (size_t)cols[i]) = x;
	}
	if (strtok_r(NULL, " ", &save))
		return bad(c, "more counts than the 'counters' line names");
	return 0;
}

int ua_blocks_parse(struct ua_block **out, size_t *n, const char *text, size_t len,
		    const char *path)
{
	struct cursor c = { text ? text : "", (text ? text : "") + (text ? len : 0), path, 0 };
	struct ua_block *v = NULL;
	size_t nv = 0, alloc = 0, ncols = 0, linelen = 65536;
	int *cols = NULL, ended = 0, ret = -1;
	char *line = xmalloc(linelen);

	*out = NULL;
	*n = 0;
	if (!next_line(&c, line, linelen) || strcmp(line, "uarch-blocks 1")) {
		bad(&c, "not a uarch blocks file (no 'uarch-blocks 1' line first)");
		goto out;
	}
	if (!next_line(&c, line, linelen) || read_columns(&cols, &ncols, line, &c) < 0) {
		if (!c.no || !tn_errmsg()[0])
			bad(&c, "no 'counters' line");
		goto out;
	}
	while (next_line(&c, line, linelen)) {
		if (!strcmp(line, "end")) {
			ended = 1;
			break;
		}
		ALLOC_GROW(v, nv + 1, alloc);
		if (read_block(&v[nv], line, cols, ncols, &c) < 0)
			goto out;
		nv++;
	}
	if (!ended) {
		bad(&c, "no 'end' line (cut short?)");
		goto out;
	}
	*out = v;
	*n = nv;
	v = NULL;
	ret = 0;
out:
	free(v);
	free(cols);
	free(line);
	return ret;
}

/* The symbol holding a, or NULL (syms sorted by address). */
static const struct elf_func *holder(const struct elf_func *syms, size_t nsyms, uint64_t a)
{
	size_t lo = 0, hi = nsyms;

	while (lo < hi) { /* the first symbol above a */
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	{
		const struct elf_func *f = &syms[lo - 1];
		uint64_t end = f->size ? f->addr + f->size : (lo < nsyms ? syms[lo].addr : a + 1);

		return a < end ? f : NULL;
	}
}

static void add_counters(struct ua_counters *to, const struct ua_counters *from)
{
	for (size_t k = 0; k < ua_ncounters; k++)
		*ua_counter(to, k) += *ua_counter((struct ua_counters *)from, k);
}

size_t ua_blocks_by_function(struct ua_func_cost **out, const struct ua_block *blocks,
			     size_t nblocks, const struct elf_func *syms, size_t nsyms)
{
	/* slot[s]: the entry of symbol s + 1 (0: none yet); the last entry
	 * is [unknown]'s. */
	size_t *slot = xcalloc(nsyms + 1, sizeof(*slot)), n = 0;
	struct ua_func_cost *v = xcalloc(nblocks + 1, sizeof(*v));

	for (size_t i = 0; i < nblocks; i++) {
		const struct elf_func *f = holder(syms, nsyms, blocks[i].vaddr);
		size_t s = f ? (size_t)(f - syms) : nsyms;
		struct ua_func_cost *e;

		if (!slot[s]) {
			slot[s] = ++n;
			v[n - 1].name = f ? f->name : "[unknown]";
			v[n - 1].addr = f ? f->addr : blocks[i].vaddr;
		}
		e = &v[slot[s] - 1];
		if (!f && blocks[i].vaddr < e->addr)
			e->addr = blocks[i].vaddr;
		e->execs += blocks[i].execs;
		add_counters(&e->cnt, &blocks[i].cnt);
	}
	free(slot);
	*out = v;
	return n;
}
