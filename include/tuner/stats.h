/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats: summaries, confidence intervals and two-sample tests of repeated
 * measurements. Pure: no I/O; randomness only from a caller's seeded
 * struct rng, so every result is reproducible from its seed.
 *
 * Samples that are not finite (NaN: a failed measurement; +-inf) are
 * skipped by every function here, as stats_summarize() does; the counts in
 * the results say how many were used. Nothing here allocates memory the
 * caller has to free.
 *
 * Why these methods: a router's throughput varies about 0.5% from run to
 * run and 2..4% from the code layout an unrelated commit happens to give
 * (issue 4). Run noise is averaged away by repeats; layout noise is not,
 * because every repeat of one build shares its layout. So the unit of
 * replication for "is b faster than a" is the layout seed, and the
 * clustered comparison below treats it as a random effect.
 */
#ifndef TUNER_STATS_H
#define TUNER_STATS_H

#include <stddef.h>

struct rng;

struct summary {
	size_t n;      /* finite samples used (NaNs are skipped) */
	double median; /* NaN when n == 0 */
	double mean;
	double trimmed_mean; /* mean without one min and one max when n >= 3 */
	double stddev; /* sample standard deviation (n-1); 0 when n < 2 */
	double min, max;
};

/* Summarizes x[0..n). Does not modify x. */
void stats_summarize(struct summary *out, const double *x, size_t n);

/* ---- Distributions (tuner/analysis/stats_dist.c) ---- */

/*
 * Standard normal CDF, 0.5 erfc(-x/sqrt 2): accurate to the last bits in
 * both tails.
 */
double stats_normal_cdf(double x);

/*
 * Standard normal quantile, the inverse of stats_normal_cdf() for p in
 * (0, 1); -inf at 0, +inf at 1, NaN outside [0, 1]. Acklam's rational
 * approximation (P. J. Acklam, "An algorithm for computing the inverse
 * normal cumulative distribution function", 2003; relative error 1.15e-9)
 * refined by one Halley step on erfc, which brings the relative error
 * under 2e-14 from p = 1e-300 up.
 */
double stats_normal_quantile(double p);

/*
 * Student t CDF with df > 0 degrees of freedom (any real df, as Welch's
 * test needs). P(|T| > |t|) = I_x(df/2, 1/2) with x = df/(df + t^2), the
 * regularized incomplete beta function evaluated by its continued fraction
 * with the modified Lentz method (Press et al., "Numerical Recipes", 3rd
 * ed., 2007, sections 6.4 and 5.2; Abramowitz & Stegun 26.5.8, 26.7.1).
 * From df = 1e7 on, Fisher's expansion in 1/df (Metron 5, 1925) instead.
 * Against 50-digit references (df 0.3 .. 1e12, |t| up to 1e6): absolute
 * error below 1e-13; relative error in the tails below 1e-10, or 1e-8
 * for df >= 1e7 and |t| <= 8. df = +inf gives the normal CDF; NaN for
 * df <= 0 or NaN arguments.
 */
double stats_t_cdf(double t, double df);

/*
 * Student t quantile: the t with stats_t_cdf(t, df) = p, for p in (0, 1)
 * and df > 0; +-inf at p = 1 / 0, NaN otherwise. Closed forms for df = 1
 * and 2; otherwise Newton's method on the CDF, kept inside a bisection
 * bracket, from a Cornish-Fisher start (Abramowitz & Stegun 26.7.5).
 * Relative error below 1e-12 for p from 1e-12 to 1 - 1e-6 (below 1e-10
 * for df >= 1e7), e.g. t(0.975, 10) = 2.228138852.
 */
double stats_t_quantile(double p, double df);

/*
 * Upper tail of Fisher's F distribution with d1, d2 > 0 degrees of
 * freedom, P(F > f): I_x(d2/2, d1/2) with x = d2 / (d2 + d1 f), the same
 * incomplete beta as stats_t_cdf (Abramowitz & Stegun 26.6.2); the p-value
 * of an analysis of variance. 1 for f <= 0; NaN for NaN arguments or
 * d1, d2 <= 0. With d1 = 1 it equals the two-sided t tail at sqrt(f).
 */
