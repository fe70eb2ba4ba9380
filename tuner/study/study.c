/* SPDX-License-Identifier: GPL-2.0-or-later */
/* study: see include/tuner/study.h */
#include "tuner/study.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tuner/cgmodel.h"
#include "tuner/uarch_score.h"
#include "tuner/strategy.h"
#include "tuner/util.h"
#include "study_priv.h"

/* Known keys of each mapping, NULL-terminated (the other sections' are in
 * study_cmds.c, study_lab.c and study_objectives.c). */
static const char *const top_keys[] = {
	"study", "source", "space", "build", "train", "deploy", "ready", "reboot",
	"recover", "size", "measure", "testbeds", "lab", "objectives", "search", "layout", "watch",
	NULL
};
static const char *const source_keys[] = { "repo", "rev", "path", NULL };
static const char *const search_keys[] = { "strategy", "budget", "seed", "time", "race", NULL };
static const char *const booleans[] = { "false", "true", "off", "on", "no", "yes", NULL };
static const char *const layout_keys[] = { "samples", NULL };

static int parse_name(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	char **name = &ld->s->name;

	if (study_ynode_str(name, ld->path, n, "study") < 0)
		return -1;
	if (!**name)
		return study_err(ld, n, "missing study name");
	/* The name becomes a directory under results/, hence no "." or "..". */
	if ((*name)[strspn(*name, ok)] || !strcmp(*name, ".") || !strcmp(*name, ".."))
		return study_err(ld, n, "invalid study name '%s' "
				 "(use letters, digits, '.', '_' and '-')", *name);
	return 0;
}

static int has_dotdot(const char *path)
{
	for (const char *p = path;; p++) {
		size_t len = strcspn(p, "/");

		if (len == 2 && !strncmp(p, "..", 2))
			return 1;
		p += len;
		if (!*p)
			return 0;
	}
}

static int parse_source(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	struct study *s = ld->s;
	const struct {
		const char *key, *what;
		char **out;
		struct study_loc *loc; /* NULL: may be empty */
	} fields[] = {
		{ "repo", "source.repo", &s->source_repo, &s->source_repo_loc },
		{ "rev", "source.rev", &s->source_rev, &s->source_rev_loc },
		{ "path", "source.path", &s->source_path, NULL },
	};
	const struct ynode *v;

	if (study_want_map(ld, n, "source", source_keys) < 0)
		return -1;
	s->source_repo_loc = s->source_rev_loc = study_loc_of(key);
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		v = study_ynode_get(n, fields[i].key);
		if (!v)
			continue;
		if (study_ynode_str(fields[i].out, ld->path, v, fields[i].what) < 0)
			return -1;
		if (!fields[i].loc)
			continue;
		if (!**fields[i].out)
			return study_err(ld, v, "'%s' is empty", fields[i].what);
		*fields[i].loc = study_loc_of(v);
	}
	v = study_ynode_get(n, "path");
	if (v && (s->source_path[0] == '/' || has_dotdot(s->source_path)))
		return study_err(ld, v,
				 "'source.path' must be a relative path inside the repository");
	return 0;
}

static int parse_dimension(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	const char *name = key->str;
	int pgo = !strcmp(name, "pgo");
	const char **values = NULL;
	int ret = -1;

	if (!*name)
		return study_err(ld, key, "empty dimension name");
	if (n->kind != YNODE_SEQ)
		return study_err(ld, n, "dimension '%s' must be a list of values, not %s", name,
				 study_ynode_describe(n));
	if (!n->nkids)
		return study_err(ld, n, "dimension '%s' has no values", name);

	values = xcalloc(n->nkids, sizeof(*values));
	for (size_t i = 0; i < n->nkids; i++) {
		const struct ynode *v = n->kids[i];

		if (v->kind != YNODE_SCALAR) {
			study_err(ld, v, "values of dimension '%s' must be strings, not %s",
				  name, study_ynode_describe(v));
			goto out;
		}
		if (pgo && strcmp(v->str, "off") && strcmp(v->str, "on")) {
			study_err(ld, v, "pgo values are off and on, not '%s'", v->str);
			goto out;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(values[j], v->str)) {
				study_err(ld, v, "dimension '%s' lists '%s' twice "
					  "(first at line %d)", name, v->str, n->kids[j]->line);
				goto out;
			}
		}
		if (pgo && !strcmp(v->str, "on"))
			ld->pgo_on = v;
		values[i] = v->str;
	}
	if (space_add_dimension(&ld->s->space, name, values, n->nkids) < 0) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", tn_errmsg());
		study_err(ld, key, "%s", msg);
		goto out;
	}
	ret = 0;
