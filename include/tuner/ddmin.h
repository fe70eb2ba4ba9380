/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ddmin: delta debugging's minimizing algorithm (A. Zeller and R.
 * Hildebrandt, "Simplifying and Isolating Failure-Inducing Input", IEEE
 * Transactions on Software Engineering 28(2), 2002, fig. 4), over a set of
 * n changes numbered 0..n-1.
 *
 * Given that applying all n changes fails and applying none passes, it
 * returns a 1-minimal failing subset: applying it fails, and removing any
 * one of its changes no longer fails (as far as the test can tell). It
 * splits the current set into g parts (g = 2 at first), tests each part,
 * then each complement; a failing part becomes the set (g = 2), a failing
 * complement becomes the set (g = max(g - 1, 2)); when neither fails it
 * doubles g until g = |set|, then stops. A test may also be unresolved
 * (DD_UNRESOLVED), which counts as not failing.
 *
 * Tests of one step are asked for in one batch (all parts, then all
 * complements), so a caller can build and measure them in parallel; that
 * can cost a few tests that a one-at-a-time ddmin would skip. Results are
 * not cached here: the caller's test sees the same subset at most a few
 * times and keys its own cache by the subset.
 */
#ifndef TUNER_DDMIN_H
#define TUNER_DDMIN_H

#include <stddef.h>

enum dd_outcome { DD_PASS, DD_FAIL, DD_UNRESOLVED };

/*
 * Tests nsets subsets: set i is sets[i][0..sizes[i]) (indices ascending);
 * fills results[i]. Returns 0, or -1 to abort ddmin (e.g. interrupted).
 */
typedef int (*dd_test_fn)(void *ctx, const size_t *const *sets, const size_t *sizes,
			  size_t nsets, enum dd_outcome *results);

/*
 * Runs ddmin over changes 0..n-1 (n >= 1). On success *out is a malloced
 * ascending array of the minimal subset's indices (caller frees with
 * free()) and *nout its size (>= 1). The whole set is assumed to fail and
 * is not tested. Returns 0, or -1 when test returned -1 (*out NULL).
 */
int ddmin(size_t **out, size_t *nout, size_t n, dd_test_fn test, void *ctx);

#endif
