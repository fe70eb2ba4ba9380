/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * study_cmds: the sections of a study file that run commands (build, train,
 * deploy, reboot, size, measure). See include/tuner/study.h for the format and
 * study_priv.h for how this half meets study.c.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tuner/cgmodel.h"
#include "uarch/uarch.h"
#include "tuner/util.h"
#include "study_priv.h"

/* Known keys of each mapping, NULL-terminated. */
static const char *const build_keys[] = {
	"command", "artifact", "timeout", "applied", "inputs", "equivalent", "executor", "slurm",
	NULL
};
static const char *const slurm_keys[] = {
	"partition", "cpus", "mem", "time", "retries", "poll", NULL
};
static const char *const cmd_keys[] = { "command", "timeout", NULL };
static const char *const train_keys[] = { "command", "timeout", "inputs", "share", NULL };
static const char *const size_keys[] = { "of", "measure", "command", "timeout", NULL };
static const char *const measure_keys[] = {
	"command", "parser", "timeout", "repeats", "model", "uarch", "same_code", "inputs", NULL
};
static const char *const repeats_keys[] = { "min", "max", NULL };
static const char *const model_keys[] = { "l1_miss", "ll_miss", "clock_mhz", "files", NULL };
static const char *const uarch_keys[] = {
	"preset", "l1i", "l1d", "l2", "dir", "btb", "ras", "indirect", "writeback",
	"insn", "l1i_miss", "l1d_miss", "l2_miss", "taken", "mispredict", "clock_mhz", NULL
};

/* Parses the command and timeout keys of section n (keys already checked);
 * an empty command counts as none. */
static int parse_cmd_fields(const struct loader *ld, struct cmd_spec *out,
			    const struct ynode *n, const char *section)
{
	const struct ynode *v;
	char what[64];

	out->loc = study_loc_of(n);
	v = study_ynode_get(n, "command");
	if (v) {
		snprintf(what, sizeof(what), "%s.command", section);
		if (study_ynode_str(&out->command, ld->path, v, what) < 0)
			return -1;
		out->loc = study_loc_of(v);
		if (!*out->command) {
			free(out->command);
			out->command = NULL;
		}
	}
	v = study_ynode_get(n, "timeout");
	snprintf(what, sizeof(what), "%s.timeout", section);
	if (v && study_ynode_timeout(&out->timeout, ld->path, v, what) < 0)
		return -1;
	return 0;
}

/* Adds the names and bytes of path (a file, or every regular file below a
 * directory, in name order) to *h. 0, or -1 with errno set. */
