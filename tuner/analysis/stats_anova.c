/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats_anova: one-way analysis of variance and Benjamini-Hochberg
 * q-values (see include/tuner/stats.h). */
#include "tuner/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/util.h"

void stats_anova(struct stats_anova *out, const double *y, const size_t *group, size_t n)
{
	size_t k = 0, used = 0;
	double *sum, *cnt, grand = 0, ssb = 0, ssw = 0, sst;

	memset(out, 0, sizeof(*out));
	out->f = out->df1 = out->df2 = out->p = out->eta2 = NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(y[i]) && group[i] + 1 > k)
			k = group[i] + 1;
	sum = xcalloc(k + 1, sizeof(*sum));
	cnt = xcalloc(k + 1, sizeof(*cnt));
	for (size_t i = 0; i < n; i++)
		if (isfinite(y[i])) {
			sum[group[i]] += y[i];
			cnt[group[i]]++;
			grand += y[i];
			used++;
		}
	out->n = used;
	for (size_t g = 0; g < k; g++)
		out->k += cnt[g] > 0;
	if (!used)
		goto out;
	grand /= (double)used;
	/* Two passes: deviations from the means, not sums of squares less
	 * squared sums, which cancel when the values are large and close. */
	for (size_t g = 0; g < k; g++)
		if (cnt[g] > 0)
			ssb += cnt[g] * (sum[g] / cnt[g] - grand) * (sum[g] / cnt[g] - grand);
	for (size_t i = 0; i < n; i++)
		if (isfinite(y[i])) {
			double d = y[i] - sum[group[i]] / cnt[group[i]];

			ssw += d * d;
		}
	sst = ssb + ssw;
	out->eta2 = sst > 0 ? ssb / sst : 0;
	if (out->k < 2 || used <= out->k)
		goto out;
	out->df1 = (double)(out->k - 1);
	out->df2 = (double)(used - out->k);
	/* Differences below rounding of the values are no differences. */
	if (ssb <= 1e-24 * sst * (double)used || (ssw == 0 && ssb == 0)) {
		out->f = 0;
		out->p = 1;
	} else if (ssw <= 1e-24 * ssb) {
		out->f = INFINITY;
		out->p = 0;
	} else {
		out->f = (ssb / out->df1) / (ssw / out->df2);
		out->p = stats_f_sf(out->f, out->df1, out->df2);
	}
out:
	free(sum);
	free(cnt);
}

struct ranked {
	double p;
	size_t i;
};

static int by_p(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void stats_bh(double *q, const double *p, size_t n)
{
	struct ranked *r = xcalloc(n + 1, sizeof(*r));
	double *adj = xcalloc(n + 1, sizeof(*adj));
	double run = 1;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	qsort(r, m, sizeof(*r), by_p);
	for (size_t j = m; j-- > 0;) {
		double v = r[j].p * (double)m / (double)(j + 1);

		if (v < run)
			run = v;
		adj[j] = run;
	}
	for (size_t i = 0; i < n; i++)
		if (!isfinite(p[i]))
			q[i] = p[i];
	for (size_t j = 0; j < m; j++)
		q[r[j].i] = adj[j];
	free(r);
	free(adj);
}
