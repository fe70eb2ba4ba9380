/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gccopt: see include/tuner/gccopt.h */
#include "tuner/gccopt.h"

#include <stdlib.h>
#include <string.h>

/* ---- words ---- */

struct words {
	char **v;
	size_t n, alloc;
};

static void push_word(struct words *w, char *s)
{
	ALLOC_GROW(w->v, w->n + 1, w->alloc);
	w->v[w->n++] = s;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* /bin/sh word splitting without expansion: quotes and backslashes. An
 * unterminated quote runs to the end of the line. */
static void split_shell(struct words *w, const char *s)
{
	struct strbuf cur = STRBUF_INIT;
	int in_word = 0;

	while (*s) {
		char c = *s++;

		if (is_space(c)) {
			if (in_word)
				push_word(w, strbuf_detach(&cur));
			in_word = 0;
			continue;
		}
		in_word = 1;
		if (c == '\\') {
			if (*s)
				strbuf_addch(&cur, *s++);
		} else if (c == '\'') {
			while (*s && *s != '\'')
				strbuf_addch(&cur, *s++);
			if (*s)
				s++;
		} else if (c == '"') {
			while (*s && *s != '"') {
				if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
					s++;
				strbuf_addch(&cur, *s++);
			}
			if (*s)
				s++;
		} else {
			strbuf_addch(&cur, c);
		}
	}
	if (in_word)
		push_word(w, strbuf_detach(&cur));
	strbuf_release(&cur);
}

/* GCC writes recorded switches unquoted: white space separates them. */
static void split_plain(struct words *w, const char *s)
{
	while (*s) {
		size_t n;

		while (is_space(*s))
			s++;
		n = 0;
		while (s[n] && !is_space(s[n]))
			n++;
		if (n)
			push_word(w, xstrndup(s, n));
		s += n;
	}
}

/* Switches whose argument may be the next word, and how the two join:
 * "-D X" is "-DX", "--param N=V" is "--param=N=V" (GCC's recorded form). */
static const struct {
	const char *opt;
	const char *glue;
} separate[] = {
	{ "-D", "" }, { "-U", "" }, { "-I", "" }, { "-o", "" }, { "-L", "" },
	{ "-x", "" }, { "-MF", "" }, { "-MT", "" }, { "-MQ", "" }, { "-T", "" },
	{ "-u", "" }, { "-z", "" }, { "-B", "" }, { "-l", "" },
	{ "--param", "=" }, { "-include", "=" }, { "-imacros", "=" },
	{ "-isystem", "=" }, { "-idirafter", "=" }, { "-iquote", "=" },
	{ "-iprefix", "=" }, { "-iwithprefix", "=" }, { "-iwithprefixbefore", "=" },
	{ "-isysroot", "=" }, { "-imultilib", "=" }, { "-imultiarch", "=" },
	{ "-Xlinker", "=" }, { "-Xassembler", "=" }, { "-Xpreprocessor", "=" },
	{ "-aux-info", "=" }, { "-dumpbase", "=" }, { "-dumpdir", "=" },
};

static void join_separate(struct words *w)
{
	size_t out = 0;

	for (size_t i = 0; i < w->n; i++) {
		char *word = w->v[i];

		for (size_t k = 0; k < ARRAY_SIZE(separate) && i + 1 < w->n; k++) {
			if (strcmp(word, separate[k].opt))
				continue;
			word = xasprintf("%s%s%s", w->v[i], separate[k].glue, w->v[i + 1]);
			free(w->v[i]);
			free(w->v[i + 1]);
			i++;
			break;
		}
		w->v[out++] = word;
	}
	w->n = out;
}

/* ---- kinds ---- */

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* -f/-m/-W options whose values add up instead of replacing each other:
 * each value is a kind of its own. */
static int accumulates(char letter, const char *name)
{
	static const char *const f_names[] = {
		"sanitize", "sanitize-recover", "sanitize-trap", "file-prefix-map",
		"debug-prefix-map", "macro-prefix-map", "profile-prefix-map",
		"plugin-arg-", "dump-", "opt-info", "plugin", NULL
	};

	if (letter == 'W')
		return !strcmp(name, "error") || !strcmp(name, "no-error");
	if (letter != 'f')
		return 0;
	for (const char *const *p = f_names; *p; p++) {
		size_t n = strlen(*p);
		if ((*p)[n - 1] == '-' ? !strncmp(name, *p, n) : !strcmp(name, *p))
			return 1;
	}
	return 0;
}

static int is_opt_level(const char *w)
{
	static const char *const words[] = { "s", "z", "fast", "g", NULL };

	if (!starts(w, "-O"))
		return 0;
	w += 2;
	if (!*w)
		return 1;
	if (strspn(w, "0123456789") == strlen(w))
		return 1;
	for (const char *const *p = words; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	return 0;
}

void gccopt_kind(struct strbuf *kind, struct strbuf *setting, const char *w)
{
	const char *eq;
	int passthru;

	strbuf_reset(kind);
	strbuf_reset(setting);
	if (w[0] != '-' || !w[1]) {
		strbuf_addstr(kind, w); /* not a switch: itself */
		return;
	}
	if (is_opt_level(w)) {
		strbuf_addstr(kind, "-O");
		strbuf_addstr(setting, w[2] ? w + 2 : "1");
		return;
	}
	if (!strcmp(w, "-g") || (starts(w, "-g") && strlen(w) == 3 && w[2] >= '0' && w[2] <= '3')) {
		strbuf_addstr(kind, "-g");
		strbuf_addstr(setting, w[2] ? w + 2 : "2");
		return;
	}
	if (starts(w, "--param=")) {
		eq = strchr(w + 8, '=');
		strbuf_add(kind, w, eq ? (size_t)(eq - w) : strlen(w));
		strbuf_addstr(setting, eq ? eq + 1 : "");
		return;
	}
	if ((w[1] == 'D' || w[1] == 'U') && w[2]) {
		size_t n = strcspn(w + 2, "=");
		strbuf_addstr(kind, "-D:");
		strbuf_add(kind, w + 2, n);
		if (w[1] == 'U')
			strbuf_addstr(setting, "#undef");
		else
			strbuf_addstr(setting, w[2 + n] ? w + 2 + n : "=1");
		return;
	}
	/* -Wl,X -Wa,X -Wp,X pass X on: each is itself. */
	passthru = w[1] == 'W' && w[2] && strchr("lap", w[2]) && w[3] == ',';
	if ((w[1] == 'f' || w[1] == 'm' || w[1] == 'W') && w[2] && !passthru) {
		const char *name = w + 2;
		int neg = starts(name, "no-") && name[3];
		size_t n;
		char base[256];

		if (neg)
			name += 3;
		n = strcspn(name, "=");
		snprintf(base, sizeof(base), "%.*s", (int)(n < 255 ? n : 255), name);
		strbuf_addch(kind, '-');
		strbuf_addch(kind, w[1]);
		if (accumulates(w[1], base)) {
			strbuf_addstr(kind, name);
			strbuf_addstr(setting, neg ? "off" : "on");
			return;
		}
		strbuf_add(kind, name, n);
		strbuf_addstr(setting, neg ? "off" : "on");
		strbuf_addstr(setting, name + n);
		return;
	}
	eq = strchr(w, '=');
	if (eq) {
		strbuf_add(kind, w, (size_t)(eq - w) + 1);
		strbuf_addstr(setting, eq + 1);
		return;
	}
	strbuf_addstr(kind, w);
}

size_t gccopt_words(char ***out, const char *s, int shell)
{
	struct words w = { NULL, 0, 0 };

	if (shell)
		split_shell(&w, s ? s : "");
	else
		split_plain(&w, s ? s : "");
	join_separate(&w);
	*out = w.v;
	return w.n;
}

void gccopt_words_free(char **w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

/* ---- a flag string ---- */

void gccopt_parse(struct gccopt *out, const char *flags, int shell)
{
	struct strbuf kind = STRBUF_INIT, setting = STRBUF_INIT;
	char **w;
	size_t n = gccopt_words(&w, flags, shell);

	out->n = n;
	out->sw = xcalloc(n + 1, sizeof(*out->sw));
	for (size_t i = 0; i < n; i++) {
		gccopt_kind(&kind, &setting, w[i]);
		out->sw[i].word = w[i];
		out->sw[i].kind = xstrdup(strbuf_str(&kind));
		out->sw[i].setting = xstrdup(strbuf_str(&setting));
	}
	free(w);
	/* Each switch's winner: the last of its kind. */
	for (size_t i = n; i-- > 0;) {
		out->sw[i].winner = i;
		for (size_t k = n; k-- > i + 1;) {
			if (!strcmp(out->sw[k].kind, out->sw[i].kind)) {
				out->sw[i].winner = k;
				break;
			}
		}
	}
	strbuf_release(&kind);
	strbuf_release(&setting);
}

void gccopt_release(struct gccopt *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->sw[i].word);
		free(g->sw[i].kind);
		free(g->sw[i].setting);
	}
	free(g->sw);
	g->sw = NULL;
	g->n = 0;
}

const struct gccopt_switch *gccopt_last_of_kind(const struct gccopt *g, const char *kind)
{
	for (size_t i = g->n; i-- > 0;)
		if (!strcmp(g->sw[i].kind, kind))
			return &g->sw[i];
	return NULL;
}

const struct gccopt_switch *gccopt_effective(const struct gccopt *g, const char *w)
{
	struct strbuf kind = STRBUF_INIT, setting = STRBUF_INIT;
	const struct gccopt_switch *found;

	gccopt_kind(&kind, &setting, w);
	found = gccopt_last_of_kind(g, strbuf_str(&kind));
	strbuf_release(&kind);
	strbuf_release(&setting);
	return found;
}

/* Words whose order matters to GCC whatever their kinds: search paths,
 * and words that are not switches. */
static int ordered(const char *w)
{
	static const char *const prefix[] = {
		"-I", "-iquote", "-isystem", "-idirafter", "-L", "-B", "-include", "-imacros", NULL
	};

	if (w[0] != '-' || !w[1])
		return 1;
	for (const char *const *p = prefix; *p; p++)
		if (starts(w, *p))
			return 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The canonical form of g without the switches with skip[i] set (skip
 * NULL: none). */
static char *canonical_of(const struct gccopt *g, const int *skip)
{
	char **k = xcalloc(g->n + 1, sizeof(*k));
	struct strbuf sb = STRBUF_INIT;
	size_t nk = 0;

	for (size_t i = 0; i < g->n; i++) {
		const struct gccopt_switch *s = &g->sw[i];

		if (s->winner != i || ordered(s->word) || (skip && skip[i]))
			continue;
		/* -O and -O1, -g and -g2 are one setting: spelt by it. */
		if (!strcmp(s->kind, "-O") || !strcmp(s->kind, "-g"))
			k[nk++] = xasprintf("%s%s", s->kind, s->setting);
		else
			k[nk++] = xstrdup(s->word);
	}
	/* Sorted by the words themselves: for flags without repeats this is
	 * the order configuration ids have always hashed. */
	qsort(k, nk, sizeof(*k), cmp_str);
	for (size_t i = 0; i < nk; i++) {
		if (sb.len)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, k[i]);
		free(k[i]);
	}
	for (size_t i = 0; i < g->n; i++) {
		if (g->sw[i].winner != i || !ordered(g->sw[i].word) || (skip && skip[i]))
			continue;
		if (sb.len)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, g->sw[i].word);
	}
	free(k);
	return strbuf_detach(&sb);
}

char *gccopt_canonical(const char *flags)
{
	struct gccopt g;
	char *c;

	gccopt_parse(&g, flags, 1);
	c = canonical_of(&g, NULL);
	gccopt_release(&g);
	return c;
}

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
	c = canonical_of(&g, skip);
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
	c = canonical_of(&g, skip);
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
	qsort(k, nk, sizeof(*k), cmp_str);
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

int gccopt_equal(const char *a, const char *b)
{
	char *ca = gccopt_canonical(a), *cb = gccopt_canonical(b);
	int eq = !strcmp(ca, cb);

	free(ca);
	free(cb);
	return eq;
}
