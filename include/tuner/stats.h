/*
 * stats: summaries of repeated measurements. Pure.
 */
#ifndef TUNER_STATS_H
#define TUNER_STATS_H

#include <stddef.h>

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

#endif
