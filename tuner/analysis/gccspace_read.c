/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gccspace: reading what `gcc -Q --help=optimizers` and `--help=params`
 * print (see gccspace.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gccspace_priv.h"
#include "tuner/util.h"

int gccspace_starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* gccspace_priv.h has what these do. */
size_t gccspace_name_len(const char *option)
{
	size_t skip = gccspace_starts(option, "--param=") ? strlen("--param=") : 0;

	return skip + strcspn(option + skip, "=");
}

void gccspace_listing_release(struct gccspace_listing *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].option);
		free(l->e[i].spec);
		free(l->e[i].value);
	}
	free(l->e);
}

const struct gccspace_entry *gccspace_find_entry(const struct gccspace_listing *l,
						 const char *option, int eq)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->e[i].eq == eq && !strcmp(l->e[i].option, option))
			return &l->e[i];
	return NULL;
}

static int is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

int gccspace_parse_ll(long long *out, const char *s, size_t len)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	*out = strtoll(buf, &end, 10);
	return errno || *end || !(isdigit((unsigned char)buf[0]) || buf[0] == '-') ? -1 : 0;
}

int gccspace_parse_range(long long *min, long long *max, const char *spec)
{
	size_t len = strlen(spec);
	const char *comma = strchr(spec, ',');

	if (len < 5 || spec[0] != '<' || spec[len - 1] != '>' || !comma)
		return -1;
	if (gccspace_parse_ll(min, spec + 1, (size_t)(comma - spec - 1)) < 0)
		return -1;
	return gccspace_parse_ll(max, comma + 1, (size_t)(spec + len - 1 - comma - 1));
}

/* "-" and a letter and more (-fX, -mX), or "--param=" and more; of
 * letters, digits and "-_+.". */
static int name_ok(const char *name, int param)
{
	const char *p = param ? name + strlen("--param=") : name + 2;

	if (name[0] != '-' || (!param && !isalpha((unsigned char)name[1])) || !*p)
		return 0;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_+.", *p))
			return 0;
	return 1;
}

/* The state of a listed value v (trimmed) of an option that takes a value
 * (eq) or not: 0, or -1 when it cannot be one. */
static int read_state(enum gccspace_state *out, const char *v, int eq)
{
	size_t len = strlen(v);

	if (!strcmp(v, "[enabled]"))
		*out = ST_ON;
	else if (!strcmp(v, "[disabled]"))
		*out = ST_OFF;
	else if (!*v || !strcmp(v, "[default]"))
		*out = ST_LATER;
	else if (gccspace_starts(v, "[available in ") && v[len - 1] == ']')
		*out = ST_ELSEWHERE;
	else if (v[0] == '[')
		return -1;
	else if (!eq && v[0] == '-')
		*out = ST_ALIAS;
	else if (!eq)
		return -1;
	else
		*out = ST_VALUE;
	return 0;
}

/* One option line (after the header): into l, or -1 with a message. */
static int read_line(struct gccspace_listing *l, const char *what, size_t no, const char *line,
		     size_t len, int param)
{
	const char *p = line, *end = line + len, *tok;
	struct gccspace_entry e = { 0 };
	size_t nl, tl;
	long long a, b;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == line || p == end || *p != '-' || gccspace_starts(p, "--param=") != param)
		return tn_error_line(what, no, param ? "not a --param line" : "not an option line",
				     line, len);
	tok = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	tl = (size_t)(p - tok);
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	e.value = xstrndup(p, (size_t)(end - p));
	{
		char *t = xstrndup(tok, tl);

		nl = gccspace_name_len(t);
		e.option = xstrndup(t, nl);
		e.eq = t[nl] == '=';
		e.spec = xstrdup(e.eq ? t + nl + 1 : "");
		free(t);
	}
	if (!gccspace_starts(e.option, "-O") && !name_ok(e.option, param))
		goto bad_name; /* the levels: "-O<number>" */
	if (*e.spec && !((e.spec[0] == '<' && e.spec[strlen(e.spec) - 1] == '>') ||
			 (e.spec[0] == '[' && e.spec[strlen(e.spec) - 1] == ']')))
		goto bad_name;
	if (param && e.spec[0] == '<' && gccspace_parse_range(&a, &b, e.spec) < 0)
		goto bad_name;
	if (read_state(&e.st, e.value, e.eq) < 0) {
		free(e.option);
		free(e.spec);
		free(e.value);
		return tn_error_line(what, no, "a state that is not [enabled], [disabled] or a value",
				     line, len);
	}
	if (gccspace_find_entry(l, e.option, e.eq)) {
		free(e.option);
		free(e.spec);
		free(e.value);
		return tn_error_line(what, no, "an option listed twice", line, len);
	}
	ALLOC_GROW(l->e, l->n + 1, l->alloc);
	l->e[l->n++] = e;
	return 0;
bad_name:
	free(e.option);
	free(e.spec);
	free(e.value);
	return tn_error_line(what, no, "an option that cannot be read", line, len);
}

/*
 * Reads a listing: header, then option lines (blank lines anywhere). 0,
 * or -1 with a message naming what (the listing) and the line.
 */
int gccspace_read_listing(struct gccspace_listing *l, const char *text, const char *header,
			const char *what, int param)
{
	const char *p = text;
	size_t no = 0;
	int seen_header = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		no++;
		if (is_blank(p, len)) {
			/* nothing */
		} else if (!seen_header) {
			if (len != strlen(header) || memcmp(p, header, len))
				return tn_error_line(what, no, "not the listing's header", p, len);
			seen_header = 1;
		} else if (read_line(l, what, no, p, len, param) < 0) {
			return -1;
		}
		p += len + (eol != NULL);
	}
	if (!seen_header)
		return tn_error("%s: nothing printed", what);
	if (!l->n)
		return tn_error("%s: no option listed", what);
	return 0;
}
