/* SPDX-License-Identifier: GPL-2.0-or-later */
/* journal_record: see tuner/journal_record.h */
#include "journal_record.h"
#include "tuner/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

static const char *const status_names[] = {
	[BUILD_OK] = "ok",
	[BUILD_FAILED] = "failed",
	[BUILD_TIMEOUT] = "timeout",
	[BUILD_TRAIN_FAILED] = "train-failed",
	[BUILD_NO_ARTIFACT] = "no-artifact",
	[BUILD_SIZE_FAILED] = "size-failed",
};

const char *build_status_name(enum build_status s)
{
	if ((unsigned)s >= ARRAY_SIZE(status_names))
		return "unknown";
	return status_names[s];
}

static int parse_status(enum build_status *out, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(status_names); i++) {
		if (!strcmp(status_names[i], name)) {
			*out = (enum build_status)i;
			return 0;
		}
	}
	return -1;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* ---- encoding ---- */

/* NaN and infinities have no JSON spelling: they are written as null. */
static json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Wall-clock time in UTC, ISO 8601: for people reading the journal. */
static json_t *json_now(void)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
}

/* Sets o[k] to v (NULL: null). Fails on strings that are not UTF-8, which
 * JSON cannot carry. */
static int set_str(json_t *o, const char *k, const char *v)
{
	json_t *s = v ? json_string(v) : json_null();

	if (!s)
		return tn_error("cannot journal %s: not valid UTF-8", k);
	if (json_object_set_new(o, k, s) < 0)
		return tn_error("cannot journal %s", k);
	return 0;
}

/* Sets o[k] to v, consuming it; a NULL v is an earlier failure. */
static int set_new(json_t *o, const char *k, json_t *v)
{
	if (!v || json_object_set_new(o, k, v) < 0)
		return tn_error("cannot journal %s", k);
	return 0;
}

/* o as a line; consumes o. err: whether building o failed already. */
static char *finish(json_t *o, int err)
{
	char *text = NULL;
	size_t len;

	if (err)
		goto out;
	text = json_dumps(o, JSON_COMPACT);
	if (!text) {
		tn_error("cannot encode a journal record");
		goto out;
	}
	len = strlen(text);
	text = xrealloc(text, len + 2);
	text[len] = '\n';
	text[len + 1] = '\0';
out:
	json_decref(o);
	return text;
}

char *jrec_header_line(const char *study, const char *study_hash)
{
	json_t *o = json_object();
	int err = 0;

	err |= set_str(o, "type", "header");
	err |= set_new(o, "format", json_integer(JOURNAL_FORMAT));
	err |= set_str(o, "study", study ? study : "");
	err |= set_str(o, "study_hash", study_hash ? study_hash : "");
	err |= set_str(o, "tuner", TUNER_VERSION);
	return finish(o, err);
}

/* struct applied as the build record's "applied" object; NULL when a
 * string is not UTF-8. */
