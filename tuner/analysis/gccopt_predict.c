/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gccopt_predict: which flag strings GCC is predicted to build, or to
 * train, alike (include/tuner/gccopt.h) */
#include "gccopt_priv.h"

#include <stdlib.h>
#include <string.h>

/*
 * The kinds GCC ignores under a size-optimising level: it aligns only
 * code it optimises for speed ("-falign-functions is ignored in cold
 * code, since it is an optimization intended to improve instruction
 * prefetch", GCC's -fmin-function-alignment change, 2024), and -Os / -Oz
 * optimise every function for size. Not -falign-labels: gcc 12 still
 * aligns labels at -Os (checked: arm-linux-gnueabihf-gcc 12.2, natbench's
 * fp_nat.c, fp_ct.c and fp_ip.c; -falign-functions, -jumps and -loops
 * left their .text byte-identical, -falign-labels=32 did not).
 */
static int ignored_at_size_level(const char *kind)
{
	return !strcmp(kind, "-falign-functions") || !strcmp(kind, "-falign-jumps") ||
	       !strcmp(kind, "-falign-loops");
}

char *gccopt_predicted(const char *flags, char **ignored)
{
	struct gccopt g;
	const struct gccopt_switch *o;
	int *skip;
	struct strbuf why = STRBUF_INIT;
	char *c;

	gccopt_parse(&g, flags, 1);
	skip = xcalloc(g.n + 1, sizeof(*skip));
	o = gccopt_last_of_kind(&g, "-O");
	if (o && (!strcmp(o->setting, "s") || !strcmp(o->setting, "z"))) {
		for (size_t i = 0; i < g.n; i++) {
			if (g.sw[i].winner != i || !ignored_at_size_level(g.sw[i].kind))
				continue;
			skip[i] = 1;
			if (why.len)
				strbuf_addch(&why, ' ');
			strbuf_addstr(&why, g.sw[i].word);
		}
	}
	c = gccopt_canonical_of(&g, skip);
	if (ignored)
		*ignored = strbuf_detach(&why);
	strbuf_release(&why);
	free(skip);
	gccopt_release(&g);
	return c;
}

/* One flag string of a leads search: its group, form and place. */
struct keyed {
	unsigned long group;
	const char *form;
	size_t index;
};

static int by_group_form_index(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	c = strcmp(a->form, b->form);
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

/*
 * The n strings sorted into buckets of equal group and form, each bucket
 * in index order, so that "the first earlier one with an equal form" is
 * looked for within a bucket, not among all n (a space at the run limits
 * has 10^5 of them). Caller frees with free().
 */
static struct keyed *buckets(char *const *form, const unsigned long *group, size_t n)
{
	struct keyed *k = xcalloc(n + 1, sizeof(*k));

	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){ group[i], form[i], i };
	qsort(k, n, sizeof(*k), by_group_form_index);
	return k;
}

static int same_bucket(const struct keyed *a, const struct keyed *b)
{
	return a->group == b->group && !strcmp(a->form, b->form);
}

void gccopt_predicted_leads(size_t *lead, char **ignored, const char *const *flags,
			    const unsigned long *group, size_t n)
{
	char **form = xcalloc(n + 1, sizeof(*form));
	struct keyed *k;

	for (size_t i = 0; i < n; i++) {
		form[i] = gccopt_predicted(flags[i], &ignored[i]);
		lead[i] = i;
	}
	/* A bucket's first one leads itself, and is the lead of every later
	 * one that ignores something. */
	k = buckets(form, group, n);
	for (size_t b = 0, e; b < n; b = e) {
		for (e = b + 1; e < n && same_bucket(&k[b], &k[e]); e++)
			if (*ignored[k[e].index])
				lead[k[e].index] = k[b].index;
	}
	for (size_t i = 0; i < n; i++) {
		if (lead[i] == i) {
			free(ignored[i]);
			ignored[i] = NULL;
		}
		free(form[i]);
	}
	free(k);
	free(form);
}