double stats_f_sf(double f, double d1, double d2);

/*
 * A standard normal variate from r by the Box-Muller transform (Box &
 * Muller, "A note on the generation of random normal deviates", Ann. Math.
 * Stat. 29, 1958). Uses two draws of r per call and keeps no state (the
 * second variate of the pair is dropped), so the sequence depends only on
 * r's seed.
 */
double stats_normal(struct rng *r);

/* ---- Confidence intervals of one sample ---- */

struct stats_ci {
	size_t n;        /* finite samples used */
	double estimate; /* the mean (ci_t) or trimmed mean (bootstrap) */
	double lo, hi;   /* the interval; NaN when it cannot be computed */
};

/*
 * Student t interval for the mean of x[0..n) at confidence level (e.g.
 * 0.95): mean +- t(1 - (1-level)/2, n-1) * s / sqrt(n) ("Student", "The
 * probable error of a mean", Biometrika 6, 1908; e.g. Casella & Berger,
 * "Statistical Inference", 2nd ed., 2002, ch. 9).
 * Exact for normal samples, and close for the near-normal run noise of
 * repeated benchmarks. lo = hi = NaN when fewer than 2 finite samples or
 * level is not in (0, 1); estimate is NaN only when no finite sample.
 */
void stats_ci_t(struct stats_ci *out, const double *x, size_t n, double level);

#define STATS_BOOTSTRAP_RESAMPLES 2000

/*
 * Percentile bootstrap interval for the trimmed mean of x[0..n) (as in
 * struct summary: one min and one max dropped when n >= 3) at confidence
 * level: draws `resamples` samples of n with replacement using r, and takes
 * the (B alpha/2)-th and (B (1 - alpha/2))-th of the sorted resampled
 * trimmed means (Efron & Tibshirani, "An Introduction to the Bootstrap",
 * 1993, ch. 13). resamples 0 means STATS_BOOTSTRAP_RESAMPLES. Deterministic
 * for a given state of r, which it advances. Needs no normality, but with
 * n below about 10 the percentile interval is too narrow (coverage a few
 * points under level, a known weakness); prefer stats_ci_t() there.
 * lo = hi = NaN when fewer than 2 finite samples or level not in (0, 1).
 */
void stats_ci_bootstrap(struct stats_ci *out, const double *x, size_t n,
			double level, size_t resamples, struct rng *r);

/* ---- Two-sample comparisons: is b different from a? ---- */

struct stats_test {
	size_t na, nb;     /* units used: finite samples, or clusters */
	double level;      /* as asked; intervals NaN unless in (0, 1) */
	double diff;       /* estimate of b - a (see each test) */
	double diff_lo, diff_hi;
	/*
	 * The same as fractions of |mean a| (0.02 = b is 2% higher): diff and
	 * its interval divided by |mean a|, taken as known. Its own error is
	 * second order (its CV / sqrt(na), ~0.2% of rel at router noise), and
	 * this keeps "rel interval excludes 0" the same decision as "diff
	 * interval excludes 0". NaN when mean a is 0.
	 */
	double rel, rel_lo, rel_hi;
	double statistic;  /* Welch: t. Mann-Whitney: the normal score z */
	double u;          /* Mann-Whitney U of b (pairs b > a, ties 1/2); else NaN */
	double df;         /* Welch: Welch-Satterthwaite df; Mann-Whitney: inf */
	double p;          /* two-sided p-value; NaN when not computable */
	/*
	 * stats_compare_clustered() only (NaN elsewhere): the two-sided
	 * Mann-Whitney p-value on the same units as p (the cluster means, or
	 * the raw samples in the fallback), for stats_significant().
	 */
	double p_rank;
	/*
	 * stats_compare_clustered() only: 1 when a side had a single cluster
	 * (layout seed), so the test ran on raw samples and its p-value and
	 * interval know nothing of layout noise. Callers should warn.
	 */
	int layout_unreplicated;
};

