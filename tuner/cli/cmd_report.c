/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner report: one study's results, or several targets', as one self-contained HTML page. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_targets.h"
#include "tuner/html_report.h"
#include "tuner/results.h"
#include "tuner/util.h"

const char report_usage[] =
	"usage: tuner report STUDY.yaml... [--results DIR]... [--objective NAME]\n"
	"                    [-o FILE]\n\n"
	"Writes the results of finished runs (DIR/pareto.json, from 'tuner run') as\n"
	"one self-contained HTML page, nothing fetched from the network. Measures\n"
	"nothing. Prints the page's path.\n\n"
	"The page: provenance (commit, compiler, host, date, study hash; MODELLED\n"
	"objectives say so), the Pareto front as a plot (the size-like objective\n"
	"against the first other one; error bars of 2 standard errors from the run\n"
	"and layout spread; each point's flags on hover or keyboard focus), the\n"
	"per-flag effects as bars with 95% intervals (what 'tuner effects' prints),\n"
	"every configuration in a table with its layout spread, and what failed\n"
	"with the last lines of its logs.\n\n"
	"Several studies are several targets over one flag space (one study per\n"
	"target, e.g. two routers): a front per target side by side, the effects\n"
	"side by side with the values that change sign between targets called out,\n"
	"and the regret of each configuration on each target as a heat map with\n"
	"each target's best, the common default and the verdict (what 'tuner\n"
	"defaults' prints, with its default threshold of 2%).\n\n"
	"  --results DIR       a study's results (default: results/<study>); give it\n"
	"                      once per study, in the studies' order\n"
	"  --objective NAME    the regret ranks by this objective (default: each\n"
	"                      study's first measured one)\n"
	"  -o, --output FILE   where the page goes (default: DIR/report.html of the\n"
	"                      study; with several, report-targets.html in the\n"
	"                      first study's DIR); - is standard output. A\n"
	"                      regular file is replaced atomically, a FIFO or a\n"
	"                      character device written through; anything else\n"
	"                      (a symbolic link to a file, a directory) refused\n"
	"  -h, --help          this text\n\n"
	"Exit status: 0 written, 1 error, 2 bad study file or option, or no\n"
	"results (run the study first) or results not tuner's.\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "results", required_argument, NULL, CMD_TOPT_RESULTS },
		{ "objective", required_argument, NULL, CMD_TOPT_OBJECTIVE },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_targets ct = CMD_TARGETS_INIT;
	const char *output = NULL;
	char *path = NULL;
	int c, ret;

	if (cmd_wants_help(argc, argv, report_usage))
		return EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		if (c == 'o') {
			output = optarg;
			continue;
		}
		ret = cmd_targets_option(&ct, c, "report", argv);
		if (ret) {
			free(ct.dirs);
			return ret > 0 ? ret : EXIT_USAGE;
		}
	}
	ret = cmd_targets_load(&ct, argc, argv, "report");
	if (ret)
		goto out;
	for (size_t t = 0; ct.objective && t < ct.n; t++)
		if (results_objective(&ct.t[t].res, ct.objective) < 0) {
			fprintf(stderr, "tuner: report: %s (%s) has no objective '%s'\n",
				ct.t[t].name, ct.t[t].res.dir, ct.objective);
			ret = EXIT_USAGE;
			goto out;
		}
	path = output ? xstrdup(output) : xasprintf("%s/%s", ct.t[0].res.dir, ct.n > 1 ?
						    "report-targets.html" : "report.html");
	if (html_report_write(path, ct.t, ct.n, ct.objective) < 0) {
		ret = cmd_error();
		goto out;
	}
	if (strcmp(path, "-"))
		printf("%s\n", path);
	ret = EXIT_OK;
out:
	free(path);
	cmd_targets_release(&ct);
	return ret;
}