static json_t *applied_json(const struct applied *a)
{
	json_t *o = json_object(), *flags = json_array();
	int err = 0;

	err |= set_str(o, "source", a->recorded ? "record" : "command");
	err |= set_new(o, "lines", json_integer((json_int_t)a->lines));
	err |= set_str(o, "note", a->note);
	for (size_t i = 0; i < a->nflags; i++) {
		const struct applied_flag *f = &a->flags[i];
		json_t *fo = json_object();

		err |= set_str(fo, "flag", f->flag);
		err |= set_new(fo, "in_effect", json_integer((json_int_t)f->in_effect));
		err |= set_new(fo, "overridden", json_integer((json_int_t)f->overridden));
		err |= set_str(fo, "overridden_by", f->overridden_by);
		if (f->unrecorded)
			err |= set_new(fo, "unrecorded", json_true());
		if (json_array_append_new(flags, fo) < 0)
			err |= tn_error("cannot journal applied flags");
	}
	err |= set_new(o, "flags", flags);
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *jrec_build_line(const struct build_record *r)
{
	json_t *o = json_object();
	int err = 0;

	err |= set_str(o, "type", "build");
	err |= set_str(o, "key", r->key);
	err |= set_str(o, "config", r->config_id);
	err |= set_new(o, "seed", json_integer((json_int_t)r->layout_seed));
	err |= set_str(o, "flags", r->flags ? r->flags : "");
	err |= set_new(o, "pgo", json_integer(r->pgo));
	err |= set_str(o, "commit", r->commit);
	err |= set_str(o, "tree", r->tree);
	err |= set_new(o, "dirty", json_boolean(r->dirty));
	err |= set_str(o, "status", build_status_name(r->status));
	err |= set_new(o, "exit", json_integer(r->exit_status));
	err |= set_new(o, "seconds", json_num(r->seconds));
	err |= set_new(o, "size", json_num(r->size));
	err |= set_str(o, "dir", r->dir);
	err |= set_str(o, "artifact", r->artifact);
	if (r->code[0])
		err |= set_str(o, "code", r->code);
	if (r->applied.checked)
		err |= set_new(o, "applied", applied_json(&r->applied));
	if (r->same_build[0]) {
		err |= set_str(o, "same_build", r->same_build);
		err |= set_str(o, "ignored", r->ignored ? r->ignored : "");
	}
	if (r->profile[0])
		err |= set_str(o, "profile", r->profile);
	if (r->profile_from[0])
		err |= set_str(o, "profile_from", r->profile_from);
	return finish(o, err);
}

char *jrec_measure_line(const struct measure_record *r)
{
	json_t *o = json_object();
	json_t *values = json_object();
	int err = 0;

	err |= set_str(o, "type", "measure");
	err |= set_str(o, "build", r->build_key);
	err |= set_str(o, "config", r->config_id);
	err |= set_str(o, "testbed", r->testbed ? r->testbed : "");
	err |= set_new(o, "run", json_integer((json_int_t)r->run));
	err |= set_new(o, "ok", json_boolean(r->ok));
	for (size_t i = 0; i < r->nvalues; i++)
		err |= set_new(values, r->names[i], json_num(r->values[i]));
	err |= set_new(o, "values", values);
	err |= set_new(o, "seconds", json_num(r->seconds));
	if (r->error)
		err |= set_str(o, "error", r->error);
	return finish(o, err);
}

char *jrec_run_line(unsigned jobs, unsigned long planned, unsigned long cached)
{
	json_t *o = json_object();
	int err = 0;

	err |= set_str(o, "type", "run");
	err |= set_new(o, "jobs", json_integer((json_int_t)jobs));
	err |= set_new(o, "planned", json_integer((json_int_t)planned));
	err |= set_new(o, "cached", json_integer((json_int_t)cached));
	err |= set_new(o, "time", json_now());
	return finish(o, err);
}

char *jrec_end_line(int interrupted)
{
	json_t *o = json_object();
	int err = 0;

	err |= set_str(o, "type", "end");
	err |= set_str(o, "status", interrupted ? "interrupted" : "complete");
	err |= set_new(o, "time", json_now());
	return finish(o, err);
}

/* ---- decoding ---- */

static const char *get_str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* A number, or NaN for null or anything else. */
static double get_num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* An integer or a boolean; 0 for anything else. */
static json_int_t get_int(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_boolean(v))
		return json_is_true(v);
	return json_integer_value(v);
}

/* Copies a string of at most size-1 bytes; an absent one is "" unless
 * required. */
static int get_fixed(char *out, size_t size, json_t *o, const char *k, int required)
{
	const char *s = get_str(o, k);

	out[0] = '\0';
	if (!s)
		return required ? -1 : 0;
	if (strlen(s) >= size || (required && !*s))
		return -1;
	strcpy(out, s);
	return 0;
}

static int bad_field(const char *path, size_t line, const char *type, const char *field)
{
	return tn_error_at(path, (int)line, 0, "bad %s record: '%s' missing or invalid",
			   type, field);
}

/* The build record's "applied" object into a (left unchecked when absent).
 * -1 without a message when it is malformed. */
static int parse_applied(struct applied *a, json_t *o)
{
	json_t *flags = json_object_get(o, "flags");
	const char *source = get_str(o, "source");
	json_t *f;
	size_t i;

	if (!json_is_object(o) || !json_is_array(flags) || !source)
		return -1;
	a->checked = 1;
	a->builds = 1;
	a->recorded = !strcmp(source, "record");
	a->lines = (unsigned)get_int(o, "lines");
	a->note = dup_or_null(get_str(o, "note"));
	a->flags = xcalloc(json_array_size(flags) + 1, sizeof(*a->flags));
	json_array_foreach(flags, i, f) {
		struct applied_flag *af = &a->flags[a->nflags];
		const char *flag = get_str(f, "flag");

		if (!json_is_object(f) || !flag)
			return -1;
		af->flag = xstrdup(flag);
		af->in_effect = (unsigned)get_int(f, "in_effect");
		af->overridden = (unsigned)get_int(f, "overridden");
		af->overridden_by = dup_or_null(get_str(f, "overridden_by"));
		af->unrecorded = (int)get_int(f, "unrecorded");
		a->nflags++;
	}
	return 0;
}