/*
 * The kinds GCC acts on only after it has instrumented the code for a
 * profile (-fprofile-generate): `gcc -O2 -fprofile-generate -fdump-passes`
 * (gcc 12) lists the instrumenting IPA pass "profile" before tree-ch2 and
 * ch_vect (loop header copying; tree-ch1 runs only inside OpenACC kernels),
 * rtl-bbro (block reordering) and rtl-alignments, and function alignment
 * is applied when the assembly is written. Switching them leaves the
 * instrumented control flow as it is, so training gives the same counts
 * unless the program's own behaviour depends on where its code lies.
 */
static int after_profile(const char *kind)
{
	static const char *const kinds[] = {
		"-freorder-blocks", "-freorder-blocks-algorithm", "-ftree-ch",
		"-falign-functions", "-falign-jumps", "-falign-loops", "-falign-labels", NULL
	};

	for (const char *const *k = kinds; *k; k++)
		if (!strcmp(kind, *k))
			return 1;
	return 0;
}

char *gccopt_profile_form(const char *flags)
{
	struct gccopt g;
	int *skip;
	char *c;

	gccopt_parse(&g, flags, 1);
	skip = xcalloc(g.n + 1, sizeof(*skip));
	for (size_t i = 0; i < g.n; i++)
		skip[i] = after_profile(g.sw[i].kind);
	c = gccopt_canonical_of(&g, skip);
	free(skip);
	gccopt_release(&g);
	return c;
}

/* The after-profile kinds whose settings in effect differ between a and b
 * (one set, the other not, counts), sorted and space-separated. */
static char *late_kinds_differing(const struct gccopt *a, const struct gccopt *b)
{
	char **k = xcalloc(a->n + b->n + 1, sizeof(*k));
	struct strbuf sb = STRBUF_INIT;
	size_t nk = 0;
	const struct gccopt *both[2] = { a, b };

	for (int side = 0; side < 2; side++) {
		const struct gccopt *g = both[side], *o = both[!side];

		for (size_t i = 0; i < g->n; i++) {
			const struct gccopt_switch *s = &g->sw[i], *t;
			int seen = 0;

			if (s->winner != i || !after_profile(s->kind))
				continue;
			t = gccopt_last_of_kind(o, s->kind);
			if (t && !strcmp(t->setting, s->setting))
				continue;
			for (size_t j = 0; j < nk && !seen; j++)
				seen = !strcmp(k[j], s->kind);
			if (!seen)
				k[nk++] = s->kind;
		}
	}
	qsort(k, nk, sizeof(*k), gccopt_cmp_str);
	for (size_t i = 0; i < nk; i++) {
		if (sb.len)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, k[i]);
	}
	free(k);
	return strbuf_detach(&sb);
}

void gccopt_profile_leads(size_t *lead, char **kinds, const char *const *flags,
			  const unsigned long *group, size_t n)
{
	char **form = xcalloc(n + 1, sizeof(*form));
	size_t *leads = xcalloc(n + 1, sizeof(*leads));
	struct keyed *k;

	for (size_t i = 0; i < n; i++) {
		form[i] = gccopt_profile_form(flags[i]);
		lead[i] = i;
		kinds[i] = NULL;
	}
	/* Within a bucket, in index order: each one's lead is the first
	 * earlier lead it differs from in some kind (leads[0..nl)). */
	k = buckets(form, group, n);
	for (size_t b = 0, e; b < n; b = e) {
		size_t nl = 0;

		for (e = b; e < n && same_bucket(&k[b], &k[e]); e++) {
			size_t i = k[e].index;
			struct gccopt bi;

			gccopt_parse(&bi, flags[i], 1);
			for (size_t l = 0; l < nl && lead[i] == i; l++) {
				struct gccopt a;
				char *kd;

				gccopt_parse(&a, flags[leads[l]], 1);
				kd = late_kinds_differing(&a, &bi);
				gccopt_release(&a);
				if (*kd) {
					lead[i] = leads[l];
					kinds[i] = kd;
				} else {
					free(kd);
				}
			}
			gccopt_release(&bi);
			if (lead[i] == i)
				leads[nl++] = i;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(form[i]);
	free(form);
	free(leads);
	free(k);
}
