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
