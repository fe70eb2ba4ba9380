/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner compare: two variants of a study's program against each other. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_compare.h"
#include "cmd_options.h"
#include "tuner/run.h"
#include "tuner/space.h"
#include "tuner/study.h"
#include "tuner/util.h"

const char compare_usage[] =
	"usage: tuner compare STUDY.yaml --a FLAGS --b FLAGS [options]\n"
	"       tuner compare STUDY.yaml --a-rev REV --b-rev REV [--flags FLAGS] [options]\n\n"
	"Measures two variants of the study's program against each other: two flag\n"
	"strings built from the study's source, or one flag string (--flags, default\n"
	"the study's first configuration) built from two revisions of it. Each\n"
	"variant is built with layout seeds 0..K-1 and every build measured N times,\n"
	"A and B interleaved (A B A B ...), on the study's testbeds. For every\n"
	"objective it prints B - A with its 95% interval and p-value (Welch's t test;\n"
	"on the layout seeds' means when K >= 2), the measurement and layout spread,\n"
	"whether the difference exceeds the layout-noise band (the 95% range of the\n"
	"difference between two builds that differ only in layout, 1.96 sqrt(2)\n"
	"layout sd), and a verdict. The verdict claims a difference only when\n"
	"Welch's test and the Mann-Whitney rank test on the same units both give\n"
	"p < 0.05, so one outlier run cannot make a claim.\n\n"
	"When A and B built the same code (one code id) it says so first. Measured\n"
	"once (measure.same_code: share, the default), their samples are one\n"
	"program's: the verdict is 'not compared', and a measure command that judges\n"
	"anything but the artifact needs measure.same_code: separate.\n\n"
	"With one layout seed a side nothing tells a flag's effect from the layout\n"
	"luck of the two builds (2-4% on a router): the verdict is 'cannot separate\n"
	"from layout noise' unless --layout-sd gives the layout spread to assume,\n"
	"which widens the interval by it (0 for a target without layout noise).\n\n"
	"  --a FLAGS, --b FLAGS      the two flag strings\n"
	"  --a-pgo off|on, --b-pgo off|on\n"
	"                            PGO for A, for B (default off; on needs the\n"
	"                            study's train command); when they differ, --a\n"
	"                            and --b are the same flags: one change at a time\n"
	"  --a-rev REV, --b-rev REV  two revisions of the study's source\n"
	"  --flags FLAGS             the flags for --a-rev/--b-rev\n"
	"  --repeats N               measurements per build (default 10)\n"
	"  --layout K                layout seeds per variant (default: the study's\n"
	"                            layout.samples)\n"
	"  --layout-sd PCT           with K = 1: the layout standard deviation to\n"
	"                            assume, in percent of the value\n"
	"  --results DIR             where results go (default:\n"
	"                            results/<study>/compare-<id>; a rerun resumes)\n"
	"  --fail-on worse|change|never\n"
	"                            exit 4 when the verdict on the objective (the\n"
	"                            study's first, or --objective) is 'B is worse'\n"
	"                            (worse) or either 'B is better' or 'B is worse'\n"
	"                            (change); default never. For CI: a verdict that\n"
	"                            cannot separate from layout noise never fails\n"
	"  --objective NAME          the objective --fail-on judges\n"
	"  --format F                table (default), md (GitHub Markdown: a table\n"
	"                            of the objectives, the tests as bullets) or json\n"
	"                            (one object on stdout: every objective's values,\n"
	"                            B - A, interval, p-values, units per side, noise,\n"
	"                            verdict; fractions: 0.02 is +2%); progress and\n"
	"                            notes stay on stderr\n"
	"  -j, --jobs N              parallel builds (default: number of CPUs)\n"
	"  -q, --quiet               no progress on stderr\n"
	"  -h, --help                this text\n\n"
	"Exit status: 0 compared, or the same code (whatever the verdict, unless\n"
	"--fail-on, which never fails on the same code), 1 error\n"
	"(e.g. a build failed), 2 bad study file or option, 4 the verdict --fail-on\n"
	"refuses, 130 interrupted.\n";

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "tuner: compare: %s%s%s\n", msg, arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

