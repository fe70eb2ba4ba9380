/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner check: validate a study file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tuner/run.h"
#include "tuner/study.h"
#include "tuner/util.h"

const char check_usage[] =
	"usage: tuner check STUDY.yaml [--show N]\n\n"
	"Loads and validates a study file without building anything: syntax, keys,\n"
	"types, the flag space, commands, parsers and objectives, and resolves the\n"
	"source revision in its git repository. Prints the space size and the\n"
	"first configurations' flag strings.\n\n"
	"  --show N    how many configurations to list (default 5)\n"
	"  -h, --help  this text\n\n"
	"Exit status: 0 valid, 2 invalid (one line FILE:LINE:COL: message).\n";

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "show", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct study s;
	char commit[41];
	uint64_t show = 5, size;
	int c;

	if (cmd_wants_help(argc, argv, "check"))
		return EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_u64(&show, optarg) < 0) {
				fprintf(stderr, "tuner: check: --show takes a count, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		default:
			fprintf(stderr, "tuner: check: unknown option '%s' (see 'tuner check --help')\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "tuner: check: need one study file (see 'tuner check --help')\n");
		return EXIT_USAGE;
	}
	if (study_load(&s, argv[optind]) < 0) {
		cmd_die_msg(tn_errmsg());
		return EXIT_USAGE;
	}
	if (run_resolve_source(commit, &s) < 0) {
		cmd_die_msg(tn_errmsg());
		study_release(&s);
		return EXIT_USAGE;
	}

	size = space_size(&s.space);
	printf("%s: study '%s' is valid\n", s.path, s.name);
	printf("source: %s at %s (%s)%s%s\n", s.source_repo, s.source_rev, commit,
	       *s.source_path ? ", path " : "", s.source_path);
	printf("space: %zu dimensions, %llu configurations", s.space.ndims,
	       (unsigned long long)size);
	if (s.layout_samples > 1)
		printf(" x %u layout seeds", s.layout_samples);
	if (s.budget && s.budget < size)
		printf(", budget %llu (%s)", (unsigned long long)s.budget, s.strategy);
	printf("\n");
	for (uint64_t i = 0; i < size && i < show; i++) {
		struct config cfg = CONFIG_INIT;
		if (space_config(&cfg, &s.space, i) < 0)
			break;
		printf("  %s  pgo=%-3s  %s\n", cfg.id, cfg.pgo == PGO_ON ? "on" : "off",
		       *cfg.flags ? cfg.flags : "(no flags)");
		config_release(&cfg);
	}
	if (size > show)
		printf("  ... %llu more\n", (unsigned long long)(size - show));
	study_release(&s);
	return EXIT_OK;
}
