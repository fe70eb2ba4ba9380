/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bisect: git bisect's search over a range of commits (see bisect.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/bisect.h"
#include "tuner/stats.h"
#include "tuner/util.h"

static int has(const uint64_t *set, size_t i)
{
	return (set[i / 64] >> (i % 64)) & 1;
}

static void put(uint64_t *set, size_t i)
{
	set[i / 64] |= (uint64_t)1 << (i % 64);
}

static const uint64_t *row(const struct bisect *b, size_t i)
{
	return b->anc + i * b->words;
}

int bisect_init(struct bisect *out, const struct gitsrc_range *r)
{
	struct bisect b = BISECT_INIT;

	memset(out, 0, sizeof(*out));
	if (!r->n)
		return tn_error("no commits between good and bad");
	if (r->n > BISECT_MAX_COMMITS)
		return tn_error("%zu commits between good and bad, more than %d: bisect a narrower range or along first parents",
				r->n, BISECT_MAX_COMMITS);
	b.n = r->n;
	b.words = (r->n + 63) / 64;
	b.anc = xcalloc(b.n * b.words, sizeof(*b.anc));
	b.good = xcalloc(b.words, sizeof(*b.good));
	b.changed = xcalloc(b.words, sizeof(*b.changed));
	b.mark = xcalloc(b.n, 1);
	/* Parents come first, so their rows are complete. */
	for (size_t i = 0; i < b.n; i++) {
		uint64_t *a = b.anc + i * b.words;
		const struct gitsrc_commit *c = &r->commits[i];

		put(a, i);
		for (size_t k = 0; k < c->nparents; k++) {
			const uint64_t *p;

			if (c->parents[k] == GITSRC_OUTSIDE || c->parents[k] >= i)
				continue;
			p = row(&b, c->parents[k]);
			for (size_t w = 0; w < b.words; w++)
				a[w] |= p[w];
		}
		if (!c->unchanged)
			put(b.changed, i);
	}
	b.bad = b.n - 1;
	while (r->commits[b.bad].unchanged && r->commits[b.bad].nparents &&
	       r->commits[b.bad].parents[0] != GITSRC_OUTSIDE)
		b.bad = r->commits[b.bad].parents[0];
	put(b.changed, b.bad);
	b.mark[b.n - 1] = BISECT_BAD;
	b.mark[b.bad] = BISECT_BAD;
	*out = b;
	return 0;
}

void bisect_release(struct bisect *b)
{
	free(b->anc);
	free(b->good);
	free(b->changed);
	free(b->mark);
	memset(b, 0, sizeof(*b));
}

void bisect_set(struct bisect *b, size_t i, enum bisect_mark m)
{
	b->mark[i] = (unsigned char)m;
	if (m == BISECT_GOOD) {
		const uint64_t *a = row(b, i);
		for (size_t w = 0; w < b->words; w++)
			b->good[w] |= a[w];
	} else if (m == BISECT_BAD) {
		b->bad = i;
	}
}

/* Candidate: below the lowest bad, above every good, and changed. */
static int candidate(const struct bisect *b, size_t i)
{
	return has(row(b, b->bad), i) && !has(b->good, i) && has(b->changed, i);
}

size_t bisect_candidates(const struct bisect *b, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i <= b->bad; i++)
		if (candidate(b, i) && out)
			out[n++] = i;
		else if (candidate(b, i))
			n++;
	return n;
}

int bisect_next(const struct bisect *b, size_t *out, size_t *below)
{
	const uint64_t *top = row(b, b->bad);
	size_t *cand = xcalloc(b->n, sizeof(*cand));
	size_t n = bisect_candidates(b, cand), best = 0, best_w = 0;
	int found = 0;

	for (size_t k = 0; k < n; k++) {
		size_t c = cand[k], w = 0, score, best_score;
		const uint64_t *a = row(b, c);

		if (c == b->bad || b->mark[c] == BISECT_SKIP)
			continue;
		for (size_t j = 0; j < b->words; j++)
			w += (size_t)__builtin_popcountll(a[j] & top[j] & ~b->good[j] & b->changed[j]);
		score = w < n - w ? w : n - w;
		best_score = best_w < n - best_w ? best_w : n - best_w;
		/* Ties go to the older commit, so a line splits the same way
		 * every time. */
		if (!found || score > best_score) {
			best = c;
			best_w = w;
			found = 1;
		}
	}
	free(cand);
	if (found) {
		*out = best;
		if (below)
			*below = best_w;
	}
	return found;
}

enum bisect_mark bisect_classify(const char **why, const int vs_good[2], const int vs_bad[2],
				 int dir)
{
	int bad = vs_good[0] == dir && vs_bad[1] == 0;
	int good = vs_bad[0] == -dir && vs_good[1] == 0;

	*why = NULL;
	if (bad && !good)
		return BISECT_BAD;
	if (good && !bad)
		return BISECT_GOOD;
	if (vs_good[0] == 0 && vs_bad[0] == 0)
		*why = "significantly different from neither good nor bad (too few layout seeds to tell)";
	else if (vs_good[0] == dir && vs_bad[0] == -dir)
		*why = "significantly different from both: between good and bad (does the change come in more than one commit?)";
	else
		*why = "significantly outside the span from good to bad (another change in the range?)";
	return BISECT_UNKNOWN;
}

void bisect_alphas(struct bisect_alpha *out, size_t n, unsigned looks)
{
	unsigned steps = 1;

	while (steps < 64 && ((size_t)1 << steps) < n + 1)
		steps++;
	out->differ = 0.05 / steps;
	out->contradict = out->differ / (looks ? looks : 1);
}

unsigned bisect_plan_layout(double effect, double sd, double alpha, double power,
			    unsigned other)
{
	double z, n, room;

	if (!(fabs(effect) > 0) || !isfinite(effect) || !isfinite(sd))
		return UINT32_MAX;
	z = stats_normal_quantile(1 - alpha / 2) + stats_normal_quantile(power);
	if (!other) {
		n = 2 * z * z * (sd / effect) * (sd / effect);
	} else {
		room = (effect / (z * sd)) * (effect / (z * sd)) - 1.0 / other;
		if (!(room > 0))
			return UINT32_MAX;
		n = 1 / room;
	}
	n = ceil(n + 2);
	if (n > UINT32_MAX)
		return UINT32_MAX;
	return n < 2 ? 2 : (unsigned)n;
}
