/* SPDX-License-Identifier: GPL-2.0-or-later */
/* results: see include/tuner/results.h */
#include "tuner/results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tuner/util.h"
#include "results_priv.h"

/* ---- Placing the configurations in the space ---- */

struct id_index {
	char id[17];
	uint64_t index;
};

static int cmp_id_index(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Every configuration of a space of at most STUDY_MAX_CONFIGS: the
 * first of each id wins. */
static int pick_by_enumeration(struct results *r, const struct space *sp)
{
	uint64_t n = space_size(sp);
	struct id_index *ids = xcalloc(n ? n : 1, sizeof(*ids)), key;

	for (uint64_t i = 0; i < n; i++) {
		struct config c = CONFIG_INIT;

		if (space_config(&c, sp, i) < 0) {
			free(ids);
			return -1;
		}
		memcpy(ids[i].id, c.id, sizeof(c.id));
		ids[i].index = i;
		config_release(&c);
	}
	qsort(ids, n, sizeof(*ids), cmp_id_index);
	for (size_t k = 0; k < r->nconfigs; k++) {
		struct results_config *c = &r->configs[k];
		size_t lo = 0, hi = n;

		memcpy(key.id, c->id, sizeof(key.id));
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (strcmp(ids[mid].id, key.id) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == n || strcmp(ids[lo].id, key.id))
			continue;
		c->pick = xcalloc(sp->ndims ? sp->ndims : 1, sizeof(*c->pick));
		space_index_pick(c->pick, sp, ids[lo].index);
	}
	free(ids);
	return 0;
}

/* A space too big to list: each configuration's flags read as values. */
static void pick_by_parsing(struct results *r, const struct space *sp)
{
	for (size_t k = 0; k < r->nconfigs; k++) {
		struct results_config *c = &r->configs[k];
		size_t *pick = xcalloc(sp->ndims ? sp->ndims : 1, sizeof(*pick));
		struct config cfg = CONFIG_INIT;

		if (space_flags_pick(pick, sp, c->flags, c->pgo ? PGO_ON : PGO_OFF) &&
		    space_config_pick(&cfg, sp, pick) == 0 && !strcmp(cfg.id, c->id)) {
			c->pick = pick;
			pick = NULL;
		}
		config_release(&cfg);
		free(pick);
	}
}

static int place(struct results *r, const struct space *sp)
{
	if (!space_beyond_u64(sp) && space_size(sp) <= STUDY_MAX_CONFIGS)
		return pick_by_enumeration(r, sp);
	pick_by_parsing(r, sp);
	return 0;
}

int results_load(struct results *out, const struct study *s, const char *dir)
{
	struct stat st;
	char *path;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->dir = dir ? xstrdup(dir) : xasprintf("results/%s", s->name);
	path = xasprintf("%s/pareto.json", out->dir);
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			tn_input_error_at(path, 0, 0, "no results: run the study first (tuner run %s%s%s)",
					  s->path ? s->path : s->name, dir ? " --results " : "",
					  dir ? dir : "");
		else
			tn_error_errno("cannot read '%s'", path);
		goto out;
	}
	if (results_parse(out, path) < 0)
		goto out;
	if (strcmp(out->study, s->name)) {
		tn_input_error_at(path, 0, 0, "the results of study '%s', not of '%s' (%s)",
				  out->study, s->name, s->path ? s->path : "the study");
		goto out;
	}
	if (place(out, &s->space) < 0)
		goto out;
	ret = 0;
out:
	free(path);
	if (ret < 0)
		results_release(out);
	return ret;
}

void results_release(struct results *r)
{
	for (size_t i = 0; r->objectives && i < r->nobjectives; i++) {
		free(r->objectives[i].name);
		free(r->objectives[i].unit);
	}
	for (size_t k = 0; r->configs && k < r->nconfigs; k++) {
		struct results_config *c = &r->configs[k];

		free(c->flags);
		free(c->status);
		free(c->same_code_as);
		free(c->pick);
		free(c->obj);
		for (size_t b = 0; b < c->nbuilds; b++)
			free(c->build_dirs[b]);
		free(c->build_dirs);
	}
	free(r->objectives);
	free(r->configs);
	free(r->dir);
	free(r->study);
	free(r->tuner);
	free(r->compiler);
	free(r->host);
	free(r->date);
	memset(r, 0, sizeof(*r));
}

int results_objective(const struct results *r, const char *name)
{
	for (size_t i = 0; i < r->nobjectives; i++)
		if (!strcmp(r->objectives[i].name, name))
			return (int)i;
	return -1;
}

