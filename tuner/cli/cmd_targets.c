/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options and loading of the commands over several targets. */
#include "cmd_targets.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_options.h"
#include "tuner/numfmt.h"
#include "tuner/util.h"

int cmd_targets_option(struct cmd_targets *ct, int c, const char *name, char **argv)
{
	struct cmd_measure_opts unused = { 0 };

	switch (c) {
	case CMD_TOPT_RESULTS:
		ALLOC_GROW(ct->dirs, ct->ndirs + 1, ct->dirs_alloc);
		ct->dirs[ct->ndirs++] = optarg;
		return 0;
	case CMD_TOPT_FORMAT:
		return cmd_format_option(&ct->fmt, name, optarg);
	case CMD_TOPT_OBJECTIVE:
		ct->objective = optarg;
		return 0;
	}
	/* ':' and '?' (a missing value, an unknown option) as every command
	 * says them; the measuring options' letters are not in our getopt
	 * string, so nothing else is taken. */
	return cmd_measure_option(&unused, c, name, argv);
}

static void notes(const struct results_target *t, const char *name)
{
	if (!t->res.complete)
		fprintf(stderr, "tuner: %s: note: %s: the run was interrupted; its results are partial\n",
			name, t->res.dir);
	if (strcmp(t->res.study_hash, t->study.hash))
		fprintf(stderr, "tuner: %s: note: %s: made from another version of %s (edited since)\n",
			name, t->res.dir, t->study.path);
	if (t->unplaced)
		fprintf(stderr, "tuner: %s: note: %s: %zu configuration%s not in the space of %s: left out of the per-dimension effects\n",
			name, t->res.dir, t->unplaced, numfmt_s(t->unplaced), t->study.path);
}

int cmd_targets_load(struct cmd_targets *ct, int argc, char **argv, const char *name)
{
	size_t n = (size_t)(argc - optind);

	if (argc <= optind) {
		fprintf(stderr, "tuner: %s: need at least one study file (see 'tuner %s --help')\n",
			name, name);
		return EXIT_USAGE;
	}
	if (ct->ndirs && ct->ndirs != n) {
		fprintf(stderr, "tuner: %s: %zu --results for %zu studies: give one per study, in order, or none\n",
			name, ct->ndirs, n);
		return EXIT_USAGE;
	}
	if (results_targets_load(&ct->t, (const char *const *)argv + optind, ct->dirs, n) < 0)
		return cmd_error();
	ct->n = n;
	for (size_t i = 0; i < n; i++)
		notes(&ct->t[i], name);
	return 0;
}

void cmd_targets_release(struct cmd_targets *ct)
{
	results_targets_free(ct->t, ct->n);
	free(ct->dirs);
	ct->t = NULL;
	ct->dirs = NULL;
	ct->n = ct->ndirs = ct->dirs_alloc = 0;
}

void cmd_join_names(char *buf, size_t len, const char *const *names, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", names[i]);
	snprintf(buf, len, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}
