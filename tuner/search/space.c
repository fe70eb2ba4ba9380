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

/* The number of configurations into *n; 1 if it passes UINT64_MAX (*n is
 * then UINT64_MAX). */
static int count(uint64_t *n, const struct space *s)
{
	*n = 1;
	for (size_t i = 0; i < s->ndims; i++) {
		if (*n > UINT64_MAX / s->dims[i].nvalues) {
			*n = UINT64_MAX;
			return 1;
		}
		*n *= s->dims[i].nvalues;
	}
	return 0;
}

uint64_t space_size(const struct space *s)
{
	uint64_t n;

	count(&n, s);
	return n;
}

int space_beyond_u64(const struct space *s)
{
	uint64_t n;

	return count(&n, s);
}

/* Limbs of the decimal big number: base 10^9, least significant first. */
#define LIMB 1000000000U

char *space_size_str(const struct space *s, uint64_t sub)
{
	/* A dimension has fewer than 2^32 values (10 digits): each adds at
	 * most two limbs. */
	size_t cap = 2 * s->ndims + 3, n = 1;
	uint32_t *limb = xcalloc(cap, sizeof(*limb));
	uint32_t sublimb[3] = { (uint32_t)(sub % LIMB), (uint32_t)(sub / LIMB % LIMB),
				(uint32_t)(sub / LIMB / LIMB) };
	struct strbuf sb = STRBUF_INIT;
	int64_t borrow = 0;

	limb[0] = 1;
	for (size_t d = 0; d < s->ndims; d++) {
		uint64_t carry = 0;

		for (size_t i = 0; i < n; i++) {
			uint64_t v = (uint64_t)limb[i] * s->dims[d].nvalues + carry;

			limb[i] = (uint32_t)(v % LIMB);
			carry = v / LIMB;
		}
		while (carry) {
			limb[n++] = (uint32_t)(carry % LIMB);
			carry /= LIMB;
		}
	}
	for (size_t i = 0; i < n || (i < 3 && sublimb[i]); i++) {
		int64_t v = (int64_t)(i < n ? limb[i] : 0) - (i < 3 ? sublimb[i] : 0) - borrow;

		borrow = v < 0;
		limb[i] = (uint32_t)(v < 0 ? v + LIMB : v);
	}
	while (n > 1 && !limb[n - 1])
		n--;
	/* sub past the number: a caller's bug; say 0 rather than wrap. */
	if (borrow) {
		n = 1;
		limb[0] = 0;
	}
	strbuf_addf(&sb, "%u", limb[n - 1]);
	for (size_t i = n - 1; i-- > 0;)
		strbuf_addf(&sb, "%09u", limb[i]);
	free(limb);
	return strbuf_detach(&sb);
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

void space_index_pick(size_t *pick, const struct space *s, uint64_t index)
{
	/* Mixed radix, last dimension fastest. */
	for (size_t i = s->ndims; i-- > 0;) {
		pick[i] = (size_t)(index % s->dims[i].nvalues);
		index /= s->dims[i].nvalues;
	}
}

int space_config(struct config *out, const struct space *s, uint64_t index)
{
	size_t *pick;
	int ret;

	if (!space_beyond_u64(s) && index >= space_size(s))
		return tn_error("configuration %llu is outside the space",
				(unsigned long long)index);
	pick = xcalloc(s->ndims ? s->ndims : 1, sizeof(*pick));
	space_index_pick(pick, s, index);
	ret = space_config_pick(out, s, pick);
	free(pick);
	return ret;
}

int space_config_pick(struct config *out, const struct space *s, const size_t *pick)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t index = 0;

	for (size_t i = 0; i < s->ndims; i++) {
		uint64_t nv = s->dims[i].nvalues;

		if (pick[i] >= nv)
			return tn_error("dimension '%s' has no value %zu", s->dims[i].name, pick[i]);
		/* index = index * nv + pick[i], unless it passes 64 bits. */
		if (index == SPACE_NO_INDEX || index > (UINT64_MAX - 1 - pick[i]) / nv)
			index = SPACE_NO_INDEX;
		else
			index = index * nv + pick[i];
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
	out->flags = strbuf_detach(&sb);
	config_id(out->id, out->flags, out->pgo);
	return 0;
}

/*
 * flags + pos as the values of dimensions d.. (a PGO dimension takes
 * pgo), into pick. failed[d * (len + 1) + pos] remembers what cannot be
 * matched, so that the search is polynomial however the values repeat.
 */
static int match_values(size_t *pick, const struct space *s, size_t d, const char *flags,
			size_t pos, enum pgo_mode pgo, unsigned char *failed, size_t len)
{
	if (d == s->ndims)
		return flags[pos] == '\0';
	if (failed[d * (len + 1) + pos])
		return 0;
	for (size_t v = 0; v < s->dims[d].nvalues; v++) {
		const char *val = s->dims[d].values[v];
		size_t n = strlen(val), next = pos;

		if (s->dims[d].kind == DIM_PGO) {
			if (!strcmp(val, "on") != (pgo == PGO_ON))
				continue;
		} else if (n) {
			/* The value, then the joining space or the end; a space
			 * then nothing is not what a join makes. */
			if (strncmp(flags + pos, val, n))
				continue;
			if (flags[pos + n] == ' ' && flags[pos + n + 1])
				next = pos + n + 1;
			else if (flags[pos + n] == '\0')
				next = pos + n;
			else
				continue;
		}
		pick[d] = v;
		if (match_values(pick, s, d + 1, flags, next, pgo, failed, len))
			return 1;
	}
	failed[d * (len + 1) + pos] = 1;
	return 0;
}

int space_flags_pick(size_t *pick, const struct space *s, const char *flags,
		     enum pgo_mode pgo)
{
	size_t len = strlen(flags);
	unsigned char *failed = xcalloc((s->ndims + 1) * (len + 1), 1);
	struct config c = CONFIG_INIT;
	int found = match_values(pick, s, 0, flags, 0, pgo, failed, len);

	/* A space without a pgo dimension makes no PGO configuration. */
	if (found && space_config_pick(&c, s, pick) == 0)
		found = c.pgo == pgo && !strcmp(c.flags, flags);
	config_release(&c);
	free(failed);
	return found;
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
