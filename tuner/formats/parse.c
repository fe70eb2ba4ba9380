/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse: see tuner/formats/parse.h */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tuner/cgmodel.h"
#include "jsonkind.h"
#include "tuner/uarch_score.h"
#include "tuner/util.h"

#define JSON_PREFIX "json:"
#define IPERF3_PATH "end.sum_received.bits_per_second"

/*
 * number: the last standalone number. A number counts only as a whole token,
 * so the 0 of "eth0", the 1.2 of "v1.2.3" and the 64 of "x86_64" are not
 * throughput figures. Before it: the start or whitespace or one of the
 * delimiters below; after it: the end, whitespace, a delimiter, '%', or a
 * sentence's full stop.
 */
static int is_delim(unsigned char c)
{
	return isspace(c) || (c && strchr(":=,;()[]{}<>\"'|/", c));
}

/* Length of the number syntax at s[0..n): [+-] digits [. digits] [e[+-]digits]
 * with at least one mantissa digit; 0 if there is none. */
static size_t number_len(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < n && isdigit((unsigned char)s[i]); i++)
		digits++;
	if (i < n && s[i] == '.') {
		for (i++; i < n && isdigit((unsigned char)s[i]); i++)
			digits++;
	}
	if (!digits)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;

		if (j < n && (s[j] == '+' || s[j] == '-'))
			j++;
		if (j < n && isdigit((unsigned char)s[j])) {
			while (j < n && isdigit((unsigned char)s[j]))
				j++;
			i = j;
		}
	}
	return i;
}

static int ends_token(const char *s, size_t n, size_t i)
{
	if (i == n || is_delim((unsigned char)s[i]) || s[i] == '%')
		return 1;
	/* "... 941.2." but not "1.2.3" */
	return s[i] == '.' && (i + 1 == n || isspace((unsigned char)s[i + 1]));
}

/* Length of a standalone "inf", "infinity" or "nan" (any case, signed)
 * at s[0..n), or 0: words some programs print for a number they could not
 * compute. */
static size_t nonfinite_len(const char *s, size_t n)
{
	static const char *const words[] = { "infinity", "inf", "nan" };
	size_t i = (n && (s[0] == '+' || s[0] == '-')) ? 1 : 0;

	for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
		size_t k = strlen(words[w]);

		if (n - i >= k && !strncasecmp(s + i, words[w], k) && ends_token(s, n, i + k))
			return i + k;
	}
	return 0;
}

/*
 * Length of the terminal escape sequence at s[0..n) (s[0] is ESC or the
 * 8-bit CSI): colour and cursor codes that a command writes for a
 * terminal (ECMA-48: CSI ESC [ params intermediates final, OSC ESC ] ...
 * BEL or ST, and two-byte ESC X). An unterminated one runs to the end.
 */
static size_t escape_len(const unsigned char *s, size_t n)
{
	size_t i;

	if (s[0] == 0x9b || (n > 1 && s[1] == '[')) {
		i = s[0] == 0x9b ? 1 : 2;
		while (i < n && s[i] >= 0x20 && s[i] <= 0x3f)
			i++;
		return i < n && s[i] >= 0x40 && s[i] <= 0x7e ? i + 1 : i;
	}
	if (n > 1 && s[1] == ']') {
		for (i = 2; i < n; i++)
			if (s[i] == 0x07 || s[i] == 0x9c)
				return i + 1;
			else if (s[i] == 0x1b && i + 1 < n && s[i + 1] == '\\')
				return i + 2;
		return n;
	}
	for (i = 1; i < n && s[i] >= 0x20 && s[i] <= 0x2f; i++)
		;
	return i < n && s[i] >= 0x30 && s[i] <= 0x7e ? i + 1 : i;
}

/* text[0..len) with every escape sequence a space (a delimiter), so the
 * digits of "\033[1;31m" are never a number and "\033[32m12\033[0m" is
 * 12. Caller frees with free(); *out_len its length. */
static char *strip_escapes(const char *text, size_t len, size_t *out_len)
{
	const unsigned char *t = (const unsigned char *)text;
	char *out = xmalloc(len + 1);
	size_t o = 0;

	for (size_t i = 0; i < len;) {
		if (t[i] == 0x1b || t[i] == 0x9b) {
			i += escape_len(t + i, len - i);
			out[o++] = ' ';
		} else {
			out[o++] = text[i++];
		}
	}
	out[o] = '\0';
	*out_len = o;
	return out;
}