out:
	free(values);
	return ret;
}

static int parse_space(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	if (study_ynode_want(ld->path, n, YNODE_MAP, "space") < 0)
		return -1;
	if (!n->nkids)
		return study_err(ld, n, "'space' has no dimensions");
	/* Where a plan too large to make is reported, without a search
	 * section. */
	ld->s->search_loc = study_loc_of(key);
	for (size_t i = 0; i < n->nkids; i += 2) {
		const struct ynode *k = n->kids[i];

		for (size_t j = 0; j < i; j += 2)
			if (!strcmp(n->kids[j]->str, k->str))
				return study_err(ld, k, "duplicate dimension '%s' "
						 "(first at line %d)", k->str, n->kids[j]->line);
		if (parse_dimension(ld, k, n->kids[i + 1]) < 0)
			return -1;
	}
	ld->s->has_pgo_on = ld->pgo_on != NULL;
	return 0;
}

static int parse_search(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	struct study *s = ld->s;
	const struct ynode *v;

	if (study_want_map(ld, n, "search", search_keys) < 0)
		return -1;
	s->search_loc = study_loc_of(key);
	v = study_ynode_get(n, "strategy");
	if (v) {
		if (study_ynode_str(&s->strategy, ld->path, v, "search.strategy") < 0)
			return -1;
		if (!strategy_find(s->strategy))
			return study_err(ld, v, "unknown search strategy '%s' (known: %s)",
					 s->strategy, strategy_names());
	}
	v = study_ynode_get(n, "budget");
	if (v && study_ynode_u64(&s->budget, ld->path, v, "search.budget") < 0)
		return -1;
	if (v && s->budget > STUDY_MAX_CONFIGS)
		return study_err(ld, v, "'search.budget' must be from 1 to %llu (0 or none: the "
				 "whole space), not '%s'", STUDY_MAX_CONFIGS, v->str);
	v = study_ynode_get(n, "seed");
	if (v && study_ynode_u64(&s->seed, ld->path, v, "search.seed") < 0)
		return -1;
	v = study_ynode_get(n, "time");
	if (v && (v->kind != YNODE_SCALAR || parse_duration(&s->time, v->str) < 0 ||
		  s->time <= 0))
		return study_err(ld, v, "'search.time' is a duration such as 8h, 90m, 1h30m or "
				 "600 (seconds), more than 0");
	v = study_ynode_get(n, "race");
	if (v) {
		int i;

		if (study_ynode_choice(&i, ld->path, v, "search.race", booleans) < 0)
			return -1;
		s->race = i % 2;
	}
	return 0;
}

static int parse_layout(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	const struct ynode *v;

	if (study_want_map(ld, n, "layout", layout_keys) < 0)
		return -1;
	ld->s->samples_loc = study_loc_of(key);
	v = study_ynode_get(n, "samples");
	if (v)
		ld->s->samples_loc = study_loc_of(v);
	if (v && study_ynode_count(&ld->s->layout_samples, ld->path, v, "layout.samples") < 0)
		return -1;
	return 0;
}

/* watch: tuner watch's configuration (study.h). */
static int parse_watch(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	static const char *const keys[] = { "flags", "layout", "repeats", "notify", NULL };
	static const char *const notify_keys[] = { "command", "timeout", NULL };
	struct study *s = ld->s;
	const struct ynode *v;

	if (study_want_map(ld, n, "watch", keys) < 0)
		return -1;
	v = study_ynode_get(n, "flags");
	if (v && study_ynode_str(&s->watch_flags, ld->path, v, "watch.flags") < 0)
		return -1;
	v = study_ynode_get(n, "layout");
	if (v && study_ynode_count(&s->watch_layout, ld->path, v, "watch.layout") < 0)
		return -1;
	if (v && s->watch_layout < 2)
		return study_err(ld, v, "'watch.layout' must be at least 2: with one layout seed a "
				 "commit that only moves code cannot be told from a regression");
	v = study_ynode_get(n, "repeats");
	if (v && study_ynode_count(&s->watch_repeats, ld->path, v, "watch.repeats") < 0)
		return -1;
	v = study_ynode_get(n, "notify");
	if (v && study_parse_cmd_section(ld, &s->watch_notify, v, "watch.notify", notify_keys) < 0)
		return -1;
	return 0;
}

