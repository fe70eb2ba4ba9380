/*
 * pareto: the non-dominated set of points under several objectives, with
 * hard limits. Pure.
 *
 * Point a dominates b when a is at least as good in every objective and
 * strictly better in one (Deb, "Multi-Objective Optimization using
 * Evolutionary Algorithms", 2001, ch. 2). A point with a NaN value, or that
 * breaks a hard limit, is infeasible: it is never on the front and does not
 * dominate anything. Equal points are all on the front.
 */
#ifndef TUNER_PARETO_H
#define TUNER_PARETO_H

#include <stddef.h>

struct pareto_obj {
	int maximize;
	int has_limit;
	double limit; /* maximize: feasible iff value >= limit; else <= limit */
};

/* values: npoints rows of nobjs doubles. out_front[i] = 1 if point i is on
 * the front, else 0. out_feasible (may be NULL) gets feasibility. Returns the
 * number of points on the front. */
size_t pareto_front(int *out_front, int *out_feasible, const double *values,
		    size_t npoints, const struct pareto_obj *objs, size_t nobjs);

#endif
