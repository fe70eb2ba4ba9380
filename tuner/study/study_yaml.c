/* SPDX-License-Identifier: GPL-2.0-or-later */
/* study_yaml: see study_yaml.h */
#include "study_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "tuner/study.h"
#include "tuner/util.h"

/*
 * Bounds against hostile input: deep nesting would exhaust the stack, and
 * aliases of aliases expand exponentially ("billion laughs"). A study file
 * is a few hundred nodes.
 */
#define MAX_DEPTH 64
#define MAX_NODES 100000

struct anchor {
	char *name;
	const struct ynode *node; /* owned by the tree under construction */
};

struct yload {
	yaml_parser_t parser;
	const char *path;
	const char *buf;
	size_t len;
	struct anchor *anchors;
	size_t nanchors, anchors_alloc;
	size_t nnodes;
};

static int error_at(const struct yload *y, yaml_mark_t m, const char *what)
{
	return tn_input_error_at(y->path, (int)m.line + 1, (int)m.column + 1, "%s", what);
}

/* Reader errors (bad encoding) carry a byte offset, not a mark. */
static void offset_pos(const struct yload *y, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < y->len; i++) {
		if (y->buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if ((y->buf[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
}

static int syntax_error(const struct yload *y)
{
	const yaml_parser_t *p = &y->parser;
	const char *problem = p->problem ? p->problem : "out of memory";
	int line = (int)p->problem_mark.line + 1;
	int col = (int)p->problem_mark.column + 1;

	if (p->error == YAML_READER_ERROR) {
		offset_pos(y, p->problem_offset, &line, &col);
		if (p->problem_value != -1)
			return tn_input_error_at(y->path, line, col, "invalid YAML: %s (#%X)",
					   problem, (unsigned)p->problem_value);
		return tn_input_error_at(y->path, line, col, "invalid YAML: %s", problem);
	}
	if (p->context)
		return tn_input_error_at(y->path, line, col, "invalid YAML: %s (%s at line %d)",
				   problem, p->context, (int)p->context_mark.line + 1);
	return tn_input_error_at(y->path, line, col, "invalid YAML: %s", problem);
}

static int next_event(struct yload *y, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&y->parser, ev))
		return syntax_error(y);
	return 0;
}

static struct ynode *node_new(enum ynode_kind kind, int line, int col)
{
	struct ynode *n = xcalloc(1, sizeof(*n));

	n->kind = kind;
	n->line = line;
	n->col = col;
	return n;
}

static void node_append(struct ynode *n, struct ynode *kid)
{
	ALLOC_GROW(n->kids, n->nkids + 1, n->alloc);
	n->kids[n->nkids++] = kid;
}

void study_ynode_free(struct ynode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nkids; i++)
		study_ynode_free(n->kids[i]);
	free(n->kids);
	free(n->str);
	free(n);
}

static size_t node_count(const struct ynode *n)
{
	size_t count = 1;

	for (size_t i = 0; i < n->nkids; i++)
		count += node_count(n->kids[i]);
	return count;
}

static struct ynode *node_copy(const struct ynode *n)
{
	struct ynode *c = node_new(n->kind, n->line, n->col);

	c->is_null = n->is_null;
	if (n->str)
		c->str = xstrdup(n->str);
	for (size_t i = 0; i < n->nkids; i++)
		node_append(c, node_copy(n->kids[i]));
	return c;
}

const char *study_ynode_describe(const struct ynode *n)
{
	if (n->kind == YNODE_SEQ)
		return "a list";
	if (n->kind == YNODE_MAP)
		return "a mapping";
	return n->is_null ? "an empty value" : "a string";
}

/* Anchors are registered once their node is complete, so a node cannot
 * refer to itself and the tree stays a tree. */
static void add_anchor(struct yload *y, const yaml_char_t *name, const struct ynode *n)
{
	if (!name)
		return;
	ALLOC_GROW(y->anchors, y->nanchors + 1, y->anchors_alloc);
	y->anchors[y->nanchors].name = xstrdup((const char *)name);
	y->anchors[y->nanchors].node = n;
	y->nanchors++;
}

static int load_alias(struct ynode **out, struct yload *y, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;

	/* Newest first: YAML lets a later anchor of the same name win. */
	for (size_t i = y->nanchors; i-- > 0;) {
		const struct ynode *target = y->anchors[i].node;

		if (strcmp(y->anchors[i].name, name))
			continue;
		y->nnodes += node_count(target);
		if (y->nnodes > MAX_NODES)
			return error_at(y, ev->start_mark,
					"YAML document too large (aliases expand too much)");
		*out = node_copy(target);
		(*out)->line = (int)ev->start_mark.line + 1;
		(*out)->col = (int)ev->start_mark.column + 1;
		return 0;
	}
	return tn_input_error_at(y->path, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
			   "undefined alias '*%s'", name);
}

static int load_scalar(struct ynode **out, struct yload *y, const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	struct ynode *n;

	if (memchr(v, '\0', len))
		return error_at(y, ev->start_mark, "NUL character in a string");
	n = node_new(YNODE_SCALAR, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1);
	n->is_null = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !ev->data.scalar.tag &&
		     (!len || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
		      !strcmp(v, "NULL"));
	n->str = n->is_null ? xstrdup("") : xstrndup(v, len);
	add_anchor(y, ev->data.scalar.anchor, n);
	*out = n;
	return 0;
}

/* Builds the node that starts with ev (already read; the caller deletes it). */
static int load_node(struct ynode **out, struct yload *y, const yaml_event_t *ev, int depth)
{
	const yaml_char_t *anchor = NULL;
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
	struct ynode *n = NULL;
	int ret = -1;

	*out = NULL;
	if (depth > MAX_DEPTH)
		return error_at(y, ev->start_mark, "YAML nested too deeply");
	if (++y->nnodes > MAX_NODES)
		return error_at(y, ev->start_mark, "YAML document too large");
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return load_alias(out, y, ev);
	case YAML_SCALAR_EVENT:
		return load_scalar(out, y, ev);
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		n = node_new(YNODE_SEQ, line, col);
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		n = node_new(YNODE_MAP, line, col);
		break;
	default:
		return error_at(y, ev->start_mark, "invalid YAML: unexpected event");
	}

	for (;;) {
		yaml_event_t kid_ev;
		struct ynode *kid;
		int r;

		if (next_event(y, &kid_ev) < 0)
			goto out;
		if (kid_ev.type == YAML_SEQUENCE_END_EVENT ||
		    kid_ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&kid_ev);
			break;
		}
		r = load_node(&kid, y, &kid_ev, depth + 1);
		yaml_event_delete(&kid_ev);
		if (r < 0)
			goto out;
		if (n->kind == YNODE_MAP && n->nkids % 2 == 0 && kid->kind != YNODE_SCALAR) {
			tn_input_error_at(y->path, kid->line, kid->col,
					  "mapping keys must be strings, not %s",
					  study_ynode_describe(kid));
			study_ynode_free(kid);
			goto out;
		}
		node_append(n, kid);
	}
	add_anchor(y, anchor, n);
	*out = n;
	n = NULL;
	ret = 0;