/*
 * Welch's t test of mean b - mean a (B. L. Welch, "The generalization of
 * 'Student's' problem when several different population variances are
 * involved", Biometrika 34, 1947), with the Welch-Satterthwaite degrees of
 * freedom (F. E. Satterthwaite, "An approximate distribution of estimates
 * of variance components", Biometrics Bulletin 2, 1946): t = (mb - ma) / se,
 * se^2 = va/na + vb/nb, df = se^4 / ((va/na)^2/(na-1) + (vb/nb)^2/(nb-1)).
 * The interval is diff +- t(1 - (1-level)/2, df) * se. Needs na, nb >= 2
 * finite samples; otherwise every field but na, nb and level is NaN.
 * Both samples constant (se = 0): nothing is uncertain, so p = 0 and
 * t = +-inf if the means differ, p = 1 and t = 0 if equal; the interval is
 * [diff, diff] and df = na + nb - 2.
 */
void stats_welch(struct stats_test *out, const double *a, size_t na,
		 const double *b, size_t nb, double level);

/*
 * Mann-Whitney U test (Mann & Whitney, "On a test of whether one of two
 * random variables is stochastically larger than the other", Ann. Math.
 * Stat. 18, 1947), robust to outliers where Welch is not. Ties get mid
 * ranks; the p-value uses the normal approximation with the tie-corrected
 * variance na nb / 12 ((N+1) - sum(t^3 - t) / (N (N-1))) and a continuity
 * correction of 1/2 (Hollander & Wolfe, "Nonparametric Statistical
 * Methods", 2nd ed., 1999, 4.1). statistic is z > 0 when b tends larger.
 *
 * diff is the Hodges-Lehmann shift estimate, the median of the na*nb
 * differences b_j - a_i (Hodges & Lehmann, "Estimates of location based on
 * rank tests", Ann. Math. Stat. 34, 1963). Its interval is the
 * distribution-free one of Hollander & Wolfe 4.3 (Moses): the C-th
 * smallest and C-th largest differences, C from the exact null
 * distribution of U (counted as the coefficients of a Gaussian binomial,
 * exact while C(N, na) < 2^52, e.g. up to 27 against 27) or beyond from
 * its normal approximation (which from 20 against 20 to 27 against 27 is
 * the exact C or 1 below, the safe side). It covers the shift with at
 * least `level` probability when the two distributions differ only by a
 * shift and have no ties (ties make it approximate). When no C reaches
 * level (e.g. 3 against 3 at 0.95), the bounds are -inf and +inf: such
 * samples cannot bound the shift. Needs na, nb >= 1 finite samples
 * (else NaN like Welch); memory O(na nb), time O(na nb log(na nb)).
 */
void stats_mann_whitney(struct stats_test *out, const double *a, size_t na,
			const double *b, size_t nb, double level);

/*
 * Clustered comparison, layout seed as a random effect: a[i] was measured
 * on a build with layout seed a_cluster[i] (likewise b). Each side's samples
 * are averaged per cluster and Welch's t test runs on the cluster means
 * when each side has at least 2 clusters: repeats within one layout only
 * shrink the run noise of that layout's mean, never the layout offset, so
 * the clusters are the independent replicates (a two-stage analysis of
 * nested data; Searle, Casella & McCulloch, "Variance Components", 1992,
 * ch. 3, the one-way classification). Clusters weigh the same whatever
 * their number of samples; a cluster with no finite sample is ignored.
 * na and nb count clusters (samples in the fallback below). The price is
 * power: a cluster mean varies by layout_sd^2 + run_sd^2 / repeats, and
 * finding an effect d with 80% power at 5% takes about
 * 16 (layout_sd / d)^2 + 2 clusters a side: some 6 for d = 2 layout_sd,
 * 18 for d = layout_sd, 66 for d = layout_sd / 2.
 *
 * With fewer than 2 clusters on a side, it falls back to Welch on the raw
 * samples and sets layout_unreplicated = 1: the interval then covers run
 * noise only, and a layout offset (+-2..4% on a router) passes for an
 * effect. The two sides are not paired by seed: one seed gives unrelated
 * layouts to different flags.
 */
