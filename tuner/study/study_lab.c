/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * study_lab: the study's testbeds and their lifecycle (testbeds, lab,
 * ready, recover). See include/tuner/study.h for the format and
 * docs/testbeds.md for what it means.
 */
#include <stdlib.h>
#include <string.h>

#include "tuner/lab.h"
#include "tuner/util.h"
#include "study_priv.h"

static const char *const testbed_keys[] = { "name", "env", NULL };
static const char *const lab_keys[] = { "mode", "order", "quarantine", "boot_attempts", NULL };
static const char *const ready_keys[] = { "command", "timeout", "interval", "within", NULL };
static const char *const recover_keys[] = { "command", "timeout", NULL };

static int name_char(char c, int first)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

int study_env_name_ok(const char *name)
{
	if (!*name)
		return 0;
	for (const char *p = name; *p; p++)
		if (!name_char(*p, p == name))
			return 0;
	return 1;
}

/* A value's ${VAR} references: each closed, each a variable name. */
static int check_refs(const struct loader *ld, const struct ynode *v, const char *var)
{
	const char *p = v->str;
	char *ref;
	int ok = 1;

	while (ok && lab_next_ref(p, &ref, &p)) {
		if (!ref)
			return study_err(ld, v, "env %s: '${' without a closing '}'", var);
		ok = study_env_name_ok(ref);
		if (!ok)
			study_err(ld, v, "env %s: '${%s}' is not a variable name", var, ref);
		free(ref);
	}
	return ok ? 0 : -1;
}

static int parse_env(struct loader *ld, struct testbed *tb, const struct ynode *n)
{
	if (study_ynode_want(ld->path, n, YNODE_MAP, "testbed env") < 0)
		return -1;
	tb->nenv = n->nkids / 2;
	tb->env_name = xcalloc(tb->nenv + 1, sizeof(*tb->env_name));
	tb->env_value = xcalloc(tb->nenv + 1, sizeof(*tb->env_value));
	for (size_t i = 0; i < tb->nenv; i++) {
		const struct ynode *k = n->kids[2 * i], *v = n->kids[2 * i + 1];

		if (!study_env_name_ok(k->str))
			return study_err(ld, k, "testbed '%s': '%s' is not an environment "
					 "variable name (letters, digits, '_'; not a digit first)",
					 tb->name, k->str);
		if (!strncmp(k->str, "TUNER_", 6))
			return study_err(ld, k, "testbed '%s': TUNER_* variables are tuner's own "
					 "(docs/study.md); name it otherwise", tb->name);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(tb->env_name[j], k->str))
				return study_err(ld, k, "testbed '%s': env %s given twice",
						 tb->name, k->str);
		tb->env_name[i] = xstrdup(k->str);
		if (v->kind != YNODE_SCALAR)
			return study_err(ld, v, "testbed '%s': env %s must be a string, not %s",
					 tb->name, k->str, study_ynode_describe(v));
		if (check_refs(ld, v, k->str) < 0)
			return -1;
		tb->env_value[i] = xstrdup(v->str);
	}
	return 0;
}

static int parse_testbed(struct loader *ld, struct testbed *tb, const struct ynode *v)
{
	const struct ynode *name = v, *env = NULL;

	tb->loc = study_loc_of(v);
	if (v->kind == YNODE_MAP) {
		if (study_want_map(ld, v, "testbed", testbed_keys) < 0)
			return -1;
		name = study_ynode_get(v, "name");
		if (!name)
			return study_err(ld, v, "testbed without a name ({name: NAME, env: {...}})");
		env = study_ynode_get(v, "env");
	}
	if (study_ynode_str(&tb->name, ld->path, name, "testbed") < 0)
		return -1;
	if (!*tb->name)
		return study_err(ld, name, "empty testbed name");
	return env ? parse_env(ld, tb, env) : 0;
}

