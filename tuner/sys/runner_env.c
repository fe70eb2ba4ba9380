/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runner_env: a child's environment, and the study commands' TUNER_* one
 * (include/tuner/runner.h, runner_priv.h) */
#include "runner_priv.h"
#include "tuner/guard.h"
#include "tuner/util.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

/* Length of the NAME part of "NAME=value" (the whole string if no '='). */
static size_t env_name_len(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq ? (size_t)(eq - s) : strlen(s);
}

static int env_has_name(const char *const *env, const char *s)
{
	size_t n = env_name_len(s);

	for (; env && *env; env++) {
		if (env_name_len(*env) == n && !memcmp(*env, s, n))
			return 1;
	}
	return 0;
}

/* The child's environment: runner_priv.h says what goes in. */
char **runner_child_env(const struct runner_opts *opts, const char *mark)
{
	size_t n = 0, len = 0;
	char **envp;

	if (!opts->clear_env) {
		for (char **e = environ; e && *e; e++)
			n++;
	}
	for (const char *const *e = opts->env; e && *e; e++)
		n++;
	envp = xcalloc(n + 3, sizeof(*envp));
	if (!opts->clear_env) {
		for (char **e = environ; e && *e; e++) {
			if (!env_has_name(opts->env, *e))
				envp[len++] = *e;
		}
	}
	for (const char *const *e = opts->env; e && *e; e++) {
		if (!env_has_name(e + 1, *e))
			envp[len++] = (char *)*e;
	}
	/* The guard's mark (guard.h), also under clear_env. An inherited
	 * one (a tuner run by a tuner's command) stays: that guard finds
	 * its mark too. */
	if (guard_env())
		envp[len++] = (char *)guard_env();
	/* This command's own mark (guard.h): its name is new, so nothing
	 * inherited or set in opts->env can hide it. */
	if (*mark)
		envp[len++] = (char *)mark;
	envp[len] = NULL;
	return envp;
}

char **cmd_env_build(const struct cmd_env *e)
{
	size_t nextra = 0, n = 0;
	char **env;

	for (char *const *p = e->extra; p && *p; p++)
		nextra++;
	env = xcalloc(20 + nextra, sizeof(*env));

#define ADD(name, val) \
	do { \
		if (val) \
			env[n++] = xasprintf("TUNER_" name "=%s", (val)); \
	} while (0)
	ADD("FLAGS", e->flags);
	ADD("SRC", e->src);
	ADD("OUT", e->out);
	ADD("PGO", e->pgo);
	ADD("PROFILE_DIR", e->profile_dir);
	ADD("ARTIFACT", e->artifact);
	ADD("TESTBED", e->testbed);
	ADD("CONFIG_ID", e->config_id);
	ADD("CACHE", e->cache);
	ADD("STUDY_DIR", e->study_dir);
	ADD("UARCH", e->uarch);
	ADD("UARCH_PLUGIN", e->uarch_plugin);
#undef ADD
	env[n++] = xasprintf("TUNER_JOBS=%u", e->jobs ? e->jobs : 1);
	env[n++] = xasprintf("TUNER_LAYOUT_SEED=%u", e->layout_seed);
	if (e->run >= 0)
		env[n++] = xasprintf("TUNER_RUN=%ld", e->run);
	for (size_t i = 0; i < nextra; i++)
		env[n++] = xstrdup(e->extra[i]);
	env[n] = NULL;
	return env;
}

void cmd_env_free(char **env)
{
	if (!env)
		return;
	for (char **p = env; *p; p++)
		free(*p);
	free(env);
}
