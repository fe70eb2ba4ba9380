/* SPDX-License-Identifier: GPL-2.0-or-later */
/* applied: see include/tuner/applied.h */
#include "tuner/applied.h"

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

size_t applied_words(char ***out, const char *line, int recorded)
{
	struct words w = { NULL, 0, 0 };

	if (recorded)
		split_plain(&w, line);
	else
		split_shell(&w, line);
	join_separate(&w);
	*out = w.v;
	return w.n;
}

void applied_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
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

/* Separates the overriding switches in applied_flag.overridden_by. */
#define OVERRIDER_SEP " or "
#define OVERRIDER_SEP_LEN (sizeof(OVERRIDER_SEP) - 1)

/* Where the switch of an overridden_by list starting at p ends. */
static const char *overrider_end(const char *p)
{
	const char *end = strstr(p, OVERRIDER_SEP);

	return end ? end : p + strlen(p);
}

/* 1 if the n bytes at sw are one of the switches of list (or NULL). */
static int has_overrider(const char *list, const char *sw, size_t n)
{
	for (const char *p = list, *end; p && *p; p = *end ? end + OVERRIDER_SEP_LEN : end) {
		end = overrider_end(p);
		if ((size_t)(end - p) == n && !strncmp(p, sw, n))
			return 1;
	}
	return 0;
}

/* Adds to *list (malloced or NULL) each switch of more (one switch, or a
 * list of them) that is not there yet. */
