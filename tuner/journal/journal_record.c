/* SPDX-License-Identifier: GPL-2.0-or-later */
/* journal_record: the names of statuses and events, records into lines, and
 * releasing records; see journal_record.h */
#include "journal_record.h"
#include "tuner/util.h"

#include <math.h>
#include <stdio.h>
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

const char *journal_build_status_name(enum build_status s)
{
	if ((unsigned)s >= ARRAY_SIZE(status_names))
		return "unknown";
	return status_names[s];
}

int journal_rec_parse_status(enum build_status *out, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(status_names); i++) {
		if (!strcmp(status_names[i], name)) {
			*out = (enum build_status)i;
			return 0;
		}
	}
	return -1;
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

char *journal_rec_header_line(const char *study, const char *study_hash)
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

char *journal_rec_build_line(const struct build_record *r)
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
	err |= set_str(o, "status", journal_build_status_name(r->status));
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
	if (r->jobs) {
		err |= set_str(o, "slurm_jobs", r->jobs);
		err |= set_new(o, "slurm_submitted", json_integer(r->job_attempts));
	}
	return finish(o, err);
}

char *journal_rec_measure_line(const struct measure_record *r)
{
	json_t *o = json_object();
	json_t *values = json_object();
	int err = 0;

	err |= set_str(o, "type", "measure");
	err |= set_str(o, "build", r->build_key);
	err |= set_str(o, "config", r->config_id);
	if (r->mkey[0])
		err |= set_str(o, "mkey", r->mkey);
	err |= set_str(o, "testbed", r->testbed ? r->testbed : "");
	err |= set_new(o, "run", json_integer((json_int_t)r->run));
	err |= set_new(o, "ok", json_boolean(r->ok));
	for (size_t i = 0; i < r->nvalues; i++)
		err |= set_new(values, r->names[i], json_num(r->values[i]));
	err |= set_new(o, "values", values);
	err |= set_new(o, "seconds", json_num(r->seconds));
	if (r->error)
		err |= set_str(o, "error", r->error);
	if (r->deploy_failed)
		err |= set_new(o, "deploy_failed", json_true());
	return finish(o, err);
}

static const char *const tb_event_names[TB_NEVENTS] = {
	"deploy", "ready", "reboot", "recover", "boot-failed", "fault", "quarantine"
};

const char *journal_tb_event_name(enum tb_event e)
{
	return e < TB_NEVENTS ? tb_event_names[e] : "?";
}

char *journal_rec_testbed_line(const struct testbed_record *r)
{
	json_t *o = json_object();
	int err = 0;

	err |= set_str(o, "type", "testbed");
	err |= set_str(o, "testbed", r->testbed ? r->testbed : "");
	err |= set_str(o, "event", journal_tb_event_name(r->event));
	if (r->build[0])
		err |= set_str(o, "build", r->build);
	err |= set_new(o, "ok", json_boolean(r->ok));
	err |= set_new(o, "seconds", json_num(r->seconds));
	if (r->error)
		err |= set_str(o, "error", r->error);
	err |= set_new(o, "time", json_now());
	return finish(o, err);
}

char *journal_rec_run_line(unsigned jobs, unsigned long planned, unsigned long cached)
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

char *journal_rec_end_line(int interrupted)
{
	json_t *o = json_object();
	int err = 0;

	err |= set_str(o, "type", "end");
	err |= set_str(o, "status", interrupted ? "interrupted" : "complete");
	err |= set_new(o, "time", json_now());
	return finish(o, err);
}

/* ---- releasing ---- */

void journal_testbed_record_release(struct testbed_record *r)
{
	free(r->testbed);
	free(r->error);
	r->testbed = r->error = NULL;
}

void journal_build_record_release(struct build_record *r)
{
	free(r->flags);
	free(r->dir);
	free(r->artifact);
	free(r->ignored);
	free(r->jobs);
	r->flags = r->dir = r->artifact = r->ignored = r->jobs = NULL;
	applied_release(&r->applied);
}

void journal_measure_record_release(struct measure_record *r)
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
