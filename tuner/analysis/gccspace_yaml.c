/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gccspace: the space as YAML, and spliced into a study (see gccspace.h). */
#include <stdlib.h>
#include <string.h>

#include "tuner/gccspace.h"
#include "tuner/util.h"

/*
 * A value as a YAML flow scalar: plain when it is a switch made of
 * characters YAML gives no meaning to in a flow sequence (it starts with
 * '-' followed by a letter or '-', so it is never read as a number, a
 * boolean or null), else double-quoted with '"' and '\' escaped and
 * control characters as \xNN.
 */
static void add_scalar(struct strbuf *sb, const char *v)
{
	int plain = v[0] == '-' && v[1] && v[1] != ' ';

	for (const char *p = v; plain && *p; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || strchr("-_=+./", *p);
	if (plain) {
		strbuf_addstr(sb, v);
		return;
	}
	strbuf_addch(sb, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addf(sb, "\\%c", *p);
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			strbuf_addf(sb, "\\x%02x", (unsigned char)*p);
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '"');
}

char *gccspace_yaml(const struct gccspace *g)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "space:\n");
	for (size_t i = 0; i < g->ndims; i++) {
		const struct gccspace_dim *d = &g->dims[i];

		strbuf_addf(&sb, "  %s: [", d->name);
		for (size_t k = 0; k < d->nvalues; k++) {
			if (k)
				strbuf_addstr(&sb, ", ");
			add_scalar(&sb, d->values[k]);
		}
		strbuf_addstr(&sb, "]\n");
	}
	return strbuf_detach(&sb);
}

/* The end of the line at p: its '\n' or its NUL. */
static const char *eol(const char *p)
{
	return p + strcspn(p, "\n");
}

/* After the line at p: the next one's start, or the NUL. */
static const char *next_line(const char *p)
{
	p = eol(p);
	return *p ? p + 1 : p;
}

/* The top-level `space:` line: at the start of a line, followed by white
 * space, a comment or the line's end. NULL if none. */
static const char *find_space(const char *text)
{
	for (const char *p = text; *p; p = next_line(p))
		if (!strncmp(p, "space:", 6) && strchr(" \t\r\n#", p[6]))
			return p;
	return NULL;
}

int gccspace_splice(char **out, const char *study, const char *block)
{
	const char *start = find_space(study), *end, *rest;
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	if (!start)
		return tn_error("the study has no top-level 'space:'");
	rest = start + 6 + strspn(start + 6, " \t");
	end = next_line(start);
	if (*rest == '{') {
		/* A flow mapping: on this line, or not spliced. */
		int depth = 0;

		for (const char *p = rest; p < eol(start) && *p != '#'; p++)
			depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
		if (depth)
			return tn_error("the study's 'space:' is a flow mapping over several lines: "
					"write it as a block to replace it");
	} else if (*rest && *rest != '#' && *rest != '\n' && *rest != '\r') {
		return tn_error("the study's 'space:' is not a mapping");
	} else {
		/* The block: every indented line after it; blank lines and
		 * column-0 comments between them go with it. */
		for (const char *p = end; *p; p = next_line(p)) {
			const char *t = p + strspn(p, " \t\r");

			if (t == eol(p))
				continue; /* blank */
			if (p[0] != ' ' && p[0] != '\t' && p[0] != '#')
				break;    /* the next key */
			if (p[0] != '#' && *t != '#')
				end = next_line(p);
		}
	}
	strbuf_add(&sb, study, (size_t)(start - study));
	strbuf_addstr(&sb, block);
	strbuf_addstr(&sb, end);
	*out = strbuf_detach(&sb);
	return 0;
}
