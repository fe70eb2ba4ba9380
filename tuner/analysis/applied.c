/* SPDX-License-Identifier: GPL-2.0-or-later */
/* applied: see tuner/analysis/applied.h */
#include "applied.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/gccopt.h"

/* Words and kinds are gccopt's: GCC's rules, the same for every module. */
size_t applied_words(char ***out, const char *line, int recorded)
{
	return gccopt_words(out, line, !recorded);
}

void applied_lines_free(char **lines, size_t n)
{
	gccopt_words_free(lines, n);
}

struct lines {
	char **v;
	size_t n, alloc;
};

static void push_line(struct lines *l, char *s)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = s;
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
		if (!strncmp(w, *p, strlen(*p)))
			return 1;
	return 0;
}

/* ---- analysis ---- */

static void judge_line(struct applied *a, const char *line, int recorded)
{
	struct strbuf kind = STRBUF_INIT, setting = STRBUF_INIT;
	struct gccopt g;

	gccopt_parse(&g, line, !recorded);
	for (size_t k = 0; k < a->nflags; k++) {
		struct applied_flag *f = &a->flags[k];
		const struct gccopt_switch *last;

		gccopt_kind(&kind, &setting, f->flag);
		last = gccopt_last_of_kind(&g, strbuf_str(&kind));
		if (!last)
			continue;
		if (!strcmp(last->setting, strbuf_str(&setting))) {
			f->in_effect++;
		} else {
			f->overridden++;
			add_overriders(&f->overridden_by, last->word);
		}
	}
	gccopt_release(&g);
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
	struct lines lines = { NULL, 0, 0 };
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
		push_line(&lines, xstrndup(s, n));
	}
	if (group.len)
		push_line(&lines, strbuf_detach(&group));
	strbuf_release(&group);
	*out = lines.v;
	return lines.n;
}

size_t applied_text_lines(char ***out, const char *text, size_t len)
{
	struct lines lines = { NULL, 0, 0 };
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		size_t k = 0;

		while (k < n && isspace((unsigned char)text[i + k]))
			k++;
		if (k < n)
			push_line(&lines, xstrndup(text + i, n));
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
			strbuf_addf(sb, "overridden by %s in %u%s",
				    f->overridden_by ? f->overridden_by : "a later switch",
				    f->overridden, absent ? "; " : "");
		if (absent)
			strbuf_addf(sb, "absent from %u", absent);
		strbuf_addstr(sb, ")\n");
		n++;
	}
	return n;
}
