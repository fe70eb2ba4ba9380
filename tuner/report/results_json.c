/* SPDX-License-Identifier: GPL-2.0-or-later */
/* results: reading pareto.json, every field's type checked (results.h). */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/results.h"
#include "tuner/util.h"
#include "results_priv.h"
#include "formats/jsonkind.h"

/*
 * pareto.json being read: the first field found wrong is reported as
 * "PATH: 'configs[3].objectives.speed.n' must be an integer, not a
 * string", and the file refused: nothing is guessed.
 */
struct reader {
	const char *path;
	int bad;
};

static int rd_bad(struct reader *rd, const char *where, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int rd_bad(struct reader *rd, const char *where, const char *key, const char *fmt, ...)
{
	char what[160];
	va_list ap;
	int first;

	va_start(ap, fmt);
	first = jsonkind_first_bad(&rd->bad, what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!first)
		return -1;
	return tn_input_error_at(rd->path, 0, 0, "'%s%s%s' %s", where, *where && *key ? "." : "",
				 key, what);
}

/* o[key] of type type (JSON_TRUE: a boolean; JSON_REAL: a number), or
 * NULL: absent (wrong when required), or null where nullable. */
static json_t *rd_get(struct reader *rd, json_t *o, const char *where, const char *key,
		      json_type type, int required, int nullable)
{
	json_t *v = json_object_get(o, key);
	int ok;

	if (!v) {
		if (required)
			rd_bad(rd, where, key, "is missing");
		return NULL;
	}
	if (nullable && json_is_null(v))
		return NULL;
	if (type == JSON_TRUE)
		ok = json_is_boolean(v);
	else if (type == JSON_REAL)
		ok = json_is_number(v);
	else
		ok = json_typeof(v) == type;
	if (ok)
		return v;
	rd_bad(rd, where, key, "must be %s%s, not %s",
	       type == JSON_TRUE ? "a boolean" : type == JSON_REAL ? "a number" :
	       type == JSON_INTEGER ? "an integer" : type == JSON_STRING ? "a string" :
	       type == JSON_ARRAY ? "an array" : "an object", nullable ? " or null" : "",
	       jsonkind_name(v));
	return NULL;
}

/* A string (malloced), def when absent or null. */
static char *rd_str(struct reader *rd, json_t *o, const char *where, const char *key,
		    int required, const char *def)
{
	json_t *v = rd_get(rd, o, where, key, JSON_STRING, required, !required);

	if (v)
		return xstrdup(json_string_value(v));
	return def ? xstrdup(def) : NULL;
}

/* A string of at most size-1 characters into out ("" when absent); hex:
 * only lowercase hexadecimal digits. */
static void rd_fixed(struct reader *rd, char *out, size_t size, json_t *o, const char *where,
		     const char *key, int required, int hex)
{
	json_t *v = rd_get(rd, o, where, key, JSON_STRING, required, !required);
	const char *s;

	out[0] = '\0';
	if (!v)
		return;
	s = json_string_value(v);
	if (strlen(s) >= size || (required && !*s) ||
	    (hex && strspn(s, "0123456789abcdef") != strlen(s))) {
		rd_bad(rd, where, key, "must be %s%zu %scharacters long, not '%.40s'",
		       required ? "1 to " : "at most ", size - 1, hex ? "hexadecimal " : "", s);
		return;
	}
	strcpy(out, s);
}

static int rd_bool(struct reader *rd, json_t *o, const char *where, const char *key,
		   int required)
{
	json_t *v = rd_get(rd, o, where, key, JSON_TRUE, required, 0);

	return v && json_is_true(v);
}

/* A finite number, or NaN when absent or null. */
static double rd_num(struct reader *rd, json_t *o, const char *where, const char *key,
		     int required, double min)
{
	json_t *v = rd_get(rd, o, where, key, JSON_REAL, required, 1);
	double d;

	if (!v)
		return NAN;
	d = json_number_value(v);
	if (!isfinite(d) || d < min) {
		rd_bad(rd, where, key, "must be a finite number at least %g, not %g", min, d);
		return NAN;
	}
	return d;
}

/* A whole number >= 0; 0 when absent. */
static size_t rd_count(struct reader *rd, json_t *o, const char *where, const char *key,
		       int required)
{
	json_t *v = rd_get(rd, o, where, key, JSON_INTEGER, required, 0);

	if (!v)
		return 0;
	if (json_integer_value(v) < 0) {
		rd_bad(rd, where, key, "must not be negative, not %lld",
		       (long long)json_integer_value(v));
		return 0;
	}
	return (size_t)json_integer_value(v);
}

/* "on" or "off". */
static int rd_onoff(struct reader *rd, json_t *o, const char *where, const char *key,
		    const char *on, const char *off)
{
	json_t *v = rd_get(rd, o, where, key, JSON_STRING, 1, 0);

	if (!v)
		return 0;
	if (!strcmp(json_string_value(v), on))
		return 1;
	if (strcmp(json_string_value(v), off))
		rd_bad(rd, where, key, "must be \"%s\" or \"%s\", not \"%.40s\"", on, off,
		       json_string_value(v));
	return 0;
}

static void value_se(struct results_value *v)
{
	if (!v->known) {
		v->se = NAN;
	} else if (v->layout_seeds >= 2 && isfinite(v->layout_sd) && isfinite(v->run_sd) &&
		   v->n) {
		/* hypot: the squares of a huge sd would overflow. */
		v->se = hypot(v->layout_sd / sqrt(v->layout_seeds),
			      v->run_sd / sqrt((double)v->n));
	} else if (v->n >= 2 && isfinite(v->sd)) {
		v->se = v->sd / sqrt((double)v->n);
	} else if (v->n <= 1) {
		v->se = 0;
	} else {
		v->se = NAN;
	}
}

static void read_value(struct reader *rd, struct results_value *out, json_t *vals,
		       const char *where, const char *name)
{
	char *at = xasprintf("%s.%s", where, name);
	json_t *o = rd_get(rd, vals, where, name, JSON_OBJECT, 1, 0);
	size_t seeds;

	out->known = 0;
	out->value = out->sd = out->run_sd = out->layout_sd = out->se = NAN;
	if (!o)
		goto out;
	out->value = rd_num(rd, o, at, "value", 1, -INFINITY);
	out->known = isfinite(out->value);
	out->n = rd_count(rd, o, at, "n", 1);
	out->sd = rd_num(rd, o, at, "sd", 0, 0);
	out->run_sd = rd_num(rd, o, at, "run_sd", 0, 0);
	out->layout_sd = rd_num(rd, o, at, "layout_sd", 0, 0);
	seeds = rd_count(rd, o, at, "layout_seeds", 0);
	if (seeds > STUDY_MAX_COUNT)
		rd_bad(rd, at, "layout_seeds", "must be at most %u, not %zu",
		       (unsigned)STUDY_MAX_COUNT, seeds);
	out->layout_seeds = (unsigned)seeds;
	value_se(out);
out:
	free(at);
}

static void read_objective(struct reader *rd, struct results *r, size_t i, json_t *o,
			   const char *at)
{
	struct results_objective *ob = &r->objectives[i];

	ob->name = rd_str(rd, o, at, "name", 1, NULL);
	ob->unit = rd_str(rd, o, at, "unit", 0, "");
	ob->maximize = rd_onoff(rd, o, at, "goal", "max", "min");
	ob->limit = rd_num(rd, o, at, "limit", 0, -INFINITY);
	ob->has_limit = isfinite(ob->limit);
	ob->modelled = rd_bool(rd, o, at, "modelled", 0);
	ob->noisy = rd_bool(rd, o, at, "noisy", 0);
	for (size_t k = 0; ob->name && k < i; k++)
		if (r->objectives[k].name && !strcmp(r->objectives[k].name, ob->name))
			rd_bad(rd, at, "name", "'%s' is there twice", ob->name);
}

static void read_config(struct reader *rd, struct results *r, size_t i, json_t *o,
			const char *at)
{
	struct results_config *c = &r->configs[i];
	json_t *vals, *builds, *b;
	char *vat;
	size_t k;

	rd_fixed(rd, c->id, sizeof(c->id), o, at, "config", 1, 1);
	c->flags = rd_str(rd, o, at, "flags", 1, NULL);
	c->pgo = rd_onoff(rd, o, at, "pgo", "on", "off");
	c->status = rd_str(rd, o, at, "status", 1, NULL);
	c->on_front = rd_bool(rd, o, at, "on_front", 1);
	c->feasible = rd_bool(rd, o, at, "feasible", 1);
	c->tied = rd_bool(rd, o, at, "tied", 0);
	c->same_code_as = rd_str(rd, o, at, "same_code_as", 0, NULL);
	if (c->same_code_as && (strlen(c->same_code_as) != 16 ||
				strspn(c->same_code_as, "0123456789abcdef") != 16))
		rd_bad(rd, at, "same_code_as", "must be a configuration id or null, not '%.40s'",
		       c->same_code_as);
	c->obj = xcalloc(r->nobjectives + 1, sizeof(*c->obj));
	vals = rd_get(rd, o, at, "objectives", JSON_OBJECT, 1, 0);
	vat = xasprintf("%s.objectives", at);
	for (size_t j = 0; vals && j < r->nobjectives && !rd->bad; j++)
		read_value(rd, &c->obj[j], vals, vat, r->objectives[j].name);
	free(vat);
	builds = rd_get(rd, o, at, "builds", JSON_ARRAY, 0, 0);
	if (!builds)
		return;
	c->build_dirs = xcalloc(json_array_size(builds) + 1, sizeof(*c->build_dirs));
	json_array_foreach(builds, k, b) {
		if (!json_is_string(b)) {
			char *bat = xasprintf("%s.builds[%zu]", at, k);
			rd_bad(rd, bat, "", "must be a string, not %s", jsonkind_name(b));
			free(bat);
			return;
		}
		c->build_dirs[c->nbuilds++] = xstrdup(json_string_value(b));
	}
}

/* Each element of arr (root's key, an array) to one() as an object; *n
 * counts the elements begun (for results_release()). Stops at the first
 * error. */
static void read_objects(struct reader *rd, struct results *r, json_t *arr, const char *key,
			 size_t *n, void (*one)(struct reader *, struct results *, size_t,
						json_t *, const char *))
{
	json_t *o;
	size_t i;

	json_array_foreach(arr, i, o) {
		char *at = xasprintf("%s[%zu]", key, i);

		*n = i + 1;
		if (!json_is_object(o))
			rd_bad(rd, at, "", "must be an object, not %s", jsonkind_name(o));
		else
			one(rd, r, i, o, at);
		free(at);
		if (rd->bad)
			return;
	}
}

/* compiler, host and date: absent or null in an older file. */
static void read_provenance(struct reader *rd, struct results *r, json_t *root)
{
	json_t *host = rd_get(rd, root, "", "host", JSON_OBJECT, 0, 1);
	char *name, *machine;

	r->compiler = rd_str(rd, root, "", "compiler", 0, NULL);
	r->date = rd_str(rd, root, "", "date", 0, NULL);
	if (!host)
		return;
	name = rd_str(rd, host, "host", "name", 0, NULL);
	machine = rd_str(rd, host, "host", "machine", 0, NULL);
	if (name)
		r->host = machine ? xasprintf("%s (%s)", name, machine) : xstrdup(name);
	free(name);
	free(machine);
}

static int cmp_config_at(const void *p, const void *q, void *arg)
{
	const struct results *r = arg;
	const size_t *i = p, *j = q;
	int c = strcmp(r->configs[*i].id, r->configs[*j].id);

	return c ? c : (*i > *j) - (*i < *j);
}

/*
 * The line of the nth (from 0) '"config": "ID"' in the file at path, or 0
 * when it cannot be found (a key written with escapes, say). pareto.json
 * holds that key only in its configurations.
 */
static int config_line(const char *path, const char *id, size_t nth)
{
	char *text, *p;
	size_t len, idlen = strlen(id);
	int line = 0;

	if (read_file(&text, &len, path) < 0) {
		tn_error_clear();
		return 0;
	}
	for (p = text; (p = strstr(p, "\"config\"")); ) {
		char *v = p + strlen("\"config\"");

		v += strspn(v, " \t\r\n");
		if (*v == ':') {
			v++;
			v += strspn(v, " \t\r\n");
			if (*v == '"' && !strncmp(v + 1, id, idlen) && v[1 + idlen] == '"' &&
			    !nth--) {
				line = 1;
				for (char *c = text; c < p; c++)
					line += *c == '\n';
				break;
			}
		}
		p++;
	}
	free(text);
	return line;
}

/*
 * One configuration twice (an edited or concatenated file): refused,
 * naming the second of the first pair, for a reader matching by id (tuner
 * diff) would match one of them and call the other missing.
 */
static void check_duplicates(struct reader *rd, const struct results *r)
{
	size_t *at = xcalloc(r->nconfigs + 1, sizeof(*at));
	size_t first = SIZE_MAX, second = SIZE_MAX;

	for (size_t i = 0; i < r->nconfigs; i++)
		at[i] = i;
	qsort_r(at, r->nconfigs, sizeof(*at), cmp_config_at, (void *)r);
	/* Sorted by id, then place: the first two of each id's run. */
	for (size_t k = 1; k < r->nconfigs; k++) {
		if (strcmp(r->configs[at[k - 1]].id, r->configs[at[k]].id) ||
		    (k >= 2 && !strcmp(r->configs[at[k - 2]].id, r->configs[at[k]].id)))
			continue;
		if (at[k] < second) {
			first = at[k - 1];
			second = at[k];
		}
	}
	if (second != SIZE_MAX) {
		const char *id = r->configs[second].id;
		int l1 = config_line(rd->path, id, 0), l2 = config_line(rd->path, id, 1);

		rd->bad = 1;
		if (l1 && l2)
			tn_input_error_at(rd->path, l2, 0, "'configs[%zu].config': configuration %s is "
					  "there twice (first at configs[%zu], line %d)", second, id,
					  first, l1);
		else
			tn_input_error_at(rd->path, 0, 0, "'configs[%zu].config': configuration %s is "
					  "there twice (first at configs[%zu])", second, id, first);
	}
	free(at);
}

static void read_root(struct reader *rd, struct results *r, json_t *root)
{
	json_t *src, *arr;

	r->study = rd_str(rd, root, "", "study", 1, NULL);
	rd_fixed(rd, r->study_hash, sizeof(r->study_hash), root, "", "study_hash", 1, 1);
	r->tuner = rd_str(rd, root, "", "tuner", 1, NULL);
	src = rd_get(rd, root, "", "source", JSON_OBJECT, 0, 0);
	if (src) {
		rd_fixed(rd, r->commit, sizeof(r->commit), src, "source", "commit", 0, 1);
		rd_fixed(rd, r->tree, sizeof(r->tree), src, "source", "tree", 0, 1);
		r->dirty = rd_bool(rd, src, "source", "dirty", 0);
	}
	read_provenance(rd, r, root);
	r->complete = rd_bool(rd, root, "", "complete", 1);
	r->confidence = rd_num(rd, root, "", "confidence", 0, 0);
	if (isnan(r->confidence))
		r->confidence = 0.95;
	arr = rd->bad ? NULL : rd_get(rd, root, "", "objectives", JSON_ARRAY, 1, 0);
	if (!arr)
		return;
	r->objectives = xcalloc(json_array_size(arr) + 1, sizeof(*r->objectives));
	read_objects(rd, r, arr, "objectives", &r->nobjectives, read_objective);
	arr = rd->bad ? NULL : rd_get(rd, root, "", "configs", JSON_ARRAY, 1, 0);
	if (!arr)
		return;
	r->configs = xcalloc(json_array_size(arr) + 1, sizeof(*r->configs));
	read_objects(rd, r, arr, "configs", &r->nconfigs, read_config);
	if (!rd->bad)
		check_duplicates(rd, r);
}

int results_parse(struct results *out, const char *path)
{
	struct reader rd = { .path = path };
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);

	if (!root)
		return tn_input_error_at(path, jerr.line, jerr.column,
					 "not a tuner results file: %s", jerr.text);
	if (!json_is_object(root) || !json_object_get(root, "configs") ||
	    !json_object_get(root, "study")) {
		json_decref(root);
		return tn_input_error_at(path, 0, 0,
					 "not a tuner results file (no 'study' and 'configs')");
	}
	read_root(&rd, out, root);
	json_decref(root);
	return rd.bad ? -1 : 0;
}
