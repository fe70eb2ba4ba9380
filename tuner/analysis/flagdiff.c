/* SPDX-License-Identifier: GPL-2.0-or-later */
/* flagdiff: flag strings as applicable changes (see flagdiff.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/flagdiff.h"
#include "tuner/gccopt.h"
#include "tuner/util.h"

#define KEY_MAX 256

void flagdiff_key(char *out, size_t len, const char *t)
{
	struct strbuf kind = STRBUF_INIT, setting = STRBUF_INIT;

	gccopt_kind(&kind, &setting, t);
	snprintf(out, len, "%s", strbuf_str(&kind));
	strbuf_release(&kind);
	strbuf_release(&setting);
}

/* Index of the last token of t[0..n) with key k, or -1. */
static long last_with_key(char **t, size_t n, const char *k)
{
	char key[KEY_MAX];

	for (size_t i = n; i-- > 0;) {
		flagdiff_key(key, sizeof(key), t[i]);
		if (!strcmp(key, k))
			return (long)i;
	}
	return -1;
}

/* Keeps each key's last token only, in the order of those tokens. */
static size_t effective(char **t, size_t n)
{
	char key[KEY_MAX];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		flagdiff_key(key, sizeof(key), t[i]);
		if (last_with_key(t, n, key) == (long)i)
			t[k++] = t[i];
		else
			free(t[i]);
	}
	return k;
}

static void add_change(struct flagdiff *d, const char *key, const char *g, const char *b)
{
	struct flag_change *c;

	d->changes = xrealloc(d->changes, (d->nchanges + 1) * sizeof(*d->changes));
	c = &d->changes[d->nchanges++];
	c->key = xstrdup(key);
	c->good = g ? xstrdup(g) : NULL;
	c->bad = b ? xstrdup(b) : NULL;
}

void flagdiff_compute(struct flagdiff *out, const char *good, const char *bad)
{
	char **b, key[KEY_MAX];
	size_t nb;
	long j;

	memset(out, 0, sizeof(*out));
	out->ngood = gccopt_words(&out->good, good, 1);
	out->ngood = effective(out->good, out->ngood);
	nb = gccopt_words(&b, bad, 1);
	nb = effective(b, nb);
	for (size_t i = 0; i < out->ngood; i++) {
		flagdiff_key(key, sizeof(key), out->good[i]);
		j = last_with_key(b, nb, key);
		if (j < 0 || strcmp(b[j], out->good[i]))
			add_change(out, key, out->good[i], j < 0 ? NULL : b[j]);
	}
	for (size_t i = 0; i < nb; i++) {
		flagdiff_key(key, sizeof(key), b[i]);
		if (last_with_key(out->good, out->ngood, key) < 0)
			add_change(out, key, NULL, b[i]);
	}
	gccopt_words_free(b, nb);
}

void flagdiff_release(struct flagdiff *d)
{
	gccopt_words_free(d->good, d->ngood);
	for (size_t i = 0; i < d->nchanges; i++) {
		free(d->changes[i].key);
		free(d->changes[i].good);
		free(d->changes[i].bad);
	}
	free(d->changes);
	memset(d, 0, sizeof(*d));
}

static void append(struct strbuf *sb, const char *t)
{
	if (sb->len)
		strbuf_addch(sb, ' ');
	strbuf_addstr(sb, t);
}

/* The change of set[0..n) that sets key, or NULL. */
static const struct flag_change *applied(const struct flagdiff *d, const size_t *set, size_t n,
					 const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d->changes[set[i]].key, key))
			return &d->changes[set[i]];
	return NULL;
}

char *flagdiff_apply(const struct flagdiff *d, const size_t *set, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char key[KEY_MAX];

	for (size_t i = 0; i < d->ngood; i++) {
		const struct flag_change *c;

		flagdiff_key(key, sizeof(key), d->good[i]);
		c = applied(d, set, n, key);
		if (!c)
			append(&sb, d->good[i]);
		else if (c->bad)
			append(&sb, c->bad);
	}
	for (size_t i = 0; i < d->nchanges; i++) {
		const struct flag_change *c = &d->changes[i];

		if (!c->good && applied(d, set, n, c->key) == c)
			append(&sb, c->bad);
	}
	return strbuf_detach(&sb);
}

char *flagdiff_describe(const struct flagdiff *d, size_t i)
{
	const struct flag_change *c = &d->changes[i];

	if (!c->good)
		return xasprintf("add %s", c->bad);
	if (!c->bad)
		return xasprintf("drop %s", c->good);
	return xasprintf("%s -> %s", c->good, c->bad);
}
