/* SPDX-License-Identifier: GPL-2.0-or-later */
/* journal_record_read: journal lines back into records; see journal_record.h */
#include "journal_record.h"
#include "formats/jsonkind.h"
#include "tuner/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/*
 * A record being read: the first field found wrong is reported, as
 * "PATH:LINE: bad TYPE record: FIELD ...", and the record is refused, so
 * that a damaged value never quietly becomes a result.
 */
struct reader {
	json_t *o;
	const char *path;
	size_t line;
	const char *type;
	int bad; /* a message was set */
};

static int rd_bad(struct reader *rd, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rd_bad(struct reader *rd, const char *field, const char *fmt, ...)
{
	char what[160];
	va_list ap;
	int first;

	va_start(ap, fmt);
	first = jsonkind_first_bad(&rd->bad, what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!first)
		return -1;
	return tn_error_at(rd->path, (int)rd->line, 0, "bad %s record: '%s' %s", rd->type,
			   field, what);
}

/* A string, or NULL when absent or null (required: then wrong). */
static const char *rd_str(struct reader *rd, json_t *o, const char *k, int required)
{
	json_t *v = json_object_get(o, k);

	if (json_is_string(v))
		return json_string_value(v);
	if (v && !json_is_null(v))
		rd_bad(rd, k, "must be a string, not %s", jsonkind_name(v));
	else if (required)
		rd_bad(rd, k, "is missing");
	return NULL;
}

/* A string of at most size-1 bytes into out ("" when absent; required:
 * present and not empty); hex: only lowercase hexadecimal digits. */
static void rd_fixed(struct reader *rd, char *out, size_t size, json_t *o, const char *k,
		     int required, int hex)
{
	const char *s = rd_str(rd, o, k, required);

	out[0] = '\0';
	if (!s)
		return;
	if (strlen(s) >= size || (required && !*s)) {
		rd_bad(rd, k, "must be %s%zu characters long", required ? "1 to " : "at most ",
		       size - 1);
		return;
	}
	if (hex && strspn(s, "0123456789abcdef") != strlen(s)) {
		rd_bad(rd, k, "must be hexadecimal");
		return;
	}
	strcpy(out, s);
}

/* A finite number >= min, or NaN when absent or null. */
static double rd_num(struct reader *rd, json_t *o, const char *k, double min)
{
	json_t *v = json_object_get(o, k);
	double d;

	if (!v || json_is_null(v))
		return NAN;
	if (!json_is_number(v)) {
		rd_bad(rd, k, "must be a number or null, not %s", jsonkind_name(v));
		return NAN;
	}
	d = json_number_value(v);
	if (!(d >= min)) {
		rd_bad(rd, k, "must be at least %g, not %g", min, d);
		return NAN;
	}
	return d;
}

/* An integer in [min, max]; 0 when absent. */
static long long rd_int(struct reader *rd, json_t *o, const char *k, long long min,
			long long max)
{
	json_t *v = json_object_get(o, k);
	long long n;

	if (!v)
		return 0;
	if (!json_is_integer(v)) {
		rd_bad(rd, k, "must be an integer, not %s", jsonkind_name(v));
		return 0;
	}
	n = json_integer_value(v);
	if (n < min || n > max) {
		rd_bad(rd, k, "must be from %lld to %lld, not %lld", min, max, n);
		return 0;
	}
	return n;
}

/* A boolean (or, as older tuners wrote some, 0 or 1); 0 when absent. */
static int rd_bool(struct reader *rd, json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_boolean(v))
		return json_is_true(v);
	return (int)rd_int(rd, o, k, 0, 1);
}

