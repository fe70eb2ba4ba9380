/* SPDX-License-Identifier: GPL-2.0-or-later */
/* space: see include/tuner/space.h */
#include "tuner/space.h"

#include <stdlib.h>
#include <string.h>

#include "tuner/gccopt.h"
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

void config_id(char out[17], const char *flags, enum pgo_mode pgo)
{
	/* Flags GCC treats alike are one configuration (gccopt.h). */
	char *norm = gccopt_canonical(flags);
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

/* Adds the overrides of the switches of a (dimension da, value va) by
 * those of b (db, vb) when a's come first in "a b". */
static void overrides_of(struct space_override **out, size_t *n, size_t *alloc,
			 const char *a, size_t da, size_t va, const char *b, size_t db,
			 size_t vb)
{
	char *joined = xasprintf("%s %s", a, b);
	struct gccopt g, ga;

	gccopt_parse(&g, joined, 1);
	gccopt_parse(&ga, a, 1);
	/* The first ga.n switches of g are a's (the words split alike). */
	for (size_t i = 0; i < ga.n && i < g.n; i++) {
		size_t w = g.sw[i].winner;
		struct space_override *o;

		if (w == i || !strcmp(g.sw[w].setting, g.sw[i].setting))
			continue;
		/* Between two values: only what b overrides (a's own
		 * overrides are a's, reported once). */
		if ((da != db || va != vb) && w < ga.n)
			continue;
		ALLOC_GROW(*out, *n + 1, *alloc);
		o = &(*out)[(*n)++];
		o->dim = da;
		o->value = va;
		o->by_dim = w < ga.n ? da : db;
		o->by_value = w < ga.n ? va : vb;
		o->flag = xstrdup(g.sw[i].word);
		o->by = xstrdup(g.sw[w].word);
	}
	gccopt_release(&g);
	gccopt_release(&ga);
	free(joined);
}

size_t space_overrides(struct space_override **out, const struct space *s)
{
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (size_t i = 0; i < s->ndims; i++) {
		if (s->dims[i].kind != DIM_FLAGS)
			continue;
		for (size_t v = 0; v < s->dims[i].nvalues; v++) {
			/* Within the value itself. */
			overrides_of(out, &n, &alloc, s->dims[i].values[v], i, v, "", i, v);
			for (size_t j = i + 1; j < s->ndims; j++) {
				if (s->dims[j].kind != DIM_FLAGS)
					continue;
				for (size_t u = 0; u < s->dims[j].nvalues; u++)
					overrides_of(out, &n, &alloc, s->dims[i].values[v], i, v,
						     s->dims[j].values[u], j, u);
			}
		}
	}
	return n;
}

void space_overrides_free(struct space_override *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].flag);
		free(o[i].by);
	}
	free(o);
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
