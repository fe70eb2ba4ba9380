/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_output_json: pareto.json, the run's results as one JSON document
 * (report_json_doc(), report_json(); see include/tuner/run_output.h). */
#include "tuner/run_output.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "tuner/util.h"
#include "run_output_priv.h"

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* build.applied for one configuration: null when not checked. */
static json_t *applied_json(const struct applied *a)
{
	json_t *o, *flags, *missed;

	if (!a->checked)
		return json_null();
	o = json_object();
	flags = json_array();
	missed = json_array();
	json_object_set_new(o, "source", json_string(a->recorded ? "record" : "command"));
	json_object_set_new(o, "builds", json_integer((json_int_t)a->builds));
	json_object_set_new(o, "lines", json_integer((json_int_t)a->lines));
	json_object_set_new(o, "note", a->note ? json_string(a->note) : json_null());
	for (size_t i = 0; i < a->nflags; i++) {
		const struct applied_flag *f = &a->flags[i];
		json_t *fo = json_object();
		json_object_set_new(fo, "flag", json_string(f->flag));
		json_object_set_new(fo, "in_effect", json_integer((json_int_t)f->in_effect));
		json_object_set_new(fo, "overridden", json_integer((json_int_t)f->overridden));
		json_object_set_new(fo, "overridden_by", f->overridden_by ?
				    json_string(f->overridden_by) : json_null());
		json_object_set_new(fo, "recorded", json_boolean(!f->unrecorded));
		json_array_append_new(flags, fo);
		if (applied_flag_missed(a, f))
			json_array_append_new(missed, json_string(f->flag));
	}
	json_object_set_new(o, "flags", flags);
	json_object_set_new(o, "not_applied", missed);
	return o;
}

static json_t *config_json(const struct study *s, const struct config_result *c)
{
	json_t *o = json_object(), *vals = json_object(), *dirs = json_array(),
	       *tied = json_array();

	json_object_set_new(o, "config", json_string(c->id));
	json_object_set_new(o, "flags", json_string(c->flags));
	json_object_set_new(o, "pgo", json_string(c->pgo ? "on" : "off"));
	json_object_set_new(o, "status", json_string(c->status));
	json_object_set_new(o, "on_front", json_boolean(c->on_front));
	json_object_set_new(o, "feasible", json_boolean(c->feasible));
	json_object_set_new(o, "tied", json_boolean(c->tied));
	for (size_t k = 0; k < c->ntied; k++)
		json_array_append_new(tied, json_string(c->tied_with[k]));
	json_object_set_new(o, "tied_with", tied);
	json_object_set_new(o, "same_code_as", c->same_code_as[0] ?
			    json_string(c->same_code_as) : json_null());
	if (c->race) {
		json_t *race = json_object();
		json_object_set_new(race, "runs", json_integer((json_int_t)c->runs));
		json_object_set_new(race, "verdict", json_string(c->race));
		json_object_set_new(o, "race", race);
	} else {
		json_object_set_new(o, "race", json_null());
	}
	for (size_t i = 0; i < s->nobjectives; i++) {
		const struct summary *sm = &c->obj[i];
		json_t *v = json_object();
		json_object_set_new(v, "value", num_or_null(c->value[i]));
		json_object_set_new(v, "n", json_integer((json_int_t)sm->n));
		json_object_set_new(v, "median", num_or_null(sm->median));
		json_object_set_new(v, "sd", num_or_null(sm->n ? sm->stddev : NAN));
		json_object_set_new(v, "min", num_or_null(sm->min));
		json_object_set_new(v, "max", num_or_null(sm->max));
		json_object_set_new(v, "run_sd", num_or_null(c->spread[i].within_sd));
		json_object_set_new(v, "layout_sd", num_or_null(c->spread[i].between_sd));
		json_object_set_new(v, "layout_seeds", json_integer((json_int_t)c->spread[i].clusters));
		json_object_set_new(vals, s->objectives[i].name, v);
	}
	json_object_set_new(o, "objectives", vals);
	json_object_set_new(o, "applied", applied_json(&c->applied));
	for (size_t k = 0; k < c->nbuilds; k++)
		json_array_append_new(dirs, json_string(c->build_dirs[k]));
	json_object_set_new(o, "builds", dirs);
	return o;
}

/* Where and when: the host (uname's node name and machine) and the
 * run's end as ISO 8601 UTC. */
static void provenance_json(json_t *root, const struct run_result *r)
{
	struct utsname u;
	struct tm tm;
	char date[32];

	json_object_set_new(root, "compiler", r->compiler ? json_string(r->compiler) : json_null());
	if (uname(&u) == 0) {
		json_t *host = json_object();
		json_object_set_new(host, "name", json_string(u.nodename));
		json_object_set_new(host, "machine", json_string(u.machine));
		json_object_set_new(root, "host", host);
	} else {
		json_object_set_new(root, "host", json_null());
	}
	if (r->ended && gmtime_r(&r->ended, &tm) &&
	    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm))
		json_object_set_new(root, "date", json_string(date));
	else
		json_object_set_new(root, "date", json_null());
}

json_t *report_json_doc(const struct study *s, const struct run_result *r)
{
	json_t *root = json_object(), *objs = json_array(), *front = json_array(),
	       *all = json_array(), *src = json_object();

	json_object_set_new(root, "study", json_string(s->name));
	json_object_set_new(root, "study_hash", json_string(s->hash));
	json_object_set_new(root, "tuner", json_string(TUNER_VERSION));
	json_object_set_new(src, "commit", json_string(r->commit));
	json_object_set_new(src, "tree", json_string(r->tree));
	json_object_set_new(src, "dirty", json_boolean(r->dirty));
	json_object_set_new(root, "source", src);
	provenance_json(root, r);
	json_object_set_new(root, "complete", json_boolean(!r->interrupted));
	json_object_set_new(root, "confidence", json_real(0.95));
	if (r->raced) {
		json_t *race = json_object();
		json_object_set_new(race, "measurements", json_integer((json_int_t)r->race_measures));
		json_object_set_new(race, "at_max", json_integer((json_int_t)r->race_full));
		json_object_set_new(root, "race", race);
	}
	for (size_t i = 0; i < s->nobjectives; i++) {
		const struct objective *o = &s->objectives[i];
		json_t *jo = json_object();
		json_object_set_new(jo, "name", json_string(o->name));
		json_object_set_new(jo, "unit", json_string(o->unit));
		json_object_set_new(jo, "goal", json_string(o->maximize ? "max" : "min"));
		json_object_set_new(jo, "limit", o->has_limit ? json_real(o->limit) : json_null());
		json_object_set_new(jo, "modelled", json_boolean(report_objective_modelled(o)));
		json_object_set_new(jo, "noisy", json_boolean(r->noisy && r->noisy[i]));
		json_array_append_new(objs, jo);
	}
	json_object_set_new(root, "objectives", objs);
	for (size_t c = 0; c < r->nconfigs; c++) {
		if (r->configs[c].on_front)
			json_array_append_new(front, config_json(s, &r->configs[c]));
		json_array_append_new(all, config_json(s, &r->configs[c]));
	}
	json_object_set_new(root, "front", front);
	json_object_set_new(root, "configs", all);
	json_object_set_new(root, "testbeds", report_testbeds_json(s, r));
	return root;
}

int report_json(const struct study *s, const struct run_result *r, const char *path)
{
	json_t *root = report_json_doc(s, r);
	char *text;
	int ret;

	text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (!text)
		return tn_error("cannot encode %s", path);
	ret = write_file_atomic(path, text, strlen(text));
	free(text);
	return ret;
}