/* The build record's "applied" object into a (left unchecked when absent). */
static void rd_applied(struct reader *rd, struct applied *a, json_t *o)
{
	json_t *flags = json_object_get(o, "flags");
	const char *source;
	json_t *f;
	size_t i;

	if (!json_is_object(o)) {
		rd_bad(rd, "applied", "must be an object, not %s", jsonkind_name(o));
		return;
	}
	if (!json_is_array(flags)) {
		rd_bad(rd, "applied.flags", "must be an array");
		return;
	}
	source = rd_str(rd, o, "source", 1);
	if (!source)
		return;
	a->checked = 1;
	a->builds = 1;
	a->recorded = !strcmp(source, "record");
	a->lines = (unsigned)rd_int(rd, o, "lines", 0, UINT32_MAX);
	a->note = dup_or_null(rd_str(rd, o, "note", 0));
	a->flags = xcalloc(json_array_size(flags) + 1, sizeof(*a->flags));
	json_array_foreach(flags, i, f) {
		struct applied_flag *af = &a->flags[a->nflags];
		const char *flag;

		if (!json_is_object(f)) {
			rd_bad(rd, "applied.flags", "must hold objects, not %s", jsonkind_name(f));
			return;
		}
		flag = rd_str(rd, f, "flag", 1);
		if (!flag)
			return;
		af->flag = xstrdup(flag);
		af->in_effect = (unsigned)rd_int(rd, f, "in_effect", 0, UINT32_MAX);
		af->overridden = (unsigned)rd_int(rd, f, "overridden", 0, UINT32_MAX);
		af->overridden_by = dup_or_null(rd_str(rd, f, "overridden_by", 0));
		af->unrecorded = rd_bool(rd, f, "unrecorded");
		a->nflags++;
	}
}

static int parse_build(struct build_record *r, struct reader *rd)
{
	json_t *o = rd->o;
	const char *status = rd_str(rd, o, "status", 1);
	const char *flags = rd_str(rd, o, "flags", 0);

	rd_fixed(rd, r->key, sizeof(r->key), o, "key", 1, 1);
	rd_fixed(rd, r->config_id, sizeof(r->config_id), o, "config", 0, 1);
	if (status && journal_rec_parse_status(&r->status, status) < 0)
		rd_bad(rd, "status", "is not a build status: '%.40s'", status);
	rd_fixed(rd, r->commit, sizeof(r->commit), o, "commit", 0, 1);
	rd_fixed(rd, r->tree, sizeof(r->tree), o, "tree", 0, 1);
	r->layout_seed = (unsigned)rd_int(rd, o, "seed", 0, UINT32_MAX);
	r->pgo = rd_bool(rd, o, "pgo");
	r->dirty = rd_bool(rd, o, "dirty");
	r->exit_status = (int)rd_int(rd, o, "exit", INT32_MIN, INT32_MAX);
	r->seconds = rd_num(rd, o, "seconds", 0);
	r->size = rd_num(rd, o, "size", 0);
	r->flags = xstrdup(flags ? flags : "");
	r->dir = dup_or_null(rd_str(rd, o, "dir", 0));
	r->artifact = dup_or_null(rd_str(rd, o, "artifact", 0));
	/* Older tuners did not record it: unknown, worked out again. */
	rd_fixed(rd, r->code, sizeof(r->code), o, "code", 0, 1);
	/* Format 1 without it (older tuners, or no build.applied): the build
	 * was not checked. */
	if (json_object_get(o, "applied") && !json_is_null(json_object_get(o, "applied")))
		rd_applied(rd, &r->applied, json_object_get(o, "applied"));
	rd_fixed(rd, r->same_build, sizeof(r->same_build), o, "same_build", 0, 1);
	r->ignored = dup_or_null(rd_str(rd, o, "ignored", 0));
	rd_fixed(rd, r->profile, sizeof(r->profile), o, "profile", 0, 1);
	rd_fixed(rd, r->profile_from, sizeof(r->profile_from), o, "profile_from", 0, 1);
	r->jobs = dup_or_null(rd_str(rd, o, "slurm_jobs", 0));
	r->job_attempts = (unsigned)rd_int(rd, o, "slurm_submitted", 0, UINT32_MAX);
	return rd->bad ? -1 : 0;
}

