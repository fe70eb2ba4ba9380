/* pareto: see include/tuner/pareto.h */
#include "tuner/pareto.h"

#include <math.h>
#include <stdlib.h>

#include "tuner/util.h"

static int feasible(const double *v, const struct pareto_obj *objs, size_t nobjs)
{
	for (size_t k = 0; k < nobjs; k++) {
		if (isnan(v[k]))
			return 0;
		if (!objs[k].has_limit)
			continue;
		if (objs[k].maximize ? v[k] < objs[k].limit : v[k] > objs[k].limit)
			return 0;
	}
	return 1;
}

/* 1 if a dominates b; both feasible, so no NaN reaches the comparisons. */
static int dominates(const double *a, const double *b,
		     const struct pareto_obj *objs, size_t nobjs)
{
	int strictly = 0;

	for (size_t k = 0; k < nobjs; k++) {
		/* Compare rather than subtract: inf - inf would be NaN. */
		if (objs[k].maximize ? a[k] < b[k] : a[k] > b[k])
			return 0;
		if (objs[k].maximize ? a[k] > b[k] : a[k] < b[k])
			strictly = 1;
	}
	return strictly;
}

size_t pareto_front(int *out_front, int *out_feasible, const double *values,
		    size_t npoints, const struct pareto_obj *objs, size_t nobjs)
{
	int *ok = xmalloc(npoints * sizeof(*ok));
	size_t count = 0;

	for (size_t i = 0; i < npoints; i++) {
		ok[i] = feasible(values + i * nobjs, objs, nobjs);
		if (out_feasible)
			out_feasible[i] = ok[i];
	}

	/*
	 * The plain pairwise check, O(n^2 m): a study has at most a few
	 * thousand evaluated points, where this takes milliseconds and is
	 * obviously right; Kung's or Jensen's algorithms would not pay back
	 * their subtlety.
	 */
	for (size_t i = 0; i < npoints; i++) {
		out_front[i] = ok[i];
		for (size_t j = 0; j < npoints && out_front[i]; j++) {
			if (j == i || !ok[j])
				continue;
			if (dominates(values + j * nobjs, values + i * nobjs, objs, nobjs))
				out_front[i] = 0;
		}
		count += (size_t)out_front[i];
	}
	free(ok);
	return count;
}
