/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gccopt: see include/tuner/gccopt.h */
#include "gccopt_priv.h"

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

/* gccopt_cmp_str() and gccopt_canonical_of(): gccopt_priv.h. */
int gccopt_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *gccopt_canonical_of(const struct gccopt *g, const int *skip)
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
	qsort(k, nk, sizeof(*k), gccopt_cmp_str);
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
	c = gccopt_canonical_of(&g, NULL);
	gccopt_release(&g);
	return c;
}

int gccopt_equal(const char *a, const char *b)
{
	char *ca = gccopt_canonical(a), *cb = gccopt_canonical(b);
	int eq = !strcmp(ca, cb);

	free(ca);
	free(cb);
	return eq;
}