void stats_compare_clustered(struct stats_test *out,
			     const double *a, const unsigned *a_cluster, size_t na,
			     const double *b, const unsigned *b_cluster, size_t nb,
			     double level);

/*
 * The decision rule of tuner compare, blame and bisect: a difference is
 * claimed only when Welch's t (t->p) and the Mann-Whitney test on the same
 * units (t->p_rank) both reject at alpha. Rejecting only where both reject
 * is itself a test of size <= alpha (an intersection-union test: R. L.
 * Berger, "Multiparameter hypothesis testing and acceptance sampling",
 * Technometrics 24, 1982), so it is conservative: at 10 against 10 normal
 * samples it rejects 3.6% of the time under the null against Welch's 4.8%
 * (tests/unit/test_stats.c simulates it), and it loses little power (a 4
 * sd shift: 100% either way). Its reason is robustness: one outlier run (a
 * router's background job halving one iperf run) drags Welch's mean but
 * not the ranks, and a run of tied ranks cannot fake a shift Welch does
 * not see. With very few units (3 against 3 or fewer: complete separation
 * gives Mann-Whitney p >= 0.08) the rank test could never reject, and
 * Welch decides alone. Returns 1 when significant; 0 when not, or when a
 * p that decides is NaN.
 */
int stats_significant(const struct stats_test *t, double alpha);

/*
 * Measurement and layout spread of one configuration, by the one-way
 * random-effects analysis of variance (method of moments, the form for
 * unbalanced data; Searle, Casella & McCulloch 1992, ch. 3): with k
 * clusters and N samples, MSW = within-cluster mean square, MSB =
 * between-cluster mean square, n0 = (N - sum n_i^2 / N) / (k - 1), and
 *   within_sd  = sqrt(MSW)                         (run-to-run noise)
 *   between_sd = sqrt(max(0, (MSB - MSW) / n0))    (layout noise)
 * truncated at 0 because the unbiased estimate can be negative.
 */
struct stats_spread {
	size_t n;          /* finite samples used */
	size_t clusters;   /* clusters with at least one finite sample */
	double mean;       /* mean of the cluster means; NaN when n == 0 */
	double within_sd;  /* NaN when no cluster has 2 samples (N == k) */
	double between_sd; /* NaN when k < 2 or within_sd is NaN */
};

void stats_layout_spread(struct stats_spread *out, const double *x,
			 const unsigned *cluster, size_t n);

/*
 * The pooled standard deviation of two sides (two configurations' spreads,
 * equal weights): sqrt((a^2 + b^2) / 2); the other one when one is NaN
 * (NaN when both are).
 */
double stats_pooled_sd(double a, double b);

/* ---- Groups and many tests (stats_anova.c) ---- */

struct stats_anova {
	size_t n, k;     /* observations used, groups */
	double f;        /* MSB / MSW */
	double df1, df2; /* k - 1, n - k */
	double p;        /* P(F(df1, df2) > f); NaN unless k >= 2 and n > k */
	double eta2;     /* SSB / SST, the share of the variance the groups explain */
};

/*
 * One-way analysis of variance of y[i] in groups group[i] (0..k-1; NaN
 * values and groups with none are skipped): Fisher's F test of equal group
 * means (R. A. Fisher, "Statistical Methods for Research Workers", 1925,
 * ch. VII; e.g. Montgomery, "Design and Analysis of Experiments", 8th ed.,
 * 2013, ch. 3), with eta squared as the effect size (Cohen, "Statistical
 * Power Analysis for the Behavioral Sciences", 2nd ed., 1988, 8.2). All
 * within-group sums of squares 0: p = 0 when the means differ, 1 when not.
 */
void stats_anova(struct stats_anova *out, const double *y, const size_t *group, size_t n);

/*
 * Benjamini-Hochberg adjusted p-values ("q-values": reject where q <= the
 * false discovery rate; Benjamini & Hochberg, "Controlling the false
 * discovery rate", JRSS B 57, 1995): q_(i) = min over j >= i of
 * p_(j) m / j for the m finite p-values; NaN stays NaN. q may be p.
 */
void stats_bh(double *q, const double *p, size_t n);

#endif
