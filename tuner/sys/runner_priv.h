/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_priv: what the runner's two files share, private to them.
 * runner.c starts, waits for and reaps a child; runner_env.c makes the
 * environments (the child's, and the study commands' TUNER_* variables).
 */
#ifndef TUNER_RUNNER_PRIV_H
#define TUNER_RUNNER_PRIV_H

#include "tuner/runner.h"

/*
 * The child's environment: the inherited one (unless opts->clear_env)
 * minus the names opts->env sets, then opts->env, where a later entry
 * wins over an earlier one of the same name; then the guard's mark and
 * the command's own mark (guard.h; "" for none). The strings are
 * borrowed; the caller frees only the array, with free().
 */
char **runner_child_env(const struct runner_opts *opts, const char *mark);

#endif
