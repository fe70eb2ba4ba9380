/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pareto: the non-dominated set of points under several objectives, with
 * hard limits; the same under measurement noise; and, for the search
 * strategies, dominance and ranks of minimised points under noise and
 * their hypervolume. Pure.
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
	int exact;    /* pareto_front_noisy(): compare the values exactly,
	                 never under noise (a size in bytes) */
};

/* 1 when value v breaks o's hard limit (never when o has none). */
int pareto_breaks_limit(const struct pareto_obj *o, double v);

/* values: npoints rows of nobjs doubles. out_front[i] = 1 if point i is on
 * the front, else 0. out_feasible (may be NULL) gets feasibility. Returns the
 * number of points on the front. */
size_t pareto_front(int *out_front, int *out_feasible, const double *values,
		    size_t npoints, const struct pareto_obj *objs, size_t nobjs);

/* ---- Under noise ---- */

/*
 * The repeated measurements of one point on one objective: x[0..n), where
 * x[i] was measured on a build with layout seed cluster[i] (cluster NULL:
 * all on one build). Non-finite samples are skipped.
 */
struct pareto_samples {
	const double *x;
	const unsigned *cluster;
	size_t n;
};

/* How point j compares with point i on one objective, seen from j. */
enum pareto_rel {
	PARETO_UNRESOLVED = 0, /* within noise: the interval holds 0 */
	PARETO_BETTER,         /* significantly (or, exact, strictly) better */
	PARETO_WORSE,
	PARETO_EQUAL           /* exactly equal (exact or constant samples) */
};

struct pareto_verdict {
	int feasible;     /* by the values, as pareto_front() */
	int on_front;     /* feasible and not significantly dominated */
	/*
	 * On the front, but some feasible point dominates its values: the
	 * difference is within noise. tied_with[0..ntied) are those points'
	 * indices (malloced, NULL when ntied is 0).
	 */
	int tied;
	size_t ntied;
	size_t *tied_with;
	/*
	 * More samples could not change on_front (the racing rule): it is
	 * infeasible, or significantly dominated, or it is on the front and
	 * (1) no feasible point could still come to dominate it (against each
	 * one it is significantly or exactly better in some objective), and
	 * (2) it could not itself still come to dominate a point now on the
	 * front (its samples are not needed to settle that point).
	 */
	int settled;
};

/*
 * The front under noise (issue 4). values: npoints rows of nobjs point
 * estimates (e.g. trimmed means), used for feasibility, for objectives
 * compared exactly, and for ties. samples: npoints rows of nobjs sample
 * sets.
 *
 * For each pair of points and objective, the difference is tested at
 * confidence `level` (e.g. 0.95) with stats_compare_clustered(): Welch's t
 * test on the layout-seed means when both points have >= 2 layout seeds,
 * else Welch on the raw samples; b is significantly better when the
 * interval of the difference excludes 0 on its side. An objective is
 * compared exactly on the values when objs[k].exact is set, or when no
 * point has two different finite samples of it (no noise was seen:
 * deterministic, or a single sample per point, which cannot estimate
 * noise); out_noisy[k] (NULL ok) says which objectives were tested under
 * noise.
 *
 * j significantly dominates i when j is feasible and, in every objective,
 * significantly better or exactly equal, and better in one. A point is on
 * the front when feasible and no point significantly dominates it; a
 * dominance within noise leaves both on the front, the dominated one
 * marked tied. See struct pareto_verdict for settled.
 *
 * Fills out[0..npoints) (release with pareto_verdicts_release()); returns
 * the number of points on the front. Time O(npoints^2 nobjs) tests (only
 * between feasible points), memory npoints^2 nobjs bytes.
 */
size_t pareto_front_noisy(struct pareto_verdict *out, int *out_noisy,
			  const double *values, const struct pareto_samples *samples,
			  size_t npoints, const struct pareto_obj *objs, size_t nobjs,
			  double level);

/* Frees the tied_with arrays of v[0..n) (not v). */
void pareto_verdicts_release(struct pareto_verdict *v, size_t n);

/* ---- Minimised points: dominance under noise, ranks, hypervolume ---- */

/*
 * Constraint domination under noise (Deb 2000, with measured means): a
 * feasible point beats an infeasible one; two infeasible ones compare by
 * violation; two feasible ones by Pareto dominance where objective k
 * counts as better only when the difference exceeds z * sqrt(se_a^2 +
 * se_b^2) (z = 2; exact when sea or seb is NULL or both are 0). ya, yb: m
 * minimised values; viola, violb: 0 feasible, > 0 how far from feasible.
 * 1: a dominates b, -1: b dominates a, 0: neither.
 */
int pareto_dominates(const double *ya, const double *sea, double viola, const double *yb,
		     const double *seb, double violb, size_t m);

/* Non-dominated sorting (Deb et al. 2002) by pareto_dominates(): rank[i]
 * (n, the caller's) = 0 for the first front, 1 for the next... of n points
 * (y rows of m, se rows or NULL, viol n). */
void pareto_rank(int *rank, const double *y, const double *se, const double *viol, size_t n,
		 size_t m);

/*
 * Hypervolume of the points pts[0 .. n) (rows of m values, every objective
 * minimised) dominated within the box up to ref (m values): the Lebesgue
 * measure of the union of [p, ref]. Points not strictly below ref in
 * every objective add nothing. Exact: a sweep for m <= 2, slicing by the
 * last objective above (fine for fronts of a few hundred points).
 */
double pareto_hypervolume(const double *pts, size_t n, size_t m, const double *ref);

/* Sorts pts (n rows of m) into the order pareto_hypervolume_gain() needs:
 * when m == 2, by the first objective, then the second; otherwise leaves
 * them as they are. */
void pareto_hypervolume_order(double *pts, size_t n, size_t m);

/*
 * pareto_hypervolume() of front[0 .. nf) with y added, less base (the
 * front's own hypervolume), never below 0 (rounding leaves a point on the
 * front a tiny negative gain). front: rows of m in
 * pareto_hypervolume_order(), with room for one more row (m > 2 writes y
 * there). One sweep when m == 2.
 */
double pareto_hypervolume_gain(double *front, size_t nf, const double *y, size_t m,
			       const double *ref, double base);

#endif