/*
 * The study to run: the space is the two flag strings (or the one, built
 * from two revisions), measured N times on K layout seeds, no racing.
 * Shares the strings of s; release with release_derived().
 */
static int derive(struct study *out, const struct study *s, const struct compare_opts *o)
{
	static char exhaustive[] = "exhaustive";
	struct config first = CONFIG_INIT;
	uint64_t h = hash64_str(HASH64_INIT, s->hash);
	const char *vals[2];
	int ret = -1;

	*out = *s;
	out->space = (struct space)SPACE_INIT;
	out->has_pgo_on = 0;
	if (o->a_rev) {
		if (o->flags) {
			vals[0] = o->flags;
		} else {
			if (space_config(&first, &s->space, 0) < 0)
				goto out;
			vals[0] = first.flags;
		}
		if (space_add_dimension(&out->space, "compare", vals, 1) < 0)
			goto out;
		/* The study's first configuration keeps its PGO mode. */
		if (!o->flags && first.pgo == PGO_ON) {
			const char *on = "on";
			if (space_add_dimension(&out->space, "pgo", &on, 1) < 0)
				goto out;
			out->has_pgo_on = 1;
		}
		h = hash64_str(hash64_str(hash64_str(h, vals[0]), o->a_rev), o->b_rev);
	} else if (o->a_pgo != o->b_pgo) {
		/* The same flags, PGO off and on (parse_options saw to it): the
		 * space's order makes A the first configuration. */
		const char *modes[2] = { o->a_pgo == PGO_ON ? "on" : "off",
					 o->b_pgo == PGO_ON ? "on" : "off" };
		if (space_add_dimension(&out->space, "compare", &o->a, 1) < 0 ||
		    space_add_dimension(&out->space, "pgo", modes, 2) < 0)
			goto out;
		out->has_pgo_on = 1;
		h = hash64_str(hash64_str(h, o->a), modes[0]);
		h = hash64_str(h, modes[1]);
	} else {
		vals[0] = o->a;
		vals[1] = o->b;
		if (space_add_dimension(&out->space, "compare", vals, 2) < 0)
			goto out;
		h = hash64_str(hash64_str(h, o->a), o->b);
		if (o->a_pgo == PGO_ON) {
			const char *on = "on";
			if (space_add_dimension(&out->space, "pgo", &on, 1) < 0)
				goto out;
			out->has_pgo_on = 1;
			h = hash64_str(h, "pgo=on");
		}
	}
	/* The journal belongs to these two variants whatever N and K: a rerun
	 * with more repeats or seeds adds to it. */
	hash64_hex(out->hash, h);
	out->repeats_min = out->repeats_max = o->repeats;
	out->layout_samples = o->layout ? o->layout : s->layout_samples;
	out->strategy = exhaustive;
	out->budget = 0;
	ret = 0;
out:
	config_release(&first);
	if (ret < 0)
		space_release(&out->space);
	return ret;
}