out:
	study_ynode_free(n);
	return ret;
}

int study_ynode_load(struct ynode **out, const char *path, const char *buf, size_t len)
{
	struct yload y = { .path = path, .buf = buf, .len = len };
	struct ynode *root = NULL;
	int ret = -1;

	*out = NULL;
	if (!yaml_parser_initialize(&y.parser))
		return tn_error_at(path, 0, 0, "cannot initialise the YAML parser");
	yaml_parser_set_input_string(&y.parser, (const unsigned char *)buf, len);

	for (;;) {
		yaml_event_t ev;
		yaml_event_type_t type;
		int r = 0;

		if (next_event(&y, &ev) < 0)
			goto out;
		type = ev.type;
		if (type == YAML_DOCUMENT_START_EVENT && root)
			r = error_at(&y, ev.start_mark, "more than one YAML document");
		else if (type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT ||
			 type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT)
			r = load_node(&root, &y, &ev, 0);
		yaml_event_delete(&ev);
		if (r < 0)
			goto out;
		if (type == YAML_STREAM_END_EVENT)
			break;
	}
	if (!root) {
		tn_input_error_at(path, 1, 1, "the study file is empty");
		goto out;
	}
	*out = root;
	root = NULL;
	ret = 0;
out:
	study_ynode_free(root);
	for (size_t i = 0; i < y.nanchors; i++)
		free(y.anchors[i].name);
	free(y.anchors);
	yaml_parser_delete(&y.parser);
	return ret;
}

int study_ynode_verror(const char *path, const struct ynode *n, const char *fmt, va_list ap)
{
	char msg[768];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* Messages quote user text; keep them one line whatever it holds. */
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return tn_input_error_at(path, n ? n->line : 1, n ? n->col : 1, "%s", msg);
}

int study_ynode_error(const char *path, const struct ynode *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	study_ynode_verror(path, n, fmt, ap);
	va_end(ap);
	return -1;
}

const struct ynode *study_ynode_get(const struct ynode *map, const char *key)
{
	for (size_t i = 0; i + 1 < map->nkids; i += 2)
		if (!strcmp(map->kids[i]->str, key))
			return map->kids[i + 1];
	return NULL;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t row[32], lb = strlen(b); /* b is a known key: short */

	if (lb >= ARRAY_SIZE(row))
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; a[i - 1]; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The known key the user most likely meant (Levenshtein), or NULL. */
static const char *closest(const char *key, const char *const *known)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX, len = strlen(key);

	for (size_t i = 0; known[i]; i++) {
		size_t d = edit_distance(key, known[i]);

		if (d < best_d) {
			best_d = d;
			best = known[i];
		}
	}
	/* A typo, not a different word: "xy" is not a misspelt "of". */
	if (best && best_d < len && (best_d <= 2 || best_d <= len / 3))
		return best;
	return NULL;
}

