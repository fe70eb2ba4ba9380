/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats: see include/tuner/stats.h */
#include "tuner/stats.h"

#include <math.h>
#include <stdlib.h>

#include "tuner/util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double mean_of(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

void stats_summarize(struct summary *out, const double *x, size_t n)
{
	double *v = xmalloc(n * sizeof(*v));
	size_t m = 0;
	double ss = 0;

	/* Infinities are skipped with the NaNs: one would turn mean and
	 * stddev into NaN and say nothing about the other samples. */
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			v[m++] = x[i];

	out->n = m;
	out->stddev = 0;
	if (m == 0) {
		out->median = out->mean = out->trimmed_mean = NAN;
		out->min = out->max = NAN;
		goto out;
	}

	qsort(v, m, sizeof(*v), cmp_double);
	out->min = v[0];
	out->max = v[m - 1];
	out->median = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
	out->mean = mean_of(v, m);
	out->trimmed_mean = m >= 3 ? mean_of(v + 1, m - 2) : out->mean;

	/* Two passes: subtracting the mean first keeps the squares small, so
	 * close samples of a large value (e.g. 941.2 Mbit/s) lose no digits. */
	if (m >= 2) {
		for (size_t i = 0; i < m; i++)
			ss += (v[i] - out->mean) * (v[i] - out->mean);
		out->stddev = sqrt(ss / (double)(m - 1));
	}
out:
	free(v);
}

/* Copies the finite values of x[0..n) into a new array (caller frees). */
static size_t finite_copy(double **out, const double *x, size_t n)
{
	double *v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			v[m++] = x[i];
	*out = v;
	return m;
}

static int level_ok(double level)
{
	return level > 0 && level < 1;
}

void stats_ci_t(struct stats_ci *out, const double *x, size_t n, double level)
{
	struct summary s;
	double h;

	stats_summarize(&s, x, n);
	out->n = s.n;
	out->estimate = s.mean;
	out->lo = out->hi = NAN;
	if (s.n < 2 || !level_ok(level))
		return;
	h = stats_t_quantile((1 + level) / 2, (double)(s.n - 1)) * s.stddev /
	    sqrt((double)s.n);
	out->lo = s.mean - h;
	out->hi = s.mean + h;
}

/*
 * Trimmed mean of v[0..m) without sorting: dropping one min and one max is
 * the sum less those two, so each bootstrap resample costs O(m). Summing
 * deviations from `center` keeps close samples of a large value exact.
 */
static double trimmed_unsorted(const double *v, size_t m, double center)
{
	double sum = 0, lo = v[0] - center, hi = lo, d;

	for (size_t i = 0; i < m; i++) {
		d = v[i] - center;
		sum += d;
		if (d < lo)
			lo = d;
		if (d > hi)
			hi = d;
	}
	if (m < 3)
		return center + sum / (double)m;
	return center + (sum - lo - hi) / (double)(m - 2);
}

void stats_ci_bootstrap(struct stats_ci *out, const double *x, size_t n,
			double level, size_t resamples, struct rng *r)
{
	size_t nb = resamples ? resamples : STATS_BOOTSTRAP_RESAMPLES;
	double *v, *rs = NULL, *stat = NULL;
	size_t m = finite_copy(&v, x, n), k;
	struct summary s;

	stats_summarize(&s, v, m);
	out->n = m;
	out->estimate = s.trimmed_mean;
	out->lo = out->hi = NAN;
	if (m < 2 || !level_ok(level))
		goto out;

	rs = xmalloc(m * sizeof(*rs));
	stat = xmalloc(nb * sizeof(*stat));
	for (size_t b = 0; b < nb; b++) {
		for (size_t i = 0; i < m; i++)
			rs[i] = v[rng_below(r, m)];
		stat[b] = trimmed_unsorted(rs, m, s.mean);
	}
	qsort(stat, nb, sizeof(*stat), cmp_double);
	/* Efron & Tibshirani's (B alpha/2)-th value, counted from 1; the
	 * nudge keeps 1 - 0.9 = 0.0999.. from losing a whole rank. */
	k = (size_t)floor((double)nb * (1 - level) / 2 + 1e-9);
	if (k < 1)
		k = 1;
	out->lo = stat[k - 1];
	out->hi = stat[nb - k];
out:
	free(stat);
	free(rs);
	free(v);
}