static int report(const struct study *d, const struct run_result *res,
		  const struct compare_opts *o)
{
	const struct config_result *A, *B;
	struct cmp_same same;
	struct cmp_obj *c;
	size_t n;
	int ok, ret = EXIT_OK;

	if (res->nconfigs != 2) {
		fprintf(stderr, "tuner: compare: the two variants are one configuration (the same flags)\n");
		return EXIT_USAGE;
	}
	A = &res->configs[0];
	B = &res->configs[1];
	ok = !strcmp(A->status, "ok") && !strcmp(B->status, "ok");
	n = ok ? d->nobjectives : 0;
	compare_same(&same, res);
	c = xcalloc(n + 1, sizeof(*c));
	for (size_t i = 0; i < n; i++)
		compare_judge(&c[i], d, A, B, i, o, &same);
	if (o->fmt == OUTFMT_JSON)
		compare_print_json(d, res, o, &same, c, n);
	else
		compare_print_head(d, res, o);
	/* Before any figure: what they are figures of. */
	compare_print_same(&same, o);
	if (!ok) {
		fprintf(stderr, "tuner: compare: A is %s, B is %s (see %s)\n", A->status, B->status,
			res->results_dir);
		free(c);
		return EXIT_FAIL;
	}
	if (o->fmt == OUTFMT_MD)
		compare_print_md(c, n, d->layout_samples);
	for (size_t i = 0; i < n && o->fmt == OUTFMT_TABLE; i++)
		compare_print_text(&c[i], d->layout_samples);
	if (o->fmt != OUTFMT_JSON) {
		char *dir = outfmt_text(o->fmt, res->results_dir);

		printf("%sresults: %s\n", o->fmt == OUTFMT_MD ? "- " : "", dir);
		free(dir);
	}
	if (compare_fails(o, &c[o->primary])) {
		fprintf(stderr, "tuner: compare: %s: %s (--fail-on %s)\n", c[o->primary].ob->name,
			c[o->primary].verdict, compare_fail_on_names[o->fail_on]);
		ret = EXIT_VERDICT;
	} else if (o->fail_on != FAIL_NEVER && (c[o->primary].outcome == OUT_UNSEPARABLE ||
						c[o->primary].outcome == OUT_SAME)) {
		fprintf(stderr, "tuner: compare: note: --fail-on %s: %s: %s, so not failing\n",
			compare_fail_on_names[o->fail_on], c[o->primary].ob->name,
			c[o->primary].verdict);
	}
	free(c);
	return ret;
}

static int run_compare(const struct study *s, struct compare_opts *o, struct run_opts *ro)
{
	const char *revs[2] = { o->a_rev, o->b_rev };
	struct run_result res;
	struct study d;
	char *dir = NULL;
	int ret;

	if ((o->a_pgo == PGO_ON || o->b_pgo == PGO_ON) && !s->train.command) {
		fprintf(stderr, "tuner: compare: %s: PGO on needs the study's train command "
			"(train: {command: ...})\n", s->path);
		return EXIT_USAGE;
	}
	if (o->objective) {
		for (o->primary = 0; o->primary < s->nobjectives; o->primary++)
			if (!strcmp(s->objectives[o->primary].name, o->objective))
				break;
		if (o->primary == s->nobjectives) {
			fprintf(stderr, "tuner: compare: %s has no objective '%s'\n", s->path,
				o->objective);
			return EXIT_USAGE;
		}
	}
	if (derive(&d, s, o) < 0) {
		/* The space refuses two equal flag strings. */
		fprintf(stderr, "tuner: compare: %s\n", tn_errmsg());
		return EXIT_USAGE;
	}
	if (!ro->results) {
		dir = xasprintf("results/%s/compare-%s", s->name, d.hash);
		ro->results = dir;
	}
	if (o->a_rev) {
		ro->revs = revs;
		ro->nrevs = 2;
	}
	if (run_study(&res, &d, ro) < 0) {
		ret = cmd_error();
	} else if (res.interrupted) {
		fprintf(stderr, "tuner: compare: interrupted; run again to resume\n");
		ret = EXIT_INTERRUPTED;
	} else {
		ret = report(&d, &res, o);
	}
	run_result_release(&res);
	space_release(&d.space);
	free(dir);
	return ret;
}