static int unknown_key(const char *path, const struct ynode *key, const char *const *known)
{
	const char *guess = closest(key->str, known);
	struct strbuf sb = STRBUF_INIT;

	if (guess)
		return study_ynode_error(path, key, "unknown key '%s' (did you mean '%s'?)",
					 key->str, guess);
	for (size_t i = 0; known[i]; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", known[i]);
	study_ynode_error(path, key, "unknown key '%s' (expected %s)", key->str, strbuf_str(&sb));
	strbuf_release(&sb);
	return -1;
}

static int in_list(const char *const *list, const char *s)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

int study_ynode_check_keys(const char *path, const struct ynode *map, const char *const *known)
{
	for (size_t i = 0; i < map->nkids; i += 2) {
		const struct ynode *key = map->kids[i];

		for (size_t j = 0; j < i; j += 2)
			if (!strcmp(map->kids[j]->str, key->str))
				return study_ynode_error(path, key,
							 "duplicate key '%s' (first at line %d)",
							 key->str, map->kids[j]->line);
		if (!in_list(known, key->str))
			return unknown_key(path, key, known);
	}
	return 0;
}

int study_ynode_bad_value(const char *path, const struct ynode *n, const char *what,
			  const char *expected)
{
	if (n->kind != YNODE_SCALAR || n->is_null)
		return study_ynode_error(path, n, "'%s' must be %s, not %s", what, expected,
					 study_ynode_describe(n));
	return study_ynode_error(path, n, "'%s' must be %s, not '%s'", what, expected, n->str);
}

int study_ynode_want(const char *path, const struct ynode *n, enum ynode_kind kind,
		     const char *what)
{
	static const char *const names[] = { "a string", "a list", "a mapping" };

	return n->kind == kind ? 0 : study_ynode_bad_value(path, n, what, names[kind]);
}

int study_ynode_str(char **out, const char *path, const struct ynode *n, const char *what)
{
	if (study_ynode_want(path, n, YNODE_SCALAR, what) < 0)
		return -1;
	free(*out);
	*out = xstrdup(n->str);
	return 0;
}

int study_ynode_double(double *out, const char *path, const struct ynode *n, const char *what)
{
	if (n->kind != YNODE_SCALAR || parse_double(out, n->str) < 0)
		return study_ynode_bad_value(path, n, what, "a number");
	return 0;
}

int study_ynode_timeout(double *out, const char *path, const struct ynode *n, const char *what)
{
	double v;

	if (n->kind != YNODE_SCALAR || parse_double(&v, n->str) < 0 || v < 0)
		return study_ynode_bad_value(path, n, what, "a non-negative number of seconds");
	if (v > STUDY_MAX_TIMEOUT)
		return study_ynode_error(path, n, "'%s' must be from 0 to %d seconds "
					 "(a week; 0: no limit), not '%s'", what,
					 STUDY_MAX_TIMEOUT, n->str);
	*out = v;
	return 0;
}

int study_ynode_u64(uint64_t *out, const char *path, const struct ynode *n, const char *what)
{
	if (n->kind != YNODE_SCALAR || parse_u64(out, n->str) < 0)
		return study_ynode_bad_value(path, n, what, "a non-negative integer");
	return 0;
}

int study_ynode_count(unsigned *out, const char *path, const struct ynode *n, const char *what)
{
	uint64_t v;

	if (n->kind != YNODE_SCALAR || parse_u64(&v, n->str) < 0 || v == 0)
		return study_ynode_bad_value(path, n, what, "a positive integer");
	if (v > STUDY_MAX_COUNT)
		return study_ynode_error(path, n, "'%s' must be from 1 to %d, not '%s'", what,
					 STUDY_MAX_COUNT, n->str);
	*out = (unsigned)v;
	return 0;
}

int study_ynode_choice(int *out, const char *path, const struct ynode *n, const char *what,
		       const char *const *choices)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; choices[i]; i++) {
		if (n->kind == YNODE_SCALAR && !strcmp(n->str, choices[i])) {
			*out = i;
			return 0;
		}
	}
	for (int i = 0; choices[i]; i++)
		strbuf_addf(&sb, "%s%s", !i ? "" : choices[i + 1] ? ", " : " or ", choices[i]);
	study_ynode_bad_value(path, n, what, strbuf_str(&sb));
	strbuf_release(&sb);
	return -1;
}
