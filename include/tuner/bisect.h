/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect: the search of tuner bisect over a range of commits (pure: no
 * I/O, no measurement).
 *
 * The search is git bisect's (git's bisect.c): the candidates are the
 * commits that are ancestors of the lowest commit known bad (itself
 * included) and of no commit known good; the next commit to measure is the
 * candidate c that maximizes min(w(c), N - w(c)), w(c) the number of
 * candidates that are ancestors of c (c included), N the number of
 * candidates. On a line of commits that is binary search (Knuth, "The Art
 * of Computer Programming", vol. 3, 6.2.1: about log2(N) measured
 * commits); on a graph with merges it halves the candidates either way.
 * It assumes what git bisect assumes: a descendant of a bad commit is bad,
 * an ancestor of a good one good, so the first bad commit is a bad commit
 * whose parents are all good.
 *
 * A commit that changed nothing below the study's path
 * (gitsrc_commit.unchanged) builds exactly like its first parent, so it is
 * never the first bad commit and never a candidate. A skipped commit (one
 * that could not be built or measured) stays a candidate but is never
 * picked; when only skipped commits and the bad one remain, the first bad
 * commit is one of them, as with `git bisect skip`.
 *
 * How a measured commit is classified: bisect_classify().
 */
#ifndef TUNER_BISECT_H
#define TUNER_BISECT_H

#include <stddef.h>
#include <stdint.h>

#include "tuner/gitsrc.h"

enum bisect_mark { BISECT_UNKNOWN, BISECT_GOOD, BISECT_BAD, BISECT_SKIP };

/* The ancestor closure takes n^2 / 8 bytes: 50 MB at this size. */
#define BISECT_MAX_COMMITS 20000

struct bisect {
	size_t n, words;     /* commits; 64-bit words per bit set */
	uint64_t *anc;       /* n rows: the ancestors of commit i in the
	                        range, i included */
	uint64_t *good;      /* the commits known or implied good */
	uint64_t *changed;   /* the commits that may be the first bad one */
	unsigned char *mark; /* enum bisect_mark, as set */
	size_t bad;          /* the lowest commit known bad */
};
#define BISECT_INIT { .n = 0, .words = 0, .anc = NULL, .good = NULL, .changed = NULL, \
		      .mark = NULL, .bad = 0 }

/*
 * Starts a search over r->commits (parents before children, the last one
 * bad; gitsrc_range()). When bad is unchanged, its first-parent line back
 * to the first commit that changed something stands for it. 0, or -1 with
 * a message when the range is empty or has more than BISECT_MAX_COMMITS
 * commits. Release with bisect_release().
 */
int bisect_init(struct bisect *out, const struct gitsrc_range *r);
void bisect_release(struct bisect *b);

/*
 * Records the verdict on commit i, a candidate: BISECT_GOOD (its
 * ancestors too), BISECT_BAD (it becomes the lowest bad commit) or
 * BISECT_SKIP.
 */
void bisect_set(struct bisect *b, size_t i, enum bisect_mark m);

/*
 * The candidates, oldest first, into out (room for b->n; NULL: only
 * count them); returns their number. One candidate left (the lowest bad commit) names the first bad
 * commit.
 */
size_t bisect_candidates(const struct bisect *b, size_t *out);

/*
 * The next commit to measure: 1 with *out set (and *below, when not NULL,
 * to w(c): the candidates it would settle if bad), or 0 when no candidate
 * but the lowest bad commit is left unskipped: the search is over.
 */
int bisect_next(const struct bisect *b, size_t *out, size_t *below);

/*
 * The verdict on a commit m from its judgements against good and against
 * bad by the rule of tuner compare (stats_significant(): Welch's t and the
 * rank test both reject) at two levels (struct bisect_alpha), each +1 (m
 * significantly better), -1 (worse) or 0: vs_good[0] and vs_bad[0] at
 * alpha.differ (m differs), vs_good[1] and vs_bad[1] at alpha.contradict
 * (m contradicts). dir is bad's verdict against good (+1 or -1), the
 * change being bisected.
 *   bad   m differs from good in dir's direction and does not contradict
 *         being bad (no difference from bad at the contradiction level);
 *   good  m differs from bad against dir's direction and does not
 *         contradict being good;
 * one of them holding: BISECT_BAD or BISECT_GOOD; neither or both:
 * BISECT_UNKNOWN (unclear), *why (static) saying why: m differs from
 * neither (too little data), lies between good and bad (a change in
 * steps?), or outside them.
 */
enum bisect_mark bisect_classify(const char **why, const int vs_good[2], const int vs_bad[2],
				 int dir);

/*
 * The two levels of the rule for a search over n candidates, where a
 * commit may be judged `looks` times (K doubling up to --max-layout):
 * with S = ceil(log2(n + 1)), the steps of a binary search,
 *   differ     = 0.05 / S          (each step claims one difference),
 *   contradict = 0.05 / (S looks)  (each look at the side m equals can
 *                                   contradict falsely).
 * Bonferroni bounds (C. E. Bonferroni, 1936; O. J. Dunn, "Multiple
 * comparisons among means", JASA 56, 1961): over a whole bisect, a false
 * difference and a false contradiction each happen with probability at
 * most 5%. A false difference misleads only together with a missed true
 * one (then the verdict is unclear, and K grows); a false contradiction
 * stops the bisect unclear at the most K. Either way no layout shift is
 * blamed without both tests agreeing.
 */
struct bisect_alpha {
	double differ, contradict;
};
void bisect_alphas(struct bisect_alpha *out, size_t n, unsigned looks);

/*
 * Layout seeds for one side of a two-sided test at alpha to find a
 * difference `effect` with probability `power`, when one seed's mean has
 * standard deviation sd (same units as effect) and the other side has
 * `other` seeds (0: as many as this side). The normal-approximation sample
 * size for two means (J. Cohen, "Statistical Power Analysis for the
 * Behavioral Sciences", 2nd ed., 1988, ch. 2): the standard error
 * sd sqrt(1/n + 1/other) must be at most effect / (z(1 - alpha/2) +
 * z(power)), so n = 2 (z sd / effect)^2 with equal sides, 1 / ((effect /
 * (z sd))^2 - 1/other) otherwise; plus 2 for the t test's few degrees of
 * freedom, rounded up. At least 2; UINT32_MAX when effect is 0 or not
 * finite, or the other side alone is too few.
 */
unsigned bisect_plan_layout(double effect, double sd, double alpha, double power,
			    unsigned other);

#endif
