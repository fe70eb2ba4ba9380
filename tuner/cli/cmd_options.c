/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options the commands share (cmd_options.h). */
#include "cmd_options.h"

#include <stdint.h>
#include <stdio.h>

#include "cmd.h"
#include "tuner/util.h"

int cmd_count_option(unsigned *out, const char *name, const char *opt, const char *arg,
		     unsigned max)
{
	uint64_t v;

	if (parse_u64(&v, arg) < 0 || v < 1 || v > max) {
		fprintf(stderr, "tuner: %s: %s takes a whole number from 1 to %u, not '%s'\n", name,
			opt, max, arg);
		return EXIT_USAGE;
	}
	*out = (unsigned)v;
	return 0;
}

int cmd_format_option(enum outfmt *out, const char *name, const char *arg)
{
	if (outfmt_parse(out, arg) == 0)
		return 0;
	fprintf(stderr, "tuner: %s: --format is table, md or json, not '%s'\n", name, arg);
	return EXIT_USAGE;
}

int cmd_measure_option(struct cmd_measure_opts *o, int c, const char *name, char **argv)
{
	switch (c) {
	case CMD_OPT_FORMAT:
		return cmd_format_option(&o->fmt, name, optarg);
	case CMD_OPT_REPEATS:
		return cmd_count_option(&o->repeats, name, "--repeats", optarg, 100000);
	case CMD_OPT_LAYOUT:
		return cmd_count_option(&o->layout, name, "--layout", optarg, 100000);
	case CMD_OPT_MAX_LAYOUT:
		return cmd_count_option(&o->max_layout, name, "--max-layout", optarg, 100000);
	case 'j':
		return cmd_count_option(&o->jobs, name, "--jobs", optarg, 1024);
	case CMD_OPT_RESULTS:
		o->results = optarg;
		return 0;
	case CMD_OPT_GOOD:
		o->good = optarg;
		return 0;
	case CMD_OPT_BAD:
		o->bad = optarg;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	case ':':
		fprintf(stderr, "tuner: %s: %s needs a value\n", name, argv[optind - 1]);
		return EXIT_USAGE;
	case '?':
		fprintf(stderr, "tuner: %s: unknown option '%s' (see 'tuner %s --help')\n", name,
			argv[optind - 1], name);
		return EXIT_USAGE;
	}
	return -1;
}

int cmd_search_args_ok(const struct cmd_measure_opts *o, int argc, const char *name,
		       const char *what)
{
	if (argc - optind != 1) {
		fprintf(stderr, "tuner: %s: need one study file (see 'tuner %s --help')\n", name,
			name);
		return 0;
	}
	if (!o->good || !o->bad) {
		fprintf(stderr, "tuner: %s: need --good %s and --bad %s\n", name, what, what);
		return 0;
	}
	return 1;
}