/*
 * Sections in the order of the header's file format, which is also the
 * order cross-checks need: objectives look at size and measure.
 */
static const struct section {
	const char *key;
	int (*parse)(struct loader *ld, const struct ynode *key, const struct ynode *val);
	const char *missing; /* the error when absent; NULL: optional */
} sections[] = {
	{ "study", parse_name, "missing study name ('study: NAME')" },
	{ "source", parse_source, NULL },
	{ "space", parse_space, "missing 'space' (the flag dimensions)" },
	{ "build", study_parse_build, "missing build command" },
	{ "train", study_parse_train, NULL },
	{ "deploy", study_parse_deploy, NULL },
	{ "ready", study_parse_ready, NULL },
	{ "reboot", study_parse_reboot, NULL },
	{ "recover", study_parse_recover, NULL },
	{ "size", study_parse_size, NULL },
	{ "measure", study_parse_measure, NULL },
	{ "testbeds", study_parse_testbeds, NULL },
	{ "lab", study_parse_lab, NULL },
	{ "objectives", study_parse_objectives, "missing 'objectives'" },
	{ "search", parse_search, NULL },
	{ "layout", parse_layout, NULL },
	{ "watch", parse_watch, NULL },
};

/* Some objective is parsed by a uarch-model parser. */
static int uses_uarch(const struct study *s)
{
	for (size_t i = 0; i < s->nobjectives; i++)
		if (s->objectives[i].parser && ua_score_parser_valid(s->objectives[i].parser))
			return 1;
	return 0;
}

/* Some objective is parsed by a cachegrind-model parser. */
static int uses_cgmodel(const struct study *s)
{
	for (size_t i = 0; i < s->nobjectives; i++)
		if (s->objectives[i].parser && cgmodel_parser_valid(s->objectives[i].parser))
			return 1;
	return 0;
}

static int load_root(struct loader *ld, const struct ynode *root)
{
	struct study *s = ld->s;

	if (root->kind != YNODE_MAP)
		return study_err(ld, root, "a study file must be a mapping, not %s",
				 study_ynode_describe(root));
	if (study_ynode_check_keys(ld->path, root, top_keys) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++) {
		const struct section *sec = &sections[i];
		size_t k;

		for (k = 0; k < root->nkids; k += 2)
			if (!strcmp(root->kids[k]->str, sec->key))
				break;
		if (k == root->nkids) {
			if (sec->missing)
				return study_err(ld, NULL, "%s", sec->missing);
			continue;
		}
		if (sec->parse(ld, root->kids[k], root->kids[k + 1]) < 0)
			return -1;
	}
	if (ld->model && !uses_cgmodel(s))
		return study_err(ld, ld->model, "'measure.model' applies only to the "
				 "cachegrind-model parsers, and no objective uses one");
	if (ld->uarch && !uses_uarch(s))
		return study_err(ld, ld->uarch, "'measure.uarch' applies only to the "
				 "uarch-model parsers, and no objective uses one");
	if (!ld->uarch && uses_uarch(s))
		return study_err(ld, ld->measure, "the uarch-model parsers need 'measure.uarch' "
				 "(at least a preset: %s)", ua_preset_names());
	if (ld->pgo_on && !s->train.command)
		return study_err(ld, ld->pgo_on,
				 "pgo: on needs a train command (train: {command: ...})");
	study_default_testbeds(s);
	if (s->ready.command && !s->deploy.command && !s->reboot.command && !s->recover.command)
		return study_err(ld, NULL, "'ready' waits for a testbed after deploy, reboot or "
				 "recover, and the study has none of them");
	return 0;
}

/* The study file's bytes: a regular file only (read_file()), so a FIFO
 * or a device is refused at once; a bad path is the user's error. */
static int read_study(char **out, size_t *len, const char *path)
{
	char *msg;

	if (read_file(out, len, path) == 0)
		return 0;
	msg = xstrdup(tn_errmsg());
	tn_input_error_at(path, 0, 0, "cannot read study file: %s", msg);
	free(msg);
	return -1;
}

