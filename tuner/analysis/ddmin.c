/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ddmin: delta debugging's minimization (see ddmin.h). */
#include <stdlib.h>
#include <string.h>

#include "tuner/ddmin.h"
#include "tuner/util.h"

/* Part i of g near-equal parts of set[0..n): [lo, hi). */
static void part(size_t *lo, size_t *hi, size_t n, size_t g, size_t i)
{
	*lo = n * i / g;
	*hi = n * (i + 1) / g;
}

/*
 * Tests the g parts (complement 0) or the g complements (1) of set[0..n);
 * returns the index of the first failing one, g when none fails, or -1.
 */
static long try_step(const size_t *set, size_t n, size_t g, int complement, dd_test_fn test,
		     void *ctx)
{
	size_t **sets = xcalloc(g, sizeof(*sets)), *sizes = xcalloc(g, sizeof(*sizes));
	enum dd_outcome *res = xcalloc(g, sizeof(*res));
	long found = -1;

	for (size_t i = 0; i < g; i++) {
		size_t lo, hi, k = 0;

		part(&lo, &hi, n, g, i);
		sets[i] = xcalloc(n, sizeof(**sets));
		for (size_t j = 0; j < n; j++)
			if ((j >= lo && j < hi) != complement)
				sets[i][k++] = set[j];
		sizes[i] = k;
	}
	if (test(ctx, (const size_t *const *)sets, sizes, g, res) < 0)
		goto out;
	found = (long)g;
	for (size_t i = 0; i < g; i++) {
		if (res[i] == DD_FAIL) {
			found = (long)i;
			break;
		}
	}
out:
	for (size_t i = 0; i < g; i++)
		free(sets[i]);
	free(sets);
	free(sizes);
	free(res);
	return found;
}

int ddmin(size_t **out, size_t *nout, size_t n, dd_test_fn test, void *ctx)
{
	size_t *set = xcalloc(n, sizeof(*set)), g = 2;
	long f;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < n; i++)
		set[i] = i;
	while (n >= 2) {
		size_t lo, hi, k = 0;

		if (g > n)
			g = n;
		f = try_step(set, n, g, 0, test, ctx);
		if (f < 0)
			goto fail;
		if ((size_t)f < g) {
			part(&lo, &hi, n, g, (size_t)f);
			memmove(set, set + lo, (hi - lo) * sizeof(*set));
			n = hi - lo;
			g = 2;
			continue;
		}
		/* With two parts the complements are the parts again. */
		f = g > 2 ? try_step(set, n, g, 1, test, ctx) : (long)g;
		if (f < 0)
			goto fail;
		if ((size_t)f < g) {
			part(&lo, &hi, n, g, (size_t)f);
			for (size_t j = 0; j < n; j++)
				if (j < lo || j >= hi)
					set[k++] = set[j];
			n = k;
			g = g - 1 > 2 ? g - 1 : 2;
			continue;
		}
		if (g >= n)
			break;
		g = 2 * g < n ? 2 * g : n;
	}
	*out = set;
	*nout = n;
	return 0;
fail:
	free(set);
	return -1;
}