static int parse_build(struct build_record *r, json_t *o, const char *path, size_t line)
{
	const char *status = get_str(o, "status");
	const char *flags = get_str(o, "flags");

	if (get_fixed(r->key, sizeof(r->key), o, "key", 1) < 0)
		return bad_field(path, line, "build", "key");
	if (get_fixed(r->config_id, sizeof(r->config_id), o, "config", 0) < 0)
		return bad_field(path, line, "build", "config");
	if (!status || parse_status(&r->status, status) < 0)
		return bad_field(path, line, "build", "status");
	if (get_fixed(r->commit, sizeof(r->commit), o, "commit", 0) < 0)
		return bad_field(path, line, "build", "commit");
	if (get_fixed(r->tree, sizeof(r->tree), o, "tree", 0) < 0)
		return bad_field(path, line, "build", "tree");
	r->layout_seed = (unsigned)get_int(o, "seed");
	r->pgo = (int)get_int(o, "pgo");
	r->dirty = (int)get_int(o, "dirty");
	r->exit_status = (int)get_int(o, "exit");
	r->seconds = get_num(o, "seconds");
	r->size = get_num(o, "size");
	r->flags = xstrdup(flags ? flags : "");
	r->dir = dup_or_null(get_str(o, "dir"));
	r->artifact = dup_or_null(get_str(o, "artifact"));
	/* Older tuners did not record it: unknown, worked out again. */
	if (get_fixed(r->code, sizeof(r->code), o, "code", 0) < 0)
		return bad_field(path, line, "build", "code");
	/* Format 1 without it (older tuners, or no build.applied): the build
	 * was not checked. */
	if (json_object_get(o, "applied") &&
	    parse_applied(&r->applied, json_object_get(o, "applied")) < 0)
		return bad_field(path, line, "build", "applied");
	if (get_fixed(r->same_build, sizeof(r->same_build), o, "same_build", 0) < 0)
		return bad_field(path, line, "build", "same_build");
	r->ignored = dup_or_null(get_str(o, "ignored"));
	if (get_fixed(r->profile, sizeof(r->profile), o, "profile", 0) < 0)
		return bad_field(path, line, "build", "profile");
	if (get_fixed(r->profile_from, sizeof(r->profile_from), o, "profile_from", 0) < 0)
		return bad_field(path, line, "build", "profile_from");
	return 0;
}

static int parse_measure(struct measure_record *r, json_t *o, const char *path, size_t line)
{
	json_t *values = json_object_get(o, "values");
	const char *testbed = get_str(o, "testbed");
	const char *name;
	json_t *v;
	size_t i = 0;

	if (get_fixed(r->build_key, sizeof(r->build_key), o, "build", 1) < 0)
		return bad_field(path, line, "measure", "build");
	if (get_fixed(r->config_id, sizeof(r->config_id), o, "config", 0) < 0)
		return bad_field(path, line, "measure", "config");
	if (values && !json_is_object(values))
		return bad_field(path, line, "measure", "values");
	r->testbed = xstrdup(testbed ? testbed : "");
	r->run = (unsigned)get_int(o, "run");
	r->ok = (int)get_int(o, "ok");
	r->seconds = get_num(o, "seconds");
	r->error = dup_or_null(get_str(o, "error"));
	r->nvalues = json_object_size(values);
	r->names = xcalloc(r->nvalues, sizeof(*r->names));
	r->values = xcalloc(r->nvalues, sizeof(*r->values));
	/* jansson keeps objects in insertion order, so names keep theirs. */
	json_object_foreach(values, name, v) {
		r->names[i] = xstrdup(name);
		r->values[i] = json_is_number(v) ? json_number_value(v) : NAN;
		i++;
	}
	return 0;
}

int jrec_parse(struct jrec *out, const char *text, size_t len, const char *path,
	       size_t line)
{
	json_error_t jerr;
	json_t *o;
	json_t *format;
	const char *type;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->type = JREC_OTHER;
	out->format = -1;
	o = json_loadb(text, len, 0, &jerr);
	if (!o)
		return JREC_NOT_JSON;
	type = get_str(o, "type");
	if (!json_is_object(o) || !type) {
		ret = tn_error_at(path, (int)line, 0, "not a journal record");
	} else if (!strcmp(type, "header")) {
		out->type = JREC_HEADER;
		format = json_object_get(o, "format");
		if (json_is_integer(format))
			out->format = json_integer_value(format);
		out->study_hash = dup_or_null(get_str(o, "study_hash"));
	} else if (!strcmp(type, "build")) {
		out->type = JREC_BUILD;
		ret = parse_build(&out->build, o, path, line);
	} else if (!strcmp(type, "measure")) {
		out->type = JREC_MEASURE;
		ret = parse_measure(&out->measure, o, path, line);
	}
	json_decref(o);
	if (ret < 0)
		jrec_release(out);
	return ret;
}

void jrec_release(struct jrec *r)
{
	free(r->study_hash);
	r->study_hash = NULL;
	build_record_release(&r->build);
	measure_record_release(&r->measure);
}

void build_record_release(struct build_record *r)
{
	free(r->flags);
	free(r->dir);
	free(r->artifact);
	free(r->ignored);
	r->flags = r->dir = r->artifact = r->ignored = NULL;
	applied_release(&r->applied);
}

void measure_record_release(struct measure_record *r)
{
	for (size_t i = 0; i < r->nvalues; i++)
		free(r->names[i]);
	free(r->names);
	free(r->values);
	free(r->testbed);
	free(r->error);
	r->names = NULL;
	r->values = NULL;
	r->testbed = r->error = NULL;
	r->nvalues = 0;
}