/* The last standalone number; when that is out of range ("1e400") or a
 * word for a number that is not finite ("inf", "NaN"), an error that
 * says so: never an earlier number in its place. Terminal escape
 * sequences are not text (strip_escapes). */
static int parse_number(double *out, const char *raw, size_t raw_len)
{
	int found = 0, ret = 0;
	size_t i = 0, len;
	size_t bad_at = 0, bad_len = 0;
	char *text = strip_escapes(raw, raw_len, &len);

	while (i < len) {
		size_t k;

		if (i > 0 && !is_delim((unsigned char)text[i - 1])) {
			i++;
			continue;
		}
		k = number_len(text + i, len - i);
		if (k && ends_token(text, len, i + k)) {
			char *tok = xstrndup(text + i, k);
			char *end;
			double v;

			errno = 0;
			v = strtod(tok, &end);
			if (*end == '\0' && isfinite(v) && errno != ERANGE) {
				*out = v;
				found = 1;
				bad_len = 0;
			} else if (*end == '\0') {
				bad_at = i;
				bad_len = k;
			}
			free(tok);
		} else if (!k && (k = nonfinite_len(text + i, len - i))) {
			bad_at = i;
			bad_len = k;
		}
		i += k ? k : 1;
	}
	if (bad_len)
		ret = tn_error("the last number in the output, '%.*s', is out of range (not a "
			       "finite number)", (int)(bad_len > 64 ? 64 : bad_len), text + bad_at);
	else if (!found)
		ret = tn_error("no number in output");
	free(text);
	return ret;
}

/*
 * JSON paths: keys separated by '.', each followed by any number of [N]; the
 * path may also start with [N] for a document that is an array.
 */
enum step_kind { STEP_KEY, STEP_INDEX };

struct step {
	enum step_kind kind;
	const char *key; /* not NUL-terminated */
	size_t keylen;
	size_t index;
};

/* Parses the step at *pos (start: the path's beginning). 1 with *out and *pos
 * advanced, 0 at the end of the path, -1 on a syntax error. */
static int path_next(struct step *out, const char **pos, const char *start)
{
	const char *s = *pos;

	if (!*s)
		return 0;
	if (*s == '[') {
		size_t v = 0;
		const char *d = ++s;

		while (isdigit((unsigned char)*s)) {
			if (v > (SIZE_MAX - 9) / 10)
				return -1;
			v = v * 10 + (size_t)(*s++ - '0');
		}
		if (s == d || *s != ']')
			return -1;
		s++;
		if (*s && *s != '.' && *s != '[')
			return -1;
		out->kind = STEP_INDEX;
		out->index = v;
		*pos = s;
		return 1;
	}
	if (s != start) {
		if (*s != '.')
			return -1;
		s++;
	}
	out->kind = STEP_KEY;
	out->key = s;
	while (*s && *s != '.' && *s != '[' && *s != ']')
		s++;
	out->keylen = (size_t)(s - out->key);
	if (!out->keylen || *s == ']')
		return -1;
	*pos = s;
	return 1;
}

static int path_valid(const char *path)
{
	const char *p = path;
	struct step st;
	int steps = 0;

	for (;;) {
		int r = path_next(&st, &p, path);

		if (r < 0)
			return 0;
		if (r == 0)
			return steps > 0;
		steps++;
	}
}

/* The number at path in root; the message, prefixed "who: ", names the first
 * part of the path that is missing. */
static int json_number_at(double *out, const json_t *root, const char *path,
			  const char *who)
{
	const json_t *cur = root;
	const char *p = path;
	struct step st;
	int r;

	for (;;) {
		r = path_next(&st, &p, path);
		if (r <= 0)
			break;
		if (st.kind == STEP_KEY)
			cur = json_is_object(cur) ? json_object_getn(cur, st.key, st.keylen) : NULL;
		else
			cur = json_array_get(cur, st.index); /* NULL unless an array */
		if (!cur)
			return tn_error("%s: no '%.*s' in output", who, (int)(p - path), path);
	}
	if (r < 0)
		return tn_error("%s: bad JSON path '%s'", who, path);
	if (!json_is_number(cur))
		return tn_error("%s: '%s' is %s, not a number", who, path,
				jsonkind_name(cur));
	*out = json_number_value(cur);
	return 0;
}

