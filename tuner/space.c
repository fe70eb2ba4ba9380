/* SPDX-License-Identifier: GPL-2.0-or-later */
/* space: see include/tuner/space.h */
#include "tuner/space.h"

#include <stdlib.h>
#include <string.h>

#include "tuner/util.h"

int space_add_dimension(struct space *s, const char *name,
			const char *const *values, size_t nvalues)
{
	struct dimension *d;
	int pgo = !strcmp(name, "pgo");

	if (!nvalues)
		return tn_error("dimension '%s' has no values", name);
	for (size_t i = 0; i < s->ndims; i++)
		if (!strcmp(s->dims[i].name, name))
			return tn_error("duplicate dimension '%s'", name);
	for (size_t i = 0; i < nvalues; i++) {
		if (pgo && strcmp(values[i], "off") && strcmp(values[i], "on"))
			return tn_error("pgo values are off and on, not '%s'", values[i]);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(values[i], values[k]))
				return tn_error("dimension '%s' lists '%s' twice", name, values[i]);
	}

	s->dims = xrealloc(s->dims, (s->ndims + 1) * sizeof(*s->dims));
	d = &s->dims[s->ndims++];
	d->name = xstrdup(name);
	d->kind = pgo ? DIM_PGO : DIM_FLAGS;
	d->nvalues = nvalues;
	d->values = xcalloc(nvalues, sizeof(*d->values));
	for (size_t i = 0; i < nvalues; i++)
		d->values[i] = xstrdup(values[i]);
	return 0;
}

uint64_t space_size(const struct space *s)
{
	uint64_t n = 1;

	for (size_t i = 0; i < s->ndims; i++) {
		if (n > UINT64_MAX / s->dims[i].nvalues)
			return UINT64_MAX;
		n *= s->dims[i].nvalues;
	}
	return n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

char *flags_normalize(const char *flags)
{
	char **tok = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf sb = STRBUF_INIT;
	const char *p = flags;

	while (*p) {
		const char *start;
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && !is_space(*p))
			p++;
		ALLOC_GROW(tok, n + 1, alloc);
		tok[n++] = xstrndup(start, (size_t)(p - start));
	}
	if (n)
		qsort(tok, n, sizeof(*tok), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(tok[i], tok[i - 1])) {
			if (sb.len)
				strbuf_addch(&sb, ' ');
			strbuf_addstr(&sb, tok[i]);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(tok[i]);
	free(tok);
	return strbuf_detach(&sb);
}

void config_id(char out[17], const char *flags, enum pgo_mode pgo)
{
	char *norm = flags_normalize(flags);
	uint64_t h = hash64_str(HASH64_INIT, "tuner-config-1");

	h = hash64_str(h, norm);
	h = hash64_str(h, pgo == PGO_ON ? "pgo=on" : "pgo=off");
	hash64_hex(out, h);
	free(norm);
}

int space_config(struct config *out, const struct space *s, uint64_t index)
{
	struct strbuf sb = STRBUF_INIT;
	size_t *pick;
	uint64_t rest = index;

	if (index >= space_size(s))
		return tn_error("configuration %llu is outside the space",
				(unsigned long long)index);

	/* Mixed radix, last dimension fastest. */
	pick = xcalloc(s->ndims ? s->ndims : 1, sizeof(*pick));
	for (size_t i = s->ndims; i-- > 0;) {
		pick[i] = (size_t)(rest % s->dims[i].nvalues);
		rest /= s->dims[i].nvalues;
	}

	out->index = index;
	out->pgo = PGO_OFF;
	for (size_t i = 0; i < s->ndims; i++) {
		const char *v = s->dims[i].values[pick[i]];
		if (s->dims[i].kind == DIM_PGO) {
			out->pgo = strcmp(v, "on") ? PGO_OFF : PGO_ON;
			continue;
		}
		if (!*v)
			continue;
		if (sb.len)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, v);
	}
	free(pick);
	out->flags = strbuf_detach(&sb);
	config_id(out->id, out->flags, out->pgo);
	return 0;
}

void config_release(struct config *c)
{
	free(c->flags);
	c->flags = NULL;
}

void space_release(struct space *s)
{
	for (size_t i = 0; i < s->ndims; i++) {
		for (size_t k = 0; k < s->dims[i].nvalues; k++)
			free(s->dims[i].values[k]);
		free(s->dims[i].values);
		free(s->dims[i].name);
	}
	free(s->dims);
	s->dims = NULL;
	s->ndims = 0;
}