static int hash_input(uint64_t *h, const char *path)
{
	struct stat st;
	struct dirent **ents = NULL;
	int n, ret = 0, err = 0;

	if (stat(path, &st) < 0)
		return -1;
	if (S_ISREG(st.st_mode)) {
		char *data;
		size_t len;

		if (read_file(&data, &len, path) < 0)
			return -1;
		*h = hash64(hash64_str(*h, "file"), data, len);
		free(data);
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *sub;

		if (ret < 0 || !strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		sub = xasprintf("%s/%s", path, name);
		*h = hash64_str(*h, name);
		if (stat(sub, &st) < 0 || ((S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) &&
					   hash_input(h, sub) < 0)) {
			err = errno;
			ret = -1;
		}
		free(sub);
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	errno = err;
	return ret;
}

/* SECTION.inputs: a list of paths relative to the study's directory;
 * their hash goes to out->inputs. */
static int parse_inputs(const struct loader *ld, struct cmd_spec *out, const struct ynode *n,
			const char *section)
{
	uint64_t h = hash64_str(HASH64_INIT, "tuner-inputs-1");
	char what[64];

	snprintf(what, sizeof(what), "%s.inputs", section);
	if (study_ynode_want(ld->path, n, YNODE_SEQ, what) < 0)
		return -1;
	if (n->nkids == 0)
		return study_err(ld, n, "'%s' is empty (leave it out instead)", what);
	for (size_t i = 0; i < n->nkids; i++) {
		const struct ynode *v = n->kids[i];
		char *rel = NULL, *path;
		int err;

		if (study_ynode_str(&rel, ld->path, v, what) < 0)
			return -1;
		if (!*rel) {
			free(rel);
			return study_err(ld, v, "empty path in '%s'", what);
		}
		path = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", ld->s->dir, rel);
		h = hash64_str(h, rel);
		err = hash_input(&h, path) < 0 ? errno : 0;
		free(path);
		if (err) {
			study_err(ld, v, "%s: cannot read '%s': %s", what, rel, strerror(err));
			free(rel);
			return -1;
		}
		free(rel);
	}
	hash64_hex(out->inputs, h);
	return 0;
}

int study_parse_cmd_section(const struct loader *ld, struct cmd_spec *out,
			    const struct ynode *n, const char *section,
			    const char *const *keys)
{
	if (study_want_map(ld, n, section, keys) < 0 ||
	    parse_cmd_fields(ld, out, n, section) < 0)
		return -1;
	if (!out->command)
		return study_err(ld, study_ynode_get(n, "command") ?
				 study_ynode_get(n, "command") : n, "missing %s command", section);
	if (study_ynode_get(n, "inputs") &&
	    parse_inputs(ld, out, study_ynode_get(n, "inputs"), section) < 0)
		return -1;
	return 0;
}

/* build.applied: "record" or {command: CMD, timeout: S}. */
static int parse_applied(struct loader *ld, const struct ynode *n)
{
	struct study *s = ld->s;

	if (n->kind == YNODE_SCALAR && !n->is_null && !strcmp(n->str, "record")) {
		s->applied = APPLIED_RECORD;
		return 0;
	}
	if (n->kind != YNODE_MAP)
		return study_ynode_bad_value(ld->path, n, "build.applied",
					     "record or {command: CMD, timeout: S}");
	if (study_ynode_check_keys(ld->path, n, cmd_keys) < 0 ||
	    parse_cmd_fields(ld, &s->applied_cmd, n, "build.applied") < 0)
		return -1;
	if (!s->applied_cmd.command)
		return study_err(ld, study_ynode_get(n, "command") ?
				 study_ynode_get(n, "command") : n,
				 "missing build.applied command");
	s->applied = APPLIED_COMMAND;
	return 0;
}

/* A key that is one of two words: *out 1 for `one`, 0 for `other`. */
static int parse_either(int *out, struct loader *ld, const struct ynode *v, const char *what,
			const char *one, const char *other)
{
	char *both;

	if (v->kind == YNODE_SCALAR && !v->is_null &&
	    (!strcmp(v->str, one) || !strcmp(v->str, other))) {
		*out = !strcmp(v->str, one);
		return 0;
	}
	both = xasprintf("%s or %s", one, other);
	study_ynode_bad_value(ld->path, v, what, both);
	free(both);
	return -1;
}

/* Whether the relative path p has a ".." part (it would leave the
 * directory it is relative to). */
static int has_dotdot(const char *p)
{
	for (const char *q = p; (q = strstr(q, "..")); q += 2)
		if ((q == p || q[-1] == '/') && (q[2] == '\0' || q[2] == '/'))
			return 1;
	return 0;
}

/* build.slurm (slurm.h): the jobs' options. */
static int parse_slurm(struct loader *ld, const struct ynode *n)
{
	struct slurm_opts *o = &ld->s->slurm;
	const struct ynode *v;
	size_t digits;
	char *str;

	if (study_want_map(ld, n, "build.slurm", slurm_keys) < 0)
		return -1;
	v = study_ynode_get(n, "partition");
	if (v) {
		str = NULL;
		if (study_ynode_str(&str, ld->path, v, "build.slurm.partition") < 0)
			return -1;
		o->partition = str;
		if (!*str || strspn(str, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789._-,") != strlen(str))
			return study_err(ld, v, "'build.slurm.partition' must be a partition name "
					 "(letters, digits, '.', '_', '-', ',')");
	}
	v = study_ynode_get(n, "mem");
	if (v) {
		str = NULL;
		if (study_ynode_str(&str, ld->path, v, "build.slurm.mem") < 0)
			return -1;
		o->mem = str;
		/* Slurm's form: a number, then an optional unit. */
		digits = strspn(str, "0123456789");
		if (!digits || strlen(str + digits) > 1 ||
		    (str[digits] && !strchr("KMGT", str[digits])))
			return study_err(ld, v, "'build.slurm.mem' must be a size such as 4096M or 4G");
	}
	v = study_ynode_get(n, "cpus");
	if (v && study_ynode_count(&o->cpus, ld->path, v, "build.slurm.cpus") < 0)
		return -1;
	v = study_ynode_get(n, "time");
	if (v && study_ynode_count(&o->time_min, ld->path, v, "build.slurm.time") < 0)
		return -1;
	v = study_ynode_get(n, "retries");
	if (v) {
		uint64_t r;

		if (study_ynode_u64(&r, ld->path, v, "build.slurm.retries") < 0)
			return -1;
		if (r > 100)
			return study_err(ld, v, "'build.slurm.retries' must be from 0 to 100");
		o->retries = (unsigned)r;
	}
	v = study_ynode_get(n, "poll");
	if (v) {
		if (study_ynode_double(&o->poll, ld->path, v, "build.slurm.poll") < 0)
			return -1;
		if (!(o->poll >= 0.05 && o->poll <= 600))
			return study_err(ld, v, "'build.slurm.poll' must be between 0.05 and 600 seconds");
	}
	return 0;
}

int study_parse_build(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	struct study *s = ld->s;
	const struct ynode *v;

	if (study_want_map(ld, n, "build", build_keys) < 0 ||
	    parse_cmd_fields(ld, &s->build, n, "build") < 0)
		return -1;
	if (!s->build.command)
		return study_err(ld, n, "missing build command");
	v = study_ynode_get(n, "artifact");
	if (!v)
		return study_err(ld, n, "missing build artifact");
	if (study_ynode_str(&s->artifact, ld->path, v, "build.artifact") < 0)
		return -1;
	if (!*s->artifact)
		return study_err(ld, v, "missing build artifact");
	if (s->artifact[0] == '/')
		return study_err(ld, v, "'build.artifact' must be relative to $TUNER_OUT");
	if (has_dotdot(s->artifact))
		return study_err(ld, v, "'build.artifact' must stay inside $TUNER_OUT: "
				 "'%s' has a '..' part", s->artifact);
	v = study_ynode_get(n, "applied");
	if (v && parse_applied(ld, v) < 0)
		return -1;
	v = study_ynode_get(n, "inputs");
	if (v && parse_inputs(ld, &s->build, v, "build") < 0)
		return -1;
	v = study_ynode_get(n, "equivalent");
	if (v && parse_either(&s->skip_equivalent, ld, v, "build.equivalent", "skip", "build") < 0)
		return -1;
	v = study_ynode_get(n, "executor");
	if (v && parse_either(&s->executor_slurm, ld, v, "build.executor", "slurm", "local") < 0)
		return -1;
	s->slurm.retries = 2;
	s->slurm.poll = 2.0;
	v = study_ynode_get(n, "slurm");
	if (v) {
		if (!s->executor_slurm)
			return study_err(ld, v, "'build.slurm' needs 'build.executor: slurm'");
		if (parse_slurm(ld, v) < 0)
			return -1;
	}
	return 0;
}

int study_parse_train(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	const struct ynode *v;

	if (study_parse_cmd_section(ld, &ld->s->train, n, "train", train_keys) < 0)
		return -1;
	v = study_ynode_get(n, "share");
	if (v && parse_either(&ld->s->share_profiles, ld, v, "train.share", "check", "own") < 0)
		return -1;
	return 0;
}

int study_parse_deploy(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	return study_parse_cmd_section(ld, &ld->s->deploy, n, "deploy", cmd_keys);
}

int study_parse_reboot(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	return study_parse_cmd_section(ld, &ld->s->reboot, n, "reboot", cmd_keys);
}

int study_parse_size(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	static const char *const of[] = { "artifact", NULL };
	static const char *const kinds[] = { "text", "file", "command", NULL };
	static const enum size_kind kind_of[] = { SIZE_TEXT, SIZE_FILE, SIZE_COMMAND };
	struct study *s = ld->s;
	const struct ynode *v;
	int i;

	if (study_want_map(ld, n, "size", size_keys) < 0)
		return -1;
	v = study_ynode_get(n, "of");
	if (v && study_ynode_choice(&i, ld->path, v, "size.of", of) < 0)
		return -1;
	v = study_ynode_get(n, "measure");
	if (!v)
		return study_err(ld, n, "missing 'size.measure' (text, file or command)");
	if (study_ynode_choice(&i, ld->path, v, "size.measure", kinds) < 0)
		return -1;
	s->size_kind = kind_of[i];
	if (parse_cmd_fields(ld, &s->size_cmd, n, "size") < 0)
		return -1;
	if (s->size_kind == SIZE_COMMAND && !s->size_cmd.command)
		return study_err(ld, n, "'size.measure: command' needs a size command");
	if (s->size_kind != SIZE_COMMAND && study_ynode_get(n, "command"))
		return study_err(ld, study_ynode_get(n, "command"),
				 "'size.command' applies only to 'measure: command'");
	return 0;
}

static int parse_repeats(struct loader *ld, const struct ynode *n)
{
	struct study *s = ld->s;
	const struct ynode *min, *max;

	if (n->kind == YNODE_SCALAR) {
		if (study_ynode_count(&s->repeats_min, ld->path, n, "measure.repeats") < 0)
			return -1;
		s->repeats_max = s->repeats_min;
		return 0;
	}
	if (n->kind != YNODE_MAP)
		return study_ynode_bad_value(ld->path, n, "measure.repeats",
					     "a number or {min: N, max: N}");
	if (study_ynode_check_keys(ld->path, n, repeats_keys) < 0)
		return -1;
	min = study_ynode_get(n, "min");
	max = study_ynode_get(n, "max");
	if (min && study_ynode_count(&s->repeats_min, ld->path, min, "measure.repeats.min") < 0)
		return -1;
	s->repeats_max = s->repeats_min;
	if (max && study_ynode_count(&s->repeats_max, ld->path, max, "measure.repeats.max") < 0)
		return -1;
	if (s->repeats_min > s->repeats_max)
		return study_err(ld, max, "'measure.repeats.max' (%u) is less than min (%u)",
				 s->repeats_max, s->repeats_min);
	return 0;
}

/* A number > 0 and at most 1e9 (cycles, MHz: beyond that a typo, and
 * products of such numbers must stay finite). */
static int positive(const struct loader *ld, double *out, const struct ynode *n,
		    const char *what)
{
	double v;

	if (n->kind != YNODE_SCALAR || parse_double(&v, n->str) < 0 || v <= 0 || v > 1e9)
		return study_ynode_bad_value(ld->path, n, what, "a positive number, at most 1e9");
	*out = v;
	return 0;
}

/* measure.model: the cachegrind-model parsers' cache model. */
static int parse_model(struct loader *ld, const struct ynode *n)
{
	struct cg_model *m = &ld->s->model;
	const struct {
		const char *key, *what;
		double *out;
	} nums[] = {
		{ "l1_miss", "measure.model.l1_miss", &m->l1_miss },
		{ "ll_miss", "measure.model.ll_miss", &m->ll_miss },
		{ "clock_mhz", "measure.model.clock_mhz", &m->clock_mhz },
	};
	const struct ynode *v;

	if (study_want_map(ld, n, "measure.model", model_keys) < 0)
		return -1;
	ld->model = n;
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++) {
		v = study_ynode_get(n, nums[i].key);
		if (v && positive(ld, nums[i].out, v, nums[i].what) < 0)
			return -1;
	}
	v = study_ynode_get(n, "files");
	if (!v)
		return 0;
	if (study_ynode_str(&m->files, ld->path, v, "measure.model.files") < 0)
		return -1;
	if (!*m->files)
		return study_err(ld, v, "'measure.model.files' is empty");
	return 0;
}

/* measure.uarch: the uarch-model parsers' modelled core (uarch.h): a preset,
 * then any of its keys. */
static int parse_uarch(struct loader *ld, const struct ynode *n)
{
	struct ua_config *c = &ld->s->uarch;
	const struct ynode *v;
	char err[256];

	if (study_want_map(ld, n, "measure.uarch", uarch_keys) < 0)
		return -1;
	ld->uarch = n;
	v = study_ynode_get(n, "preset");
	if (!v)
		return study_err(ld, n, "'measure.uarch' needs a preset (%s)", ua_preset_names());
	if (study_ynode_want(ld->path, v, YNODE_SCALAR, "measure.uarch.preset") < 0)
		return -1;
	if (ua_config_preset(c, v->str, err, sizeof(err)) < 0)
		return study_err(ld, v, "measure.uarch.preset: %s", err);
	for (size_t k = 0; k < n->nkids; k += 2) {
		const struct ynode *key = n->kids[k], *val = n->kids[k + 1];
		char what[64];

		if (!strcmp(key->str, "preset"))
			continue;
		snprintf(what, sizeof(what), "measure.uarch.%s", key->str);
		if (study_ynode_want(ld->path, val, YNODE_SCALAR, what) < 0)
			return -1;
		if (ua_config_set(c, key->str, val->str, err, sizeof(err)) < 0)
			return study_err(ld, val, "measure.uarch.%s", err);
	}
	if (ua_config_check(c, err, sizeof(err)) < 0)
		return study_err(ld, n, "measure.uarch: %s", err);
	ld->s->has_uarch = 1;
	return 0;
}

int study_parse_measure(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	struct study *s = ld->s;
	const struct ynode *v;

	if (study_want_map(ld, n, "measure", measure_keys) < 0 ||
	    parse_cmd_fields(ld, &s->measure, n, "measure") < 0)
		return -1;
	ld->measure = n;
	v = study_ynode_get(n, "inputs");
	if (v && parse_inputs(ld, &s->measure, v, "measure") < 0)
		return -1;
	v = study_ynode_get(n, "parser");
	if (v && (study_ynode_str(&s->parser, ld->path, v, "measure.parser") < 0 ||
		  study_check_parser(ld, v, s->parser) < 0))
		return -1;
	v = study_ynode_get(n, "repeats");
	if (v && parse_repeats(ld, v) < 0)
		return -1;
	v = study_ynode_get(n, "model");
	if (v && parse_model(ld, v) < 0)
		return -1;
	v = study_ynode_get(n, "uarch");
	if (v && parse_uarch(ld, v) < 0)
		return -1;
	v = study_ynode_get(n, "same_code");
	if (v && parse_either(&s->share_same_code, ld, v, "measure.same_code", "share",
			      "separate") < 0)
		return -1;
	return 0;
}