static void test_init(struct stats_test *out, size_t na, size_t nb, double level)
{
	out->na = na;
	out->nb = nb;
	out->level = level;
	out->diff = out->diff_lo = out->diff_hi = NAN;
	out->rel = out->rel_lo = out->rel_hi = NAN;
	out->statistic = out->u = out->df = out->p = out->p_rank = NAN;
	out->layout_unreplicated = 0;
}

static void set_rel(struct stats_test *out, double mean_a)
{
	double s = fabs(mean_a);

	if (!(s > 0) || !isfinite(s))
		return;
	out->rel = out->diff / s;
	out->rel_lo = out->diff_lo / s;
	out->rel_hi = out->diff_hi / s;
}

/* Welch's test from the two samples' means and variances. */
static void welch_moments(struct stats_test *out, double ma, double va, size_t na,
			  double mb, double vb, size_t nb, double level)
{
	double sa, sb, se2, se, h;

	test_init(out, na, nb, level);
	if (na < 2 || nb < 2)
		return;
	out->diff = mb - ma;
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	if (se2 == 0) {
		out->df = (double)(na + nb - 2);
		out->statistic = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
		out->diff_lo = out->diff_hi = out->diff;
		goto out;
	}
	se = sqrt(se2);
	/* Shares of the variance, so that tiny variances cannot underflow
	 * when squared. */
	sa /= se2;
	sb /= se2;
	out->df = 1 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->statistic = out->diff / se;
	out->p = 2 * stats_t_cdf(-fabs(out->statistic), out->df);
	if (out->p > 1)
		out->p = 1;
	if (level_ok(level)) {
		h = stats_t_quantile((1 + level) / 2, out->df) * se;
		out->diff_lo = out->diff - h;
		out->diff_hi = out->diff + h;
	}
out:
	set_rel(out, ma);
}

void stats_welch(struct stats_test *out, const double *a, size_t na,
		 const double *b, size_t nb, double level)
{
	struct summary sa, sb;

	stats_summarize(&sa, a, na);
	stats_summarize(&sb, b, nb);
	welch_moments(out, sa.mean, sa.stddev * sa.stddev, sa.n,
		      sb.mean, sb.stddev * sb.stddev, sb.n, level);
}

struct obs {
	double v;
	int in_b;
};

static int cmp_obs(const void *a, const void *b)
{
	return cmp_double(&((const struct obs *)a)->v, &((const struct obs *)b)->v);
}

/*
 * U of b (pairs with b > a, ties counting 1/2) from mid ranks, and the
 * tie term sum(t^3 - t) of the variance.
 */
static double u_statistic(double *out_ties, const double *a, size_t na,
			  const double *b, size_t nb)
{
	size_t n = na + nb, i = 0, j;
	struct obs *all = xmalloc(n * sizeof(*all));
	double rank_b = 0, ties = 0, t;

	for (size_t k = 0; k < na; k++)
		all[k] = (struct obs){ a[k], 0 };
	for (size_t k = 0; k < nb; k++)
		all[na + k] = (struct obs){ b[k], 1 };
	qsort(all, n, sizeof(*all), cmp_obs);
	while (i < n) {
		for (j = i + 1; j < n && all[j].v == all[i].v; j++)
			;
		/* Positions i..j-1 share the mean of ranks i+1..j. */
		for (size_t k = i; k < j; k++)
			if (all[k].in_b)
				rank_b += (double)(i + 1 + j) / 2;
		t = (double)(j - i);
		ties += t * t * t - t;
		i = j;
	}
	free(all);
	*out_ties = ties;
	return rank_b - (double)nb * (double)(nb + 1) / 2;
}

/*
 * The C of the Hodges-Lehmann interval [D(C), D(M+1-C)]: the largest C
 * with 2 P(U <= C-1) <= 1 - level under the null, or 0 when even C = 1
 * is too wide a net. P(U <= c) is exact from the null counts of U, the
 * coefficients of the Gaussian binomial [m+n choose m]_q =
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i) (Andrews, "The Theory of
 * Partitions", 1976, ch. 3), kept exact in doubles while their total
 * C(m+n, m) stays below 2^52.
 */