static void study_init(struct study *s, const char *path)
{
	static const struct study_loc top = { 1, 1 };

	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->dir = path_dirname(path);
	/* Absolute: commands see it (TUNER_STUDY_DIR) from their own
	 * directories. Unresolvable: loading the file fails anyway. */
	{
		char *abs = realpath(s->dir, NULL);
		if (abs) {
			free(s->dir);
			s->dir = abs;
		}
	}
	s->source_repo = xstrdup(".");
	s->source_rev = xstrdup("HEAD");
	s->source_path = xstrdup("");
	s->source_repo_loc = s->source_rev_loc = top;
	s->search_loc = s->samples_loc = top;
	s->size_kind = SIZE_NONE;
	s->share_same_code = 1;
	s->parser = xstrdup("number");
	s->repeats_min = s->repeats_max = 1;
	s->strategy = xstrdup("exhaustive");
	s->seed = 1;
	s->race = 1;
	s->layout_samples = 1;
	s->lab.mode = LAB_SPLIT;
	s->lab.order = LAB_ROUNDS;
	s->lab.quarantine = 3;
	s->lab.boot_attempts = 2;
	s->lab.loc = top;
	s->ready_interval = 2;
	s->ready_within = 300;
	cg_model_init(&s->model);
}

int study_load(struct study *out, const char *path)
{
	struct loader ld = { path, out, NULL, NULL, NULL, NULL };
	struct ynode *root = NULL;
	char *buf = NULL;
	size_t len = 0;
	int ret = -1;

	study_init(out, path);
	if (read_study(&buf, &len, path) < 0)
		goto out;
	hash64_hex(out->hash, hash64(HASH64_INIT, buf, len));
	if (study_ynode_load(&root, path, buf, len) < 0 || load_root(&ld, root) < 0)
		goto out;
	ret = 0;
out:
	if (ret < 0)
		study_release(out);
	study_ynode_free(root);
	free(buf);
	return ret;
}

int study_check_plan(const struct study *s, uint64_t budget, size_t nrevs)
{
	const struct study_loc *at = &s->search_loc;
	uint64_t size = space_size(&s->space), configs, builds;
	int beyond = space_beyond_u64(&s->space);
	char *all, revs[48] = "";
	int ret;

	if (!budget && (beyond || size > STUDY_MAX_CONFIGS)) {
		all = space_size_str(&s->space, 0);
		ret = tn_input_error_at(s->path, at->line, at->col,
					"%s search of all %s configurations: more than a run "
					"evaluates (%llu); set a budget, e.g. search: {strategy: "
					"random, budget: 100}", s->strategy, all, STUDY_MAX_CONFIGS);
		free(all);
		return ret;
	}
	configs = budget && (beyond || budget < size) ? budget : size;
	if (configs > STUDY_MAX_CONFIGS)
		return tn_input_error_at(s->path, at->line, at->col,
					 "a search budget of %llu: more configurations than a run "
					 "evaluates (%llu)", (unsigned long long)configs,
					 STUDY_MAX_CONFIGS);
	nrevs = nrevs ? nrevs : 1;
	/* configs <= STUDY_MAX_CONFIGS: no overflow. */
	builds = configs * s->layout_samples;
	if (builds <= STUDY_MAX_BUILDS / nrevs)
		return 0;
	if (nrevs > 1)
		snprintf(revs, sizeof(revs), " x %zu revisions", nrevs);
	at = &s->samples_loc;
	return tn_input_error_at(s->path, at->line, at->col,
				 "%llu configurations x %u layout seed%s%s: more builds than a run "
				 "plans (%llu); lower the budget or layout.samples",
				 (unsigned long long)configs, s->layout_samples,
				 s->layout_samples == 1 ? "" : "s", revs, STUDY_MAX_BUILDS);
}

static void cmd_spec_release(struct cmd_spec *c)
{
	free(c->command);
	c->command = NULL;
}

void study_release(struct study *s)
{
	free(s->path);
	free(s->dir);
	free(s->name);
	free(s->source_repo);
	free(s->source_rev);
	free(s->source_path);
	space_release(&s->space);
	cmd_spec_release(&s->build);
	free(s->artifact);
	free((char *)s->slurm.partition);
	free((char *)s->slurm.mem);
	free(s->watch_flags);
	cmd_spec_release(&s->watch_notify);
	cmd_spec_release(&s->applied_cmd);
	cmd_spec_release(&s->train);
	cmd_spec_release(&s->deploy);
	cmd_spec_release(&s->reboot);
	cmd_spec_release(&s->size_cmd);
	cmd_spec_release(&s->measure);
	free(s->parser);
	study_release_testbeds(s);
	study_release_objectives(s);
	free(s->strategy);
	cg_model_release(&s->model);
	memset(s, 0, sizeof(*s));
}
