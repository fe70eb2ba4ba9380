/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_testbeds: the testbeds in the results: their effect as a blocking
 * factor (run_block(), used by run_front.c's statistics) and each one's
 * part in the run (run_summarize_testbeds()). See run_priv.h and run.h.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/stats.h"
#include "tuner/util.h"
#include "run_priv.h"

/* The samples of one configuration on one objective: log values and
 * their testbeds. */
struct logs {
	double *y;
	size_t *t;
	size_t n, ay, at;
	int bad; /* a value not > 0: no log scale */
};

static void add_log(double v, size_t t, void *arg)
{
	struct logs *l = arg;

	if (isnan(v) || t == SIZE_MAX)
		return;
	if (!(v > 0)) {
		l->bad = 1;
		return;
	}
	ALLOC_GROW(l->y, l->n + 1, l->ay);
	ALLOC_GROW(l->t, l->n + 1, l->at);
	l->y[l->n] = log(v);
	l->t[l->n++] = t;
}

/*
 * Objective o: residuals of each sample from its configuration's mean (log
 * scale), by testbed. A testbed's shift is its residuals' mean, centred so
 * that the samples' mean shift is 0; F = (SSB / (T' - 1)) / (SSW / (n - C
 * - T' + 1)), with T' testbeds and C configurations that have samples:
 * the configurations' means are fitted too. Two-way, no interaction: a
 * testbed scales every configuration alike.
 */
static void block_objective(struct run_block *out, size_t o, struct logs *per, size_t nconfigs)
{
	size_t T = out->ntestbeds, n = 0, C = 0, used = 0;
	double *sum = xcalloc(T, sizeof(*sum)), ss = 0, ssb = 0, total = 0, df2;
	size_t *cnt = &out->n[o * T];
	int bad = 0;

	for (size_t c = 0; c < nconfigs; c++) {
		struct logs *l = &per[c];
		double mean = 0;

		bad |= l->bad;
		if (!l->n)
			continue;
		C++;
		for (size_t i = 0; i < l->n; i++)
			mean += l->y[i];
		mean /= (double)l->n;
		for (size_t i = 0; i < l->n; i++) {
			double r = l->y[i] - mean;

			sum[l->t[i]] += r;
			cnt[l->t[i]]++;
			ss += r * r;
			n++;
		}
	}
	for (size_t t = 0; t < T; t++)
		if (cnt[t]) {
			used++;
			total += sum[t];
		}
	for (size_t t = 0; t < T; t++) {
		double m = cnt[t] ? sum[t] / (double)cnt[t] : 0;

		out->shift[o * T + t] = cnt[t] ? m - total / (double)n : 0;
		ssb += cnt[t] ? (double)cnt[t] * m * m : 0;
	}
	free(sum);
	out->p[o] = NAN;
	if (bad || used < 2)
		return;
	df2 = (double)n - (double)C - (double)(used - 1);
	if (df2 < 1)
		return;
	if (ss - ssb <= 1e-12 * (ss > 0 ? ss : 1))
		out->p[o] = ssb > 1e-24 ? 0 : 1;
	else
		out->p[o] = stats_f_sf((ssb / (double)(used - 1)) / ((ss - ssb) / df2),
				       (double)(used - 1), df2);
	out->adjusted[o] = out->p[o] < 1 - RUN_LEVEL;
}

void run_block(struct run_block *out, struct run_ctx *ctx, struct unit *units,
	       size_t nconfigs, const unsigned *runs)
{
	const struct study *s = ctx->s;
	size_t m = s->nobjectives, T = s->ntestbeds;

	memset(out, 0, sizeof(*out));
	out->nobjectives = m;
	out->ntestbeds = T;
	out->shift = xcalloc(m * T + 1, sizeof(*out->shift));
	out->n = xcalloc(m * T + 1, sizeof(*out->n));
	out->p = xcalloc(m + 1, sizeof(*out->p));
	out->adjusted = xcalloc(m + 1, sizeof(*out->adjusted));
	for (size_t o = 0; o < m; o++) {
		struct logs *per;

		out->p[o] = NAN;
		if (s->objectives[o].from_size || T < 2)
			continue;
		per = xcalloc(nconfigs + 1, sizeof(*per));
		for (size_t c = 0; c < nconfigs; c++)
			for (size_t k = 0; k < ctx->cfg_units[c]; k++)
				run_each_sample(ctx, &units[ctx->cfg_first[c] + k], &s->objectives[o],
						runs ? runs[c] : UINT_MAX, add_log, &per[c]);
		block_objective(out, o, per, nconfigs);
		for (size_t c = 0; c < nconfigs; c++) {
			free(per[c].y);
			free(per[c].t);
		}
		free(per);
	}
}

void run_block_release(struct run_block *b)
{
	free(b->shift);
	free(b->n);
	free(b->p);
	free(b->adjusted);
	memset(b, 0, sizeof(*b));
}

void run_summarize_testbeds(struct run_result *out, struct run_ctx *ctx, struct unit *units,
			    size_t nunits)
{
	const struct study *s = ctx->s;
	const struct testbed_record **ev;
	size_t nev = journal_testbed_records(ctx->j, &ev);

	out->ntestbeds = s->ntestbeds;
	out->testbeds = xcalloc(s->ntestbeds + 1, sizeof(*out->testbeds));
	for (size_t t = 0; t < s->ntestbeds; t++) {
		struct run_testbed *rt = &out->testbeds[t];

		rt->name = xstrdup(s->testbeds[t]);
		rt->quarantined = ctx->tb && atomic_load(&ctx->tb[t].quarantined);
		for (size_t i = 0; i < nunits; i++) {
			const struct measure_record **recs;
			size_t n = journal_measures(ctx->j, units[i].key, s->testbeds[t], &recs);

			for (size_t k = 0; k < n; k++) {
				if (!run_record_current(ctx, recs[k]))
					continue;
				if (recs[k]->ok)
					rt->measured++;
				else
					rt->failed++;
			}
			free(recs);
		}
		for (size_t i = 0; i < nev; i++) {
			if (strcmp(ev[i]->testbed, rt->name))
				continue;
			switch (ev[i]->event) {
			case TB_DEPLOY:
				rt->deploys++;
				break;
			case TB_BOOT_FAILED:
				rt->boot_failures++;
				break;
			case TB_RECOVER:
				rt->recoveries++;
				break;
			case TB_FAULT:
				rt->faults++;
				break;
			case TB_REBOOT:
				rt->reboots++;
				break;
			case TB_QUARANTINE:
				if (rt->quarantined) {
					free(rt->why);
					rt->why = xstrdup(ev[i]->error ? ev[i]->error : "");
				}
				break;
			default:
				break;
			}
		}
	}
	free(ev);
}