int study_parse_testbeds(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	struct study *s = ld->s;

	(void)key;
	if (study_ynode_want(ld->path, n, YNODE_SEQ, "testbeds") < 0)
		return -1;
	if (!n->nkids)
		return study_err(ld, n, "'testbeds' is empty");
	s->tbs = xcalloc(n->nkids, sizeof(*s->tbs));
	s->testbeds = xcalloc(n->nkids, sizeof(*s->testbeds));
	s->ntestbeds = n->nkids;
	for (size_t i = 0; i < n->nkids; i++) {
		const struct ynode *v = n->kids[i];

		if (parse_testbed(ld, &s->tbs[i], v) < 0)
			return -1;
		s->testbeds[i] = s->tbs[i].name;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(s->tbs[j].name, s->tbs[i].name))
				return study_err(ld, v, "duplicate testbed '%s' (first at line %d)",
						 s->tbs[i].name, s->tbs[j].loc.line);
	}
	return 0;
}

void study_default_testbeds(struct study *s)
{
	if (s->ntestbeds)
		return;
	s->tbs = xcalloc(1, sizeof(*s->tbs));
	s->tbs[0].name = xstrdup("local");
	s->testbeds = xcalloc(1, sizeof(*s->testbeds));
	s->testbeds[0] = s->tbs[0].name;
	s->ntestbeds = 1;
}

void study_release_testbeds(struct study *s)
{
	for (size_t i = 0; i < s->ntestbeds && s->tbs; i++) {
		struct testbed *tb = &s->tbs[i];

		for (size_t k = 0; k < tb->nenv; k++) {
			free(tb->env_name[k]);
			free(tb->env_value[k]);
		}
		free(tb->env_name);
		free(tb->env_value);
		free(tb->name);
	}
	free(s->tbs);
	free(s->testbeds);
	free(s->ready.command);
	free(s->recover.command);
}

int study_parse_lab(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	static const char *const modes[] = { "split", "all", NULL };
	static const char *const orders[] = { "rounds", "builds", NULL };
	struct lab_opts *l = &ld->s->lab;
	const struct ynode *v;
	int i;

	if (study_want_map(ld, n, "lab", lab_keys) < 0)
		return -1;
	l->loc = study_loc_of(key);
	if ((v = study_ynode_get(n, "mode"))) {
		if (study_ynode_choice(&i, ld->path, v, "lab.mode", modes) < 0)
			return -1;
		l->mode = i ? LAB_ALL : LAB_SPLIT;
	}
	if ((v = study_ynode_get(n, "order"))) {
		if (study_ynode_choice(&i, ld->path, v, "lab.order", orders) < 0)
			return -1;
		l->order = i ? LAB_BUILDS : LAB_ROUNDS;
	}
	if ((v = study_ynode_get(n, "quarantine")) &&
	    study_ynode_count(&l->quarantine, ld->path, v, "lab.quarantine") < 0)
		return -1;
	if ((v = study_ynode_get(n, "boot_attempts")) &&
	    study_ynode_count(&l->boot_attempts, ld->path, v, "lab.boot_attempts") < 0)
		return -1;
	return 0;
}

int study_parse_ready(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	struct study *s = ld->s;
	const struct ynode *v;

	(void)key;
	if (study_parse_cmd_section(ld, &s->ready, n, "ready", ready_keys) < 0)
		return -1;
	if ((v = study_ynode_get(n, "interval")) &&
	    study_ynode_timeout(&s->ready_interval, ld->path, v, "ready.interval") < 0)
		return -1;
	if ((v = study_ynode_get(n, "within")) &&
	    study_ynode_timeout(&s->ready_within, ld->path, v, "ready.within") < 0)
		return -1;
	if (v && s->ready_within <= 0)
		return study_err(ld, v, "'ready.within' must be more than 0 seconds");
	return 0;
}

int study_parse_recover(struct loader *ld, const struct ynode *key, const struct ynode *n)
{
	(void)key;
	return study_parse_cmd_section(ld, &ld->s->recover, n, "recover", recover_keys);
}