static int parse_measure(struct measure_record *r, struct reader *rd)
{
	json_t *o = rd->o;
	json_t *values = json_object_get(o, "values");
	const char *testbed = rd_str(rd, o, "testbed", 0);
	const char *name;
	json_t *v;
	size_t i = 0;

	rd_fixed(rd, r->build_key, sizeof(r->build_key), o, "build", 1, 1);
	rd_fixed(rd, r->config_id, sizeof(r->config_id), o, "config", 0, 1);
	rd_fixed(rd, r->mkey, sizeof(r->mkey), o, "mkey", 0, 1);
	if (values && !json_is_object(values))
		rd_bad(rd, "values", "must be an object, not %s", jsonkind_name(values));
	r->testbed = xstrdup(testbed ? testbed : "");
	r->run = (unsigned)rd_int(rd, o, "run", 0, INT32_MAX);
	r->ok = rd_bool(rd, o, "ok");
	r->seconds = rd_num(rd, o, "seconds", 0);
	r->error = dup_or_null(rd_str(rd, o, "error", 0));
	r->deploy_failed = rd_bool(rd, o, "deploy_failed");
	if (rd->bad)
		return -1;
	r->nvalues = json_object_size(values);
	r->names = xcalloc(r->nvalues, sizeof(*r->names));
	r->values = xcalloc(r->nvalues, sizeof(*r->values));
	/* jansson keeps objects in insertion order, so names keep theirs. */
	json_object_foreach(values, name, v) {
		r->names[i] = xstrdup(name);
		r->values[i] = NAN;
		i++;
		if (!*name) {
			rd_bad(rd, "values", "has an empty objective name");
		} else if (json_is_number(v)) {
			r->values[i - 1] = json_number_value(v);
		} else if (!json_is_null(v)) {
			rd_bad(rd, "values", "must map names to numbers or null; '%.40s' is %s",
			       name, jsonkind_name(v));
		} else if (r->ok) {
			rd_bad(rd, "values", "has no value for '%.40s' in a record marked ok", name);
		}
	}
	return rd->bad ? -1 : 0;
}

static int parse_testbed(struct testbed_record *r, struct reader *rd)
{
	json_t *o = rd->o;
	const char *tb = rd_str(rd, o, "testbed", 1);
	const char *ev = rd_str(rd, o, "event", 1);

	r->testbed = xstrdup(tb ? tb : "");
	r->event = TB_NEVENTS;
	for (int e = 0; ev && e < TB_NEVENTS; e++)
		if (!strcmp(ev, journal_tb_event_name((enum tb_event)e)))
			r->event = (enum tb_event)e;
	if (ev && r->event == TB_NEVENTS)
		rd_bad(rd, "event", "'%.40s' is not a testbed event", ev);
	rd_fixed(rd, r->build, sizeof(r->build), o, "build", 0, 1);
	r->ok = rd_bool(rd, o, "ok");
	r->seconds = rd_num(rd, o, "seconds", 0);
	r->error = dup_or_null(rd_str(rd, o, "error", 0));
	return rd->bad ? -1 : 0;
}

int journal_rec_parse(struct jrec *out, const char *text, size_t len, const char *path,
		      size_t line)
{
	struct reader rd = { .path = path, .line = line };
	json_error_t jerr;
	json_t *format;
	const char *type;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->type = JREC_OTHER;
	out->format = -1;
	rd.o = json_loadb(text, len, 0, &jerr);
	if (!rd.o)
		return JREC_NOT_JSON;
	type = json_string_value(json_object_get(rd.o, "type"));
	rd.type = type;
	if (!json_is_object(rd.o) || !type) {
		ret = tn_error_at(path, (int)line, 0, "not a journal record");
	} else if (!strcmp(type, "header")) {
		out->type = JREC_HEADER;
		format = json_object_get(rd.o, "format");
		if (json_is_integer(format))
			out->format = json_integer_value(format);
		out->study_hash = dup_or_null(rd_str(&rd, rd.o, "study_hash", 0));
		out->study = dup_or_null(rd_str(&rd, rd.o, "study", 0));
		ret = rd.bad ? -1 : 0;
	} else if (!strcmp(type, "build")) {
		out->type = JREC_BUILD;
		ret = parse_build(&out->build, &rd);
	} else if (!strcmp(type, "measure")) {
		out->type = JREC_MEASURE;
		ret = parse_measure(&out->measure, &rd);
	} else if (!strcmp(type, "testbed")) {
		out->type = JREC_TESTBED;
		ret = parse_testbed(&out->testbed, &rd);
	}
	json_decref(rd.o);
	if (ret < 0)
		journal_rec_release(out);
	return ret;
}

void journal_rec_release(struct jrec *r)
{
	free(r->study_hash);
	free(r->study);
	r->study_hash = NULL;
	r->study = NULL;
	journal_build_record_release(&r->build);
	journal_measure_record_release(&r->measure);
	journal_testbed_record_release(&r->testbed);
}
