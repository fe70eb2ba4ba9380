/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_records: a unit's measurement records in the journal: the slots they
 * count in, which of them count (current, as results), how many a unit
 * has, and its samples of an objective (see run_priv.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run_priv.h"

size_t run_slot(const struct run_ctx *ctx, size_t t)
{
	return ctx->s->lab.mode == LAB_ALL ? t : 0;
}

const char *run_slot_testbed(const struct run_ctx *ctx, size_t slot)
{
	return ctx->s->lab.mode == LAB_ALL ? ctx->s->testbeds[slot] : NULL;
}

int run_record_current(const struct run_ctx *ctx, const struct measure_record *r)
{
	return r->mkey[0] ? !strcmp(r->mkey, ctx->mkey) : !ctx->study_changed;
}

size_t run_count_stale(struct run_ctx *ctx)
{
	size_t stale = 0;

	for (size_t i = 0; i < ctx->nunits; i++) {
		const struct measure_record **recs;
		size_t n = journal_measures(ctx->j, ctx->units[i].key, NULL, &recs);

		for (size_t k = 0; k < n; k++)
			stale += !run_record_current(ctx, recs[k]);
		free(recs);
	}
	return stale;
}

size_t run_records(const struct unit *u, size_t t, const struct measure_record ***recs,
		   size_t *ok)
{
	size_t all = journal_measures(u->ctx->j, u->key, run_slot_testbed(u->ctx, t), recs);
	size_t n = 0;

	*ok = 0;
	for (size_t i = 0; i < all; i++) {
		if (!run_record_current(u->ctx, (*recs)[i]))
			continue;
		(*recs)[n++] = (*recs)[i];
		*ok += (*recs)[n - 1]->ok != 0;
	}
	if (!n) {
		free(*recs);
		*recs = NULL;
	}
	return n;
}

int run_record_counts(const struct study *s, const struct measure_record *r, size_t ok)
{
	return r->ok || ok < s->repeats_min;
}

int run_deploy_failed(const struct measure_record *const *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (recs[i]->deploy_failed)
			return 1;
	return 0;
}

/* The records of u in slot t that count as results (*n: all of them,
 * *ok: the ones that succeeded). A failed deploy (the build did not come
 * up) is its last result: it counts as every run still owed. */
static size_t counted(struct unit *u, size_t t, size_t *n, size_t *ok)
{
	const struct measure_record **recs;
	size_t c = 0;

	*n = run_records(u, t, &recs, ok);
	for (size_t i = 0; i < *n; i++)
		c += (size_t)run_record_counts(u->ctx->s, recs[i], *ok);
	if (!u->ctx->retry_failed && c < u->ctx->s->repeats_max && run_deploy_failed(recs, *n))
		c = u->ctx->s->repeats_max;
	free(recs);
	return c;
}

size_t run_count_measures(struct unit *u, size_t t)
{
	size_t n, ok;

	return counted(u, t, &n, &ok);
}

size_t run_count_records(struct unit *u, size_t t, size_t *done)
{
	size_t n, ok, c = counted(u, t, &n, &ok);

	*done = u->ctx->retry_failed ? ok : c;
	return n;
}

size_t run_count_shared(struct unit *u, size_t t)
{
	struct unit *lead = u->lead ? u->lead : u;
	size_t n = run_count_measures(lead, t);

	for (size_t i = 0; i < lead->ntwins; i++)
		n += run_count_measures(lead->twins[i], t);
	return n;
}

int run_measured(struct unit *u, unsigned want)
{
	const struct study *s = u->ctx->s;

	if (!run_has_measure(s))
		return 1;
	for (size_t t = 0; t < study_slots(u->ctx->s); t++)
		if (run_count_shared(u, t) < want)
			return 0;
	return 1;
}

int run_measures_complete(struct unit *u)
{
	return run_measured(u, u->ctx->s->repeats_min);
}

/* Index of testbed name in the study, or SIZE_MAX (a record of a testbed
 * the study no longer names). */
static size_t testbed_index(const struct study *s, const char *name)
{
	for (size_t t = 0; t < s->ntestbeds; t++)
		if (!strcmp(s->testbeds[t], name))
			return t;
	return SIZE_MAX;
}

void run_each_sample(struct run_ctx *ctx, struct unit *u, const struct objective *o,
		     unsigned limit, void (*fn)(double v, size_t testbed, void *arg), void *arg)
{
	const struct measure_record **recs;
	const struct unit *lead = u->lead ? u->lead : u;
	size_t n;

	if (!atomic_load(&u->built) || !u->build || u->build->status != BUILD_OK)
		return;
	if (o->from_size) {
		fn(u->build->size, SIZE_MAX, arg);
		return;
	}
	/* The same code's samples, pooled: they are of the same program; the
	 * records that count (a failure is a sample, NaN, until repeats.min
	 * have succeeded). */
	for (size_t g = 0; g <= lead->ntwins; g++) {
		const struct unit *v = g ? lead->twins[g - 1] : lead;

		for (size_t t = 0; t < study_slots(ctx->s); t++) {
			size_t ok;

			n = run_records(v, t, &recs, &ok);
			for (size_t i = 0; i < n; i++) {
				if (recs[i]->run >= limit ||
				    !run_record_counts(ctx->s, recs[i], ok))
					continue;
				for (size_t k = 0; k < recs[i]->nvalues; k++)
					if (!strcmp(recs[i]->names[k], o->name))
						fn(recs[i]->values[k],
						   testbed_index(ctx->s, recs[i]->testbed), arg);
			}
			free(recs);
		}
	}
}
