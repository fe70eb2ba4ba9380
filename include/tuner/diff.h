/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diff: two results of one configuration (B against A: another compiler,
 * another kernel version) compared from their summaries, without the
 * samples (tuner diff; benchstat's role). Pure: no I/O.
 *
 * Each side is a value (the trimmed mean the run used), its standard
 * error and the degrees of freedom of that error (results.h: layout
 * seeds - 1 when there are several, for they are the unit; else samples
 * - 1). The change is relative to A,
 *   rel = (b - a) / |a|                     (0.031 = B is 3.1% higher)
 * with the standard error of the delta method (as effects.h),
 *   s = sqrt(se_b^2 + (b/a)^2 se_a^2) / |a|,
 * and the interval rel +- t(1 - (1 - level)/2, df) s, df by Welch and
 * Satterthwaite from the two terms (B. L. Welch, Biometrika 34, 1947;
 * F. E. Satterthwaite, Biometrics Bulletin 2, 1946), as stats_welch()
 * does with samples: on two layout seeds a side that is wide, and says
 * so. Where both errors are 0 and known to be (an exact objective: a
 * size, a model's count; or samples that never varied), the change is
 * exact: [rel, rel]. A side with one sample of a noisy objective has an
 * error of 0 that knows nothing of the noise: no interval, said so.
 * Nothing here squares a value or an error as it is: the test is made on
 * the values divided by the larger of |a| and |b|, and the sums of
 * variances (Welch-Satterthwaite's squares of them too) relative to their
 * largest term, so any finite values give the right verdict and an
 * interval (62 -> 1e100 is "worse" for a minimized objective, not an
 * interval of NaNs); a change or bound beyond a double is infinite.
 *
 * The verdict follows the objective's goal: "better" or "worse" when the
 * interval excludes 0 on that side, "no clear change" when it holds 0,
 * "no change" when exact and equal. Nothing corrects for the number of
 * configurations: of N without a change, about N (1 - level) look
 * changed by chance (struct diff_summary says how many that is).
 */
#ifndef TUNER_DIFF_H
#define TUNER_DIFF_H

#include <stddef.h>

/* One side: a configuration's objective in one results directory. */
struct diff_side {
	double value; /* NaN: none (failed, not measured) */
	double se;    /* its standard error; NaN: unknown */
	double df;    /* of se: units - 1; 0 for one sample */
};

enum diff_verdict {
	DIFF_BETTER,
	DIFF_WORSE,
	DIFF_UNCLEAR,     /* the interval holds 0 */
	DIFF_SAME,        /* exact and equal */
	DIFF_NO_INTERVAL, /* a side has one sample of a noisy objective */
	DIFF_MISSING,     /* a side has no value, or A's is 0 */
};

struct diff_est {
	double rel;     /* (b - a) / |a|; NaN when missing */
	double lo, hi;  /* the interval; NaN when none */
	double df;      /* of its t quantile; +inf when exact, NaN when none */
	int exact;      /* no noise on either side: lo = hi = rel */
	enum diff_verdict verdict;
};

/*
 * B against A at confidence level (e.g. 0.95). exact: the objective
 * has no noise (a size, a model's value), so an error of 0 is known to be
 * 0 even from one sample. maximize: its goal (which side is better).
 */
void diff_compare(struct diff_est *out, const struct diff_side *a, const struct diff_side *b,
		  int exact, int maximize, double level);

/* One configuration's comparison, for diff_summarize(). */
struct diff_item {
	struct diff_side a, b;
	struct diff_est est; /* diff_compare()'s */
	/* Its measurements are another item's on both sides (builds of the
	 * same code, measured once): counted in the verdicts, left out of the
	 * geometric mean, which would count one measurement twice. */
	int shared;
};

/*
 * What changed over items[0..n) of one objective. The geometric mean of
 * b/a over the items not shared and with both values > 0, minus 1, with
 * its interval from their standard errors on the log scale: mean L +- t
 * sqrt(sum v_i) / m, L_i = ln(b_i/a_i), v_i = (se_a/a)^2 + (se_b/b)^2,
 * df by Welch-Satterthwaite over every term. The configurations are the
 * population (the study's space or its sample), so only the noise is
 * uncertain, not which configurations were chosen. No interval when an
 * item of the mean has none.
 */
struct diff_summary {
	size_t n;                    /* items */
	size_t count[DIFF_MISSING + 1]; /* per verdict */
	size_t ngeo;                 /* items in the geometric mean */
	double geo, geo_lo, geo_hi;  /* fractions (-0.05: 5% lower); NaN when none */
	size_t geo_no_interval;      /* of them, items without an interval */
	/* Items with an interval that is not exact, times 1 - level: about
	 * how many of them look changed by chance alone, where none is. */
	double chance;
};
void diff_summarize(struct diff_summary *out, const struct diff_item *items, size_t n,
		    double level);

/* For people: "better", "worse", "no clear change", "no change", "no
 * interval", "missing". */
const char *diff_verdict_word(enum diff_verdict v);
/* For programs: "better", "worse", "unclear", "same", "no-interval",
 * "missing". */
const char *diff_verdict_key(enum diff_verdict v);

#endif
