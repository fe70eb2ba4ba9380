/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * study_objectives: the objectives section of a study file, and the
 * objectives as a front compares them. See include/tuner/study.h for the
 * format and study_priv.h for how this part meets study.c.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/pareto.h"
#include "tuner/util.h"
#include "study_priv.h"

static const char *const objective_keys[] = {
	"name", "unit", "goal", "limit", "from", "parser", NULL
};

/* Objective idx of the list seq; size and measure are parsed already. */
static int parse_objective(struct loader *ld, struct objective *o, const struct ynode *seq,
			   size_t idx)
{
	static const char *const goals[] = { "max", "min", NULL };
	static const char *const sources[] = { "measure", "size", NULL };
	const struct study *s = ld->s;
	const struct ynode *n = seq->kids[idx], *name, *v, *from;
	int i;

	if (study_want_map(ld, n, "objective", objective_keys) < 0)
		return -1;
	name = study_ynode_get(n, "name");
	if (!name)
		return study_err(ld, n, "objective without a name");
	if (study_ynode_str(&o->name, ld->path, name, "objective name") < 0)
		return -1;
	if (!*o->name)
		return study_err(ld, name, "empty objective name");
	for (size_t j = 0; j < idx; j++) {
		const struct ynode *other = study_ynode_get(seq->kids[j], "name");

		if (!strcmp(other->str, o->name))
			return study_err(ld, name, "duplicate objective '%s' "
					 "(first at line %d)", o->name, other->line);
	}

	o->unit = xstrdup("");
	v = study_ynode_get(n, "unit");
	if (v && study_ynode_str(&o->unit, ld->path, v, "unit") < 0)
		return -1;
	v = study_ynode_get(n, "goal");
	if (!v)
		return study_err(ld, n, "objective '%s' needs a goal (max or min)", o->name);
	if (study_ynode_choice(&i, ld->path, v, "goal", goals) < 0)
		return -1;
	o->maximize = i == 0;
	v = study_ynode_get(n, "limit");
	if (v) {
		if (study_ynode_double(&o->limit, ld->path, v, "limit") < 0)
			return -1;
		o->has_limit = 1;
	}

	from = study_ynode_get(n, "from");
	o->from_size = !strcmp(o->name, "size");
	if (from) {
		if (study_ynode_choice(&i, ld->path, from, "from", sources) < 0)
			return -1;
		o->from_size = i == 1;
	}
	v = study_ynode_get(n, "parser");
	if (o->from_size) {
		if (v)
			return study_err(ld, v, "'parser' does not apply to the size "
					 "objective '%s'", o->name);
		if (s->size_kind == SIZE_NONE)
			return study_err(ld, from ? from : n, "objective '%s' is the "
					 "artifact size but there is no size section", o->name);
		return 0;
	}
	if (v) {
		if (study_ynode_str(&o->parser, ld->path, v, "parser") < 0 ||
		    study_check_parser(ld, v, o->parser) < 0)
			return -1;
	} else {
		o->parser = xstrdup(s->parser);
	}
	if (!s->measure.command)
		return study_err(ld, ld->measure ? ld->measure : n,
				 "objective '%s' is measured but there is no measure command",
				 o->name);
	return 0;
}

int study_parse_objectives(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	struct study *s = ld->s;

	if (study_ynode_want(ld->path, n, YNODE_SEQ, "objectives") < 0)
		return -1;
	if (!n->nkids)
		return study_err(ld, n, "'objectives' is empty");
	s->objectives = xcalloc(n->nkids, sizeof(*s->objectives));
	s->nobjectives = n->nkids;
	for (size_t i = 0; i < n->nkids; i++)
		if (parse_objective(ld, &s->objectives[i], n, i) < 0)
			return -1;
	return 0;
}

void study_release_objectives(struct study *s)
{
	for (size_t i = 0; i < s->nobjectives; i++) {
		free(s->objectives[i].name);
		free(s->objectives[i].unit);
		free(s->objectives[i].parser);
	}
	free(s->objectives);
}

void study_pareto_objs(struct pareto_obj *objs, const struct study *s)
{
	for (size_t k = 0; k < s->nobjectives; k++) {
		objs[k].maximize = s->objectives[k].maximize;
		objs[k].has_limit = s->objectives[k].has_limit;
		objs[k].limit = s->objectives[k].limit;
		objs[k].exact = s->objectives[k].from_size;
	}
}