static int parse_options(struct compare_opts *o, struct run_opts *ro, int *quiet,
			 int argc, char **argv)
{
	enum { OPT_A = 256, OPT_B, OPT_AREV, OPT_BREV, OPT_FLAGS, OPT_LAYOUT_SD, OPT_APGO,
	       OPT_BPGO, OPT_FAIL_ON, OPT_OBJECTIVE };
	static const struct option longopts[] = {
		{ "a", required_argument, NULL, OPT_A },
		{ "b", required_argument, NULL, OPT_B },
		{ "a-rev", required_argument, NULL, OPT_AREV },
		{ "b-rev", required_argument, NULL, OPT_BREV },
		{ "flags", required_argument, NULL, OPT_FLAGS },
		{ "layout-sd", required_argument, NULL, OPT_LAYOUT_SD },
		{ "a-pgo", required_argument, NULL, OPT_APGO },
		{ "b-pgo", required_argument, NULL, OPT_BPGO },
		{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
		{ "objective", required_argument, NULL, OPT_OBJECTIVE },
		CMD_MEASURE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_measure_opts m = { .repeats = o->repeats };
	double pct;
	int c, ret, pgo_given = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, CMD_MEASURE_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_A:
			o->a = optarg;
			break;
		case OPT_B:
			o->b = optarg;
			break;
		case OPT_AREV:
			o->a_rev = optarg;
			break;
		case OPT_BREV:
			o->b_rev = optarg;
			break;
		case OPT_FLAGS:
			o->flags = optarg;
			break;
		case OPT_APGO:
		case OPT_BPGO: {
			enum pgo_mode *mode = c == OPT_APGO ? &o->a_pgo : &o->b_pgo;
			if (!strcmp(optarg, "on"))
				*mode = PGO_ON;
			else if (!strcmp(optarg, "off"))
				*mode = PGO_OFF;
			else
				return usage_error(c == OPT_APGO ? "--a-pgo is off or on, not '" :
						   "--b-pgo is off or on, not '", optarg);
			pgo_given = 1;
			break;
		}
		case OPT_FAIL_ON:
			if (!strcmp(optarg, "worse"))
				o->fail_on = FAIL_WORSE;
			else if (!strcmp(optarg, "change"))
				o->fail_on = FAIL_CHANGE;
			else if (!strcmp(optarg, "never"))
				o->fail_on = FAIL_NEVER;
			else
				return usage_error("--fail-on is worse, change or never, not '", optarg);
			break;
		case OPT_OBJECTIVE:
			o->objective = optarg;
			break;
		case OPT_LAYOUT_SD:
			if (parse_double(&pct, optarg) < 0 || pct < 0 || !isfinite(pct))
				return usage_error("--layout-sd takes a percentage >= 0, not '", optarg);
			o->has_layout_sd = 1;
			o->layout_sd = pct / 100;
			break;
		default:
			ret = cmd_measure_option(&m, c, "compare", argv);
			if (ret > 0)
				return ret;
		}
	}
	o->repeats = m.repeats;
	o->layout = m.layout;
	o->fmt = m.fmt;
	o->results = ro->results = m.results;
	ro->jobs = m.jobs;
	*quiet = m.quiet;
	if (argc - optind != 1)
		return usage_error("need one study file (see 'tuner compare --help')", NULL);
	if (!!o->a != !!o->b)
		return usage_error("--a and --b go together", NULL);
	if (!!o->a_rev != !!o->b_rev)
		return usage_error("--a-rev and --b-rev go together", NULL);
	if (!o->a == !o->a_rev)
		return usage_error("give either --a and --b, or --a-rev and --b-rev", NULL);
	if (o->flags && !o->a_rev)
		return usage_error("--flags goes with --a-rev and --b-rev", NULL);
	if (pgo_given && !o->a)
		return usage_error("--a-pgo and --b-pgo go with --a and --b", NULL);
	if (o->a) {
		char ia[17], ib[17], fa[17], fb[17];
		config_id(ia, o->a, o->a_pgo);
		config_id(ib, o->b, o->b_pgo);
		config_id(fa, o->a, PGO_OFF);
		config_id(fb, o->b, PGO_OFF);
		if (!strcmp(ia, ib))
			return usage_error("--a and --b are the same flags and PGO mode: nothing "
					   "to compare", NULL);
		if (o->a_pgo != o->b_pgo && strcmp(fa, fb))
			return usage_error("--a-pgo and --b-pgo differ: give --a and --b the same "
					   "flags, one change at a time", NULL);
	}
	return -1;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	struct run_opts ro = RUN_OPTS_INIT;
	struct cmd_reporter rep;
	struct study s;
	int quiet = 0, ret;

	if (cmd_wants_help(argc, argv, compare_usage))
		return EXIT_OK;
	o.repeats = 10;
	ret = parse_options(&o, &ro, &quiet, argc, argv);
	if (ret >= 0)
		return ret;
	ret = cmd_open_study(&s, argv[optind], "compare", 1);
	if (ret)
		return ret;
	cmd_reporter_init(&rep, quiet);
	ro.report = &rep.r;
	ret = run_compare(&s, &o, &ro);
	cmd_close_study(&s);
	return ret;
}