static size_t hl_rank(size_t m, size_t n, double level)
{
	double half_alpha = (1 - level) / 2, total = 1, cum = 0, z, c;
	size_t mn = m * n, deg = 0, k, C = 0;
	double *cnt;

	if (m > n) {
		k = m;
		m = n;
		n = k;
	}
	for (size_t i = 1; i <= m && total < 0x1p52; i++)
		total = total * (double)(n + i) / (double)i;
	if (total >= 0x1p52) {
		/* Normal approximation with continuity correction. */
		z = stats_normal_quantile(1 - half_alpha);
		c = floor((double)mn / 2 + 0.5 -
			  z * sqrt((double)mn * (double)(m + n + 1) / 12));
		return c >= 1 ? (size_t)c : 0;
	}

	cnt = xcalloc(mn + m + 1, sizeof(*cnt));
	cnt[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		for (k = deg + n + i; k >= n + i; k--)
			cnt[k] -= cnt[k - n - i];
		for (k = i; k <= deg + n + i; k++)
			cnt[k] += cnt[k - i];
		deg += n;
	}
	for (k = 0; k <= mn; k++) {
		cum += cnt[k];
		if (cum / total > half_alpha)
			break;
		C = k + 1;
	}
	free(cnt);
	return C;
}

/* Hodges-Lehmann estimate and interval from all differences b_j - a_i. */
static void hodges_lehmann(struct stats_test *out, const double *a, size_t na,
			   const double *b, size_t nb, double level)
{
	size_t m = na * nb, C;
	double *d = xmalloc(m * sizeof(*d));

	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	qsort(d, m, sizeof(*d), cmp_double);
	out->diff = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
	if (level_ok(level)) {
		C = hl_rank(na, nb, level);
		out->diff_lo = C ? d[C - 1] : -INFINITY;
		out->diff_hi = C ? d[m - C] : INFINITY;
	}
	free(d);
}

void stats_mann_whitney(struct stats_test *out, const double *a, size_t na,
			const double *b, size_t nb, double level)
{
	double *va, *vb, ties, n, var, d;
	size_t ma = finite_copy(&va, a, na), mb = finite_copy(&vb, b, nb);

	test_init(out, ma, mb, level);
	out->df = INFINITY;
	if (ma < 1 || mb < 1)
		goto out;

	out->u = u_statistic(&ties, va, ma, vb, mb);
	n = (double)(ma + mb);
	var = (double)ma * (double)mb / 12 * ((n + 1) - ties / (n * (n - 1)));
	d = out->u - (double)ma * (double)mb / 2;
	/* The continuity correction moves |d| by 1/2 toward 0, not past. */
	d = fabs(d) <= 0.5 ? 0 : d - copysign(0.5, d);
	if (var > 0) {
		out->statistic = d / sqrt(var);
		out->p = erfc(fabs(out->statistic) / 1.41421356237309504880);
	} else {
		/* Every value tied: no evidence either way. */
		out->statistic = 0;
		out->p = 1;
	}
	hodges_lehmann(out, va, ma, vb, mb, level);
	set_rel(out, mean_of(va, ma));
out:
	free(va);
	free(vb);
}

struct cluster {
	unsigned id;
	size_t n;
	double mean;
	double ss; /* sum of squared deviations from the cluster mean */
};

struct tagged {
	unsigned id;
	double v;
};

static int cmp_tagged(const void *a, const void *b)
{
	const struct tagged *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return cmp_double(&x->v, &y->v);
}

/*
 * Groups the finite x[i] by cluster id into *out (caller frees; sorted by
 * id); returns the number of clusters. Sorting the values too makes the
 * sums independent of the input order.
 */