static struct results_effect_row *find_row(struct results_effect_row **rows, size_t *nrows,
					   size_t n, const char *dim, const char *ref,
					   const char *value)
{
	struct results_effect_row *r;

	for (size_t i = 0; i < *nrows; i++)
		if (!strcmp((*rows)[i].dim, dim) && !strcmp((*rows)[i].ref, ref) &&
		    !strcmp((*rows)[i].value, value))
			return &(*rows)[i];
	*rows = xrealloc(*rows, (*nrows + 1) * sizeof(**rows));
	r = &(*rows)[(*nrows)++];
	r->dim = dim;
	r->ref = ref;
	r->value = value;
	r->at = xcalloc(n ? n : 1, sizeof(*r->at));
	r->d = xcalloc(n ? n : 1, sizeof(*r->d));
	for (size_t k = 0; k < n; k++)
		r->at[k] = -1;
	return r;
}

struct results_effect_row *results_effect_rows(const struct results_target *t, size_t n,
					       size_t *nrows)
{
	struct results_effect_row *rows = NULL;

	*nrows = 0;
	for (size_t k = 0; k < n; k++) {
		const struct space *sp = &t[k].study.space;
		long vi = 0;

		/* In the order of struct effects: dimension by dimension,
		 * values 1.. */
		for (size_t d = 0; d < sp->ndims; d++)
			for (size_t v = 1; v < sp->dims[d].nvalues; v++, vi++) {
				struct results_effect_row *r = find_row(&rows, nrows, n,
									sp->dims[d].name,
									sp->dims[d].values[0],
									sp->dims[d].values[v]);
				r->at[k] = vi;
				r->d[k] = d;
			}
	}
	return rows;
}

void results_effect_rows_free(struct results_effect_row *rows, size_t nrows)
{
	for (size_t k = 0; rows && k < nrows; k++) {
		free(rows[k].at);
		free(rows[k].d);
	}
	free(rows);
}

const char *results_value_label(char *buf, size_t len, const struct dimension *dim,
				const char *value)
{
	if (dim->kind == DIM_PGO)
		snprintf(buf, len, "pgo=%s", value);
	else if (!*value)
		snprintf(buf, len, "(no %s)", dim->name);
	else
		snprintf(buf, len, "%s", value);
	return buf;
}

int results_effects(struct effects *out, const struct results *r, const struct space *sp,
		    size_t obj)
{
	struct effects_obs *obs = xcalloc(r->nconfigs + 1, sizeof(*obs));
	size_t *nvalues = xcalloc(sp->ndims + 1, sizeof(*nvalues));
	int ret;

	for (size_t d = 0; d < sp->ndims; d++)
		nvalues[d] = sp->dims[d].nvalues;
	for (size_t k = 0; k < r->nconfigs; k++) {
		const struct results_config *c = &r->configs[k];

		obs[k].pick = c->pick;
		obs[k].value = c->obj[obj].known ? c->obj[obj].value : NAN;
		obs[k].se = c->obj[obj].se;
		obs[k].code = c->same_code_as ? c->same_code_as : c->id;
	}
	ret = effects_compute(out, nvalues, sp->ndims, obs, r->nconfigs);
	free(obs);
	free(nvalues);
	return ret;
}

void results_defaults_target(struct defaults_target *out, const struct results *r,
			     const char *name, size_t obj)
{
	out->name = name;
	out->maximize = r->objectives[obj].maximize;
	out->nconfigs = r->nconfigs;
	out->configs = xcalloc(r->nconfigs + 1, sizeof(*out->configs));
	for (size_t k = 0; k < r->nconfigs; k++) {
		const struct results_config *c = &r->configs[k];
		struct defaults_config *d = &out->configs[k];

		d->id = c->id;
		d->flags = c->flags;
		d->pgo = c->pgo;
		d->feasible = c->feasible && !strcmp(c->status, "ok");
		d->value = c->obj[obj].known ? c->obj[obj].value : NAN;
		d->se = c->obj[obj].se;
	}
}

void results_targets_free(struct results_target *t, size_t n)
{
	for (size_t i = 0; t && i < n; i++) {
		free(t[i].name);
		results_release(&t[i].res);
		study_release(&t[i].study);
	}
	free(t);
}

int results_targets_load(struct results_target **out, const char *const *studies,
			 const char *const *dirs, size_t n)
{
	struct results_target *t = xcalloc(n ? n : 1, sizeof(*t));

	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned same = 1;

		if (study_load(&t[i].study, studies[i]) < 0) {
			results_targets_free(t, i);
			return -1;
		}
		if (results_load(&t[i].res, &t[i].study, dirs ? dirs[i] : NULL) < 0) {
			study_release(&t[i].study);
			results_targets_free(t, i);
			return -1;
		}
		for (size_t k = 0; k < i; k++)
			same += !strcmp(t[k].study.name, t[i].study.name);
		t[i].name = same > 1 ? xasprintf("%s#%u", t[i].study.name, same) :
				       xstrdup(t[i].study.name);
		for (size_t k = 0; k < t[i].res.nconfigs; k++)
			t[i].unplaced += !t[i].res.configs[k].pick;
	}
	*out = t;
	return 0;
}