static void add_overriders(char **list, const char *more)
{
	for (const char *p = more, *end; p && *p; p = *end ? end + OVERRIDER_SEP_LEN : end) {
		char *grown;

		end = overrider_end(p);
		if (has_overrider(*list, p, (size_t)(end - p)))
			continue;
		if (*list)
			grown = xasprintf("%s" OVERRIDER_SEP "%.*s", *list, (int)(end - p), p);
		else
			grown = xstrndup(p, (size_t)(end - p));
		free(*list);
		*list = grown;
	}
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

/*
 * The kind of switch w and its setting within the kind: two switches of
 * one kind contradict unless their settings are equal. A non-switch word
 * gets kind "".
 */
static void kind_of(struct strbuf *kind, struct strbuf *setting, const char *w)
{
	const char *eq;
	int passthru;

	strbuf_reset(kind);
	strbuf_reset(setting);
	if (w[0] != '-' || !w[1])
		return;
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

/* Kinds GCC leaves out of .GCC.command.line (dwarf2out.c's producer
 * string skips preprocessor, warning, driver and linker switches). */
static int unrecordable(const char *w)
{
	static const char *const exact[] = {
		"-c", "-S", "-E", "-s", "-v", "-w", "-pipe", "-shared", "-quiet",
		"-rdynamic", "-pie", "-no-pie", "-nostdlib", "-nostartfiles",
		"-nodefaultlibs", "-frecord-gcc-switches", "-fno-record-gcc-switches",
		"-fverbose-asm", "-fno-verbose-asm", "-march=native", "-mtune=native",
		"-mcpu=native", NULL
	};
	static const char *const prefix[] = {
		"-D", "-U", "-I", "-i", "-W", "-o", "-L", "-l", "-M", "-B", "-T",
		"-u", "-z", "-x", "-X", "-d", "-pedantic", "-nostdinc", "-static",
		"-save-temps", "-specs", "-fdiagnostics-", "-fno-diagnostics-",
		"-ffile-prefix-map", "-fdebug-prefix-map", "-fmacro-prefix-map",
		"-fprofile-prefix-map", "-fplugin", "-fcompare-debug", "-fdump-",
		"-fopt-info", NULL
	};

	for (const char *const *p = exact; *p; p++)
		if (!strcmp(w, *p))
			return 1;
	for (const char *const *p = prefix; *p; p++)
		if (starts(w, *p))
			return 1;
	return 0;
}

/* ---- analysis ---- */

/* One word of a line, with its kind and setting worked out once. */
struct judged_word {
	const char *text;
	char *kind, *setting;
};

static void judge_line(struct applied *a, const char *line, int recorded)
{
	struct strbuf kind = STRBUF_INIT, setting = STRBUF_INIT;
	char **w;
	size_t n = applied_words(&w, line, recorded);
	struct judged_word *jw = xcalloc(n + 1, sizeof(*jw));

	for (size_t i = 0; i < n; i++) {
		kind_of(&kind, &setting, w[i]);
		jw[i].text = w[i];
		jw[i].kind = xstrdup(strbuf_str(&kind));
		jw[i].setting = xstrdup(strbuf_str(&setting));
	}
	for (size_t k = 0; k < a->nflags; k++) {
		struct applied_flag *f = &a->flags[k];
		const struct judged_word *last = NULL;

		kind_of(&kind, &setting, f->flag);
		for (size_t i = 0; i < n; i++)
			if (!strcmp(jw[i].kind, strbuf_str(&kind)))
				last = &jw[i];
		if (!last)
			continue;
		if (!strcmp(last->setting, strbuf_str(&setting))) {
			f->in_effect++;
		} else {
			f->overridden++;
			add_overriders(&f->overridden_by, last->text);
		}
	}
	for (size_t i = 0; i < n; i++) {
		free(jw[i].kind);
		free(jw[i].setting);
	}
	free(jw);
	applied_lines_free(w, n);
	strbuf_release(&kind);
	strbuf_release(&setting);
}

void applied_analyse(struct applied *out, const char *flags, char *const *lines,
		     size_t nlines, int recorded)
{
	char **w;
	size_t n;

	*out = (struct applied)APPLIED_INIT;
	out->checked = 1;
	out->recorded = recorded;
	out->builds = 1;
	/* The flags reach the build through the shell of its Makefile or
	 * script, so they split as the shell splits them. */
	n = applied_words(&w, flags ? flags : "", 0);
	out->flags = xcalloc(n + 1, sizeof(*out->flags));
	for (size_t i = 0; i < n; i++) {
		int dup = 0;

		if (w[i][0] != '-' || !w[i][1])
			continue; /* not a switch: nothing to judge */
		for (size_t k = 0; k < out->nflags && !dup; k++)
			dup = !strcmp(out->flags[k].flag, w[i]);
		if (dup)
			continue;
		out->flags[out->nflags].flag = xstrdup(w[i]);
		out->flags[out->nflags].unrecorded = recorded && unrecordable(w[i]);
		out->nflags++;
	}
	applied_lines_free(w, n);
	for (size_t i = 0; i < nlines; i++) {
		judge_line(out, lines[i], recorded);
		out->lines++;
	}
}

/* ---- lines ---- */

size_t applied_section_lines(char ***out, const char *data, size_t len)
{
	struct words lines = { NULL, 0, 0 };
	struct strbuf group = STRBUF_INIT;
	size_t i = 0;

	while (i < len) {
		size_t n = strnlen(data + i, len - i);
		const char *s = data + i;

		i += n + 1;
		if (!n)
			continue;
		if (s[0] == '-' || !memchr(s, ' ', n)) {
			/* GCC <= 10: one switch per string. */
			if (group.len)
				strbuf_addch(&group, ' ');
			strbuf_add(&group, s, n);
			continue;
		}
		push_word(&lines, xstrndup(s, n));
	}
	if (group.len)
		push_word(&lines, strbuf_detach(&group));
	strbuf_release(&group);
	*out = lines.v;
	return lines.n;
}

size_t applied_text_lines(char ***out, const char *text, size_t len)
{
	struct words lines = { NULL, 0, 0 };
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		size_t k = 0;

		while (k < n && is_space(text[i + k]))
			k++;
		if (k < n)
			push_word(&lines, xstrndup(text + i, n));
		i += n + 1;
	}
	*out = lines.v;
	return lines.n;
}

/* ---- merging and reporting ---- */

void applied_copy(struct applied *out, const struct applied *from)
{
	*out = *from;
	out->note = from->note ? xstrdup(from->note) : NULL;
	out->flags = xcalloc(from->nflags + 1, sizeof(*out->flags));
	for (size_t i = 0; i < from->nflags; i++) {
		out->flags[i] = from->flags[i];
		out->flags[i].flag = xstrdup(from->flags[i].flag);
		out->flags[i].overridden_by = from->flags[i].overridden_by ?
			xstrdup(from->flags[i].overridden_by) : NULL;
	}
}

void applied_merge(struct applied *into, const struct applied *from)
{
	if (!from->checked)
		return;
	if (!into->checked) {
		applied_release(into);
		applied_copy(into, from);
		return;
	}
	into->lines += from->lines;
	into->builds += from->builds;
	if (!into->note && from->note)
		into->note = xstrdup(from->note);
	for (size_t i = 0; i < from->nflags; i++) {
		const struct applied_flag *ff = &from->flags[i];
		struct applied_flag *f = NULL;

		for (size_t k = 0; k < into->nflags && !f; k++)
			if (!strcmp(into->flags[k].flag, ff->flag))
				f = &into->flags[k];
		if (!f) {
			into->flags = xrealloc(into->flags, (into->nflags + 2) * sizeof(*f));
			f = &into->flags[into->nflags++];
			memset(f, 0, sizeof(*f));
			f->flag = xstrdup(ff->flag);
		}
		f->in_effect += ff->in_effect;
		f->overridden += ff->overridden;
		f->unrecorded |= ff->unrecorded;
		add_overriders(&f->overridden_by, ff->overridden_by);
	}
}

void applied_release(struct applied *a)
{
	for (size_t i = 0; i < a->nflags; i++) {
		free(a->flags[i].flag);
		free(a->flags[i].overridden_by);
	}
	free(a->flags);
	free(a->note);
	*a = (struct applied)APPLIED_INIT;
}

int applied_flag_missed(const struct applied *a, const struct applied_flag *f)
{
	return a->checked && a->lines > 0 && !f->unrecorded && f->in_effect < a->lines;
}

size_t applied_missed_list(struct strbuf *sb, const struct applied *a)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nflags; i++) {
		if (!applied_flag_missed(a, &a->flags[i]))
			continue;
		if (n++)
			strbuf_addch(sb, ' ');
		strbuf_addstr(sb, a->flags[i].flag);
	}
	return n;
}

size_t applied_describe(struct strbuf *sb, const struct applied *a, const char *prefix)
{
	const char *unit = a->recorded ? "recorded switch sets" : "compiler command lines";
	size_t n = 0;

	if (!a->checked)
		return 0;
	if (a->lines == 0) {
		strbuf_addf(sb, "%s%s\n", prefix,
			    a->note ? a->note : "no compiler command lines to check");
		return 1;
	}
	for (size_t i = 0; i < a->nflags; i++) {
		const struct applied_flag *f = &a->flags[i];
		unsigned absent = a->lines - f->in_effect - f->overridden;

		if (!applied_flag_missed(a, f))
			continue;
		strbuf_addf(sb, "%s%s in effect in %u of %u %s", prefix, f->flag,
			    f->in_effect, a->lines, unit);
		if (a->builds > 1)
			strbuf_addf(sb, " of %u builds", a->builds);
		strbuf_addstr(sb, " (");
		if (f->overridden)
			strbuf_addf(sb, "overridden by %s in %u%s", f->overridden_by,
				    f->overridden, absent ? "; " : "");
		if (absent)
			strbuf_addf(sb, "absent from %u", absent);
		strbuf_addstr(sb, ")\n");
		n++;
	}
	return n;
}