static size_t group_clusters(struct cluster **out, const double *x,
			     const unsigned *id, size_t n)
{
	struct tagged *t = xmalloc((n ? n : 1) * sizeof(*t));
	struct cluster *c = xmalloc((n ? n : 1) * sizeof(*c));
	size_t m = 0, k = 0, i = 0, j;

	for (size_t q = 0; q < n; q++)
		if (isfinite(x[q]))
			t[m++] = (struct tagged){ id[q], x[q] };
	qsort(t, m, sizeof(*t), cmp_tagged);
	while (i < m) {
		double sum = 0, ss = 0;

		for (j = i; j < m && t[j].id == t[i].id; j++)
			sum += t[j].v;
		c[k].id = t[i].id;
		c[k].n = j - i;
		c[k].mean = sum / (double)(j - i);
		for (size_t q = i; q < j; q++)
			ss += (t[q].v - c[k].mean) * (t[q].v - c[k].mean);
		c[k].ss = ss;
		k++;
		i = j;
	}
	free(t);
	*out = c;
	return k;
}

void stats_compare_clustered(struct stats_test *out,
			     const double *a, const unsigned *a_cluster, size_t na,
			     const double *b, const unsigned *b_cluster, size_t nb,
			     double level)
{
	struct cluster *ca, *cb;
	size_t ka = group_clusters(&ca, a, a_cluster, na);
	size_t kb = group_clusters(&cb, b, b_cluster, nb);
	double *ma = NULL, *mb = NULL;
	struct stats_test rank;

	if (ka < 2 || kb < 2) {
		stats_welch(out, a, na, b, nb, level);
		stats_mann_whitney(&rank, a, na, b, nb, level);
		out->layout_unreplicated = 1;
		goto out;
	}
	ma = xmalloc(ka * sizeof(*ma));
	mb = xmalloc(kb * sizeof(*mb));
	for (size_t i = 0; i < ka; i++)
		ma[i] = ca[i].mean;
	for (size_t i = 0; i < kb; i++)
		mb[i] = cb[i].mean;
	stats_welch(out, ma, ka, mb, kb, level);
	stats_mann_whitney(&rank, ma, ka, mb, kb, level);
out:
	out->p_rank = rank.p;
	free(ma);
	free(mb);
	free(ca);
	free(cb);
}

/* The smallest two-sided p-value Mann-Whitney can give na against nb
 * (complete separation, no ties) under its normal approximation. */
static double rank_p_min(size_t na, size_t nb)
{
	double m = (double)na * (double)nb;
	double z = (m / 2 - 0.5) / sqrt(m * (double)(na + nb + 1) / 12);

	return erfc(z / 1.41421356237309504880);
}

int stats_significant(const struct stats_test *t, double alpha)
{
	if (!(t->p < alpha))
		return 0;
	/* The rank test votes only where it could reject at all. */
	return rank_p_min(t->na, t->nb) >= alpha || t->p_rank < alpha;
}

void stats_layout_spread(struct stats_spread *out, const double *x,
			 const unsigned *cluster, size_t n)
{
	struct cluster *c;
	size_t k = group_clusters(&c, x, cluster, n), total = 0;
	double sum = 0, grand = 0, ssw = 0, msw, msb = 0, sq = 0, n0;

	for (size_t i = 0; i < k; i++) {
		total += c[i].n;
		sum += c[i].mean;
		grand += c[i].mean * (double)c[i].n;
		ssw += c[i].ss;
		sq += (double)c[i].n * (double)c[i].n;
	}
	out->n = total;
	out->clusters = k;
	out->mean = k ? sum / (double)k : NAN;
	out->within_sd = out->between_sd = NAN;
	if (total <= k)
		goto out;
	msw = ssw / (double)(total - k);
	out->within_sd = sqrt(msw);
	if (k < 2)
		goto out;
	grand /= (double)total;
	for (size_t i = 0; i < k; i++)
		msb += (double)c[i].n * (c[i].mean - grand) * (c[i].mean - grand);
	msb /= (double)(k - 1);
	/* n0 is the mean cluster size, corrected for unequal sizes. */
	n0 = ((double)total - sq / (double)total) / (double)(k - 1);
	out->between_sd = msb > msw ? sqrt((msb - msw) / n0) : 0;
out:
	free(c);
}

double stats_pooled_sd(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return sqrt((a * a + b * b) / 2);
}