/* Replaces line breaks and other control bytes so a message stays one line. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}

static int load_json(json_t **out, const char *text, size_t len, const char *who)
{
	json_error_t err;

	*out = json_loadb(text, len, 0, &err);
	if (!*out) {
		one_line(err.text);
		return tn_error("%s: output is not JSON: %s (line %d, column %d)",
				who, err.text, err.line, err.column);
	}
	return 0;
}

static int parse_iperf3(double *out, const char *text, size_t len)
{
	json_t *root = NULL;
	const json_t *error;
	double bps;
	int ret = -1;

	if (load_json(&root, text, len, "iperf3") < 0)
		goto out;
	/* A failed run still prints a document, with the reason here. */
	error = json_object_get(root, "error");
	if (error) {
		char *msg = xstrdup(json_is_string(error) ? json_string_value(error)
							  : "unknown error");

		one_line(msg);
		tn_error("iperf3: %s", msg);
		free(msg);
		goto out;
	}
	if (json_number_at(&bps, root, IPERF3_PATH, "iperf3") < 0)
		goto out;
	*out = bps / 1e6;
	ret = 0;
out:
	json_decref(root);
	return ret;
}

static int parse_json_path(double *out, const char *path, const char *text, size_t len)
{
	json_t *root = NULL;
	int ret = -1;

	if (load_json(&root, text, len, "json") < 0)
		goto out;
	ret = json_number_at(out, root, path, "json");
out:
	json_decref(root);
	return ret;
}

/* cachegrind-model and its variants: see cgmodel.h. Without a model, the
 * defaults. */
static int parse_cgmodel(double *out, const char *parser, const struct cg_model *model,
			 const char *text, size_t len)
{
	struct cg_model defaults = { 0 };
	struct cg_score score;
	int ret;

	if (!model) {
		cg_model_init(&defaults);
		model = &defaults;
	}
	ret = cgmodel_score(&score, model, text, len);
	if (ret == 0)
		*out = cgmodel_value(&score, parser);
	cg_model_release(&defaults);
	return ret;
}

/* uarch-model and its variants: see uarch_score.h. */
static int parse_uarch(double *out, const char *parser, const struct ua_config *ua,
		       const char *text, size_t len)
{
	struct ua_score score;

	if (!ua)
		return tn_error("uarch-model: no modelled core (measure.uarch) to score with");
	if (ua_score_text(&score, ua, 1, text, len) < 0)
		return -1;
	*out = ua_score_value(&score, parser);
	return 0;
}

int parse_valid(const char *name)
{
	if (!strcmp(name, "number") || !strcmp(name, "iperf3"))
		return 1;
	if (cgmodel_parser_valid(name) || ua_score_parser_valid(name))
		return 1;
	if (!strncmp(name, JSON_PREFIX, strlen(JSON_PREFIX)))
		return path_valid(name + strlen(JSON_PREFIX));
	return 0;
}

const char *parse_names(void)
{
	return "number, iperf3, json:PATH, cachegrind-model, cachegrind-model:cycles, "
	       "cachegrind-model:ir, cachegrind-model:i1-misses, uarch-model, "
	       "uarch-model:cycles, uarch-model:insns, uarch-model:l1i-misses, "
	       "uarch-model:l1d-misses, uarch-model:l2-misses, uarch-model:mispredicts, "
	       "uarch-model:taken";
}

static int parse_any(double *out, const char *parser, const struct parse_models *models,
		     const char *text, size_t len)
{
	const char *path;

	if (!text) {
		text = "";
		len = 0;
	}
	if (!strcmp(parser, "number"))
		return parse_number(out, text, len);
	if (!strcmp(parser, "iperf3"))
		return parse_iperf3(out, text, len);
	if (cgmodel_parser_valid(parser))
		return parse_cgmodel(out, parser, models ? models->cg : NULL, text, len);
	if (ua_score_parser_valid(parser))
		return parse_uarch(out, parser, models ? models->ua : NULL, text, len);
	if (strncmp(parser, JSON_PREFIX, strlen(JSON_PREFIX)) != 0)
		return tn_error("unknown parser '%s' (known: %s)", parser,
				parse_names());
	path = parser + strlen(JSON_PREFIX);
	if (!path_valid(path))
		return tn_error("json: bad path '%s' (keys separated by '.', "
				"[N] for array elements)", path);
	return parse_json_path(out, path, text, len);
}

int parse_value(double *out, const char *parser, const struct parse_models *models,
		const char *text, size_t len)
{
	double v;

	if (parse_any(&v, parser, models, text, len) < 0)
		return -1;
	/* A model dividing by a zero count, say: not a measurement. */
	if (!isfinite(v))
		return tn_error("%s: the value is out of range (%g, not a finite number)", parser,
				v);
	*out = v;
	return 0;
}
