/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner compare: two variants of a study's program against each other. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tuner/numfmt.h"
#include "tuner/progress.h"
#include "tuner/run.h"
#include "tuner/space.h"
#include "tuner/stats.h"
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
	"  -j, --jobs N              parallel builds (default: number of CPUs)\n"
	"  -q, --quiet               no progress on stderr\n"
	"  -h, --help                this text\n\n"
	"Exit status: 0 compared (whatever the verdict), 1 error (e.g. a build\n"
	"failed), 2 bad study file or option, 130 interrupted.\n";

struct compare_opts {
	const char *a, *b, *a_rev, *b_rev, *flags, *results;
	enum pgo_mode a_pgo, b_pgo;
	unsigned repeats, layout;
	int has_layout_sd;
	double layout_sd; /* fraction */
};

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

/* Prints one measured objective's comparison. */
static void compare_objective(const struct objective *ob, const struct config_result *A,
			      const struct config_result *B, size_t i, unsigned K,
			      const struct compare_opts *o)
{
	const struct run_samples *a = &A->samples[i], *b = &B->samples[i];
	double ma = A->obj[i].mean, mb = B->obj[i].mean;
	double lsd = NAN, band = NAN;
	struct stats_test t;
	char d[32], lo[32], hi[32], r[32], rlo[32], rhi[32], p[NUMFMT_LEN], pr[NUMFMT_LEN];
	char va[NUMFMT_LEN], sa[NUMFMT_LEN], vb[NUMFMT_LEN], sb[NUMFMT_LEN];
	const char *how, *verdict;
	int significant, separable = 1;

	stats_compare_clustered(&t, a->x, a->layout_seed, a->n, b->x, b->layout_seed, b->n, 0.95);
	if (!t.layout_unreplicated) {
		how = "Welch's t on the layout seeds' means";
		lsd = cmd_pooled_sd(A->spread[i].between_sd, B->spread[i].between_sd) / fabs(ma);
	} else if (o->has_layout_sd) {
		/* Each side's mean carries its one layout's offset: add their
		 * variance, 2 (sd |mean a|)^2, to the run noise's. */
		double q = stats_t_quantile(0.975, t.df);
		double se = (t.diff_hi - t.diff) / q;
		double extra = o->layout_sd * fabs(ma);

		se = sqrt(se * se + 2 * extra * extra);
		if (isfinite(se) && se > 0) {
			t.statistic = t.diff / se;
			t.p = 2 * stats_t_cdf(-fabs(t.statistic), t.df);
			t.diff_lo = t.diff - q * se;
			t.diff_hi = t.diff + q * se;
			t.rel_lo = t.diff_lo / fabs(ma);
			t.rel_hi = t.diff_hi / fabs(ma);
		}
		how = "Welch's t over runs, widened by the assumed layout sd";
		lsd = o->layout_sd;
	} else {
		how = "Welch's t over runs only: one layout seed a side";
		separable = 0;
	}
	if (isfinite(lsd))
		band = 1.96 * sqrt(2.0) * lsd;

	numfmt(va, sizeof(va), ma, 4);
	numfmt(sa, sizeof(sa), A->obj[i].stddev, 2);
	numfmt(vb, sizeof(vb), mb, 4);
	numfmt(sb, sizeof(sb), B->obj[i].stddev, 2);
	printf("%s (%s): A %s ±%s (n=%zu), B %s ±%s (n=%zu)\n", ob->name,
	       ob->maximize ? "max" : "min", va, sa, A->obj[i].n, vb, sb, B->obj[i].n);
	cmd_format_signed(d, sizeof(d), t.diff);
	cmd_format_signed(lo, sizeof(lo), t.diff_lo);
	cmd_format_signed(hi, sizeof(hi), t.diff_hi);
	cmd_format_pct(r, sizeof(r), t.rel);
	cmd_format_pct(rlo, sizeof(rlo), t.rel_lo);
	cmd_format_pct(rhi, sizeof(rhi), t.rel_hi);
	numfmt_p(p, sizeof(p), t.p);
	numfmt_p(pr, sizeof(pr), t.p_rank);
	printf("  B - A = %s (%s), 95%% CI [%s, %s] ([%s, %s]), %s\n", d, r, lo, hi,
	       rlo, rhi, p);
	printf("  test: %s (%zu against %zu); Mann-Whitney %s\n", how, t.na, t.nb, pr);
	printf("  noise: run sd %.2g%%, layout sd ", 100 * cmd_pooled_sd(A->spread[i].within_sd,
								B->spread[i].within_sd) / fabs(ma));
	if (isfinite(lsd))
		printf("%.2g%%%s; layout band ±%.2g%%: the difference is %s it\n", 100 * lsd,
		       t.layout_unreplicated ? " (assumed)" : "", 100 * band,
		       fabs(t.rel) > band ? "beyond" : "within");
	else
		printf("unknown (%u layout seed a side); layout band unknown\n", K);
	significant = separable && stats_significant(&t, 0.05);
	if (!separable)
		verdict = "cannot separate from layout noise (use --layout K >= 2, or --layout-sd)";
	else if (!significant && t.p < 0.05)
		verdict = "no significant difference (Welch's p < 0.05, but the rank test disagrees)";
	else if (!significant)
		verdict = "no significant difference";
	else if ((t.diff > 0) == (ob->maximize != 0))
		verdict = "B is better";
	else
		verdict = "B is worse";
	printf("  verdict: %s\n", verdict);
}

static void compare_size(const struct objective *ob, const struct config_result *A,
			 const struct config_result *B, size_t i)
{
	double ma = A->value[i], mb = B->value[i];
	char d[32], r[32], va[NUMFMT_LEN], vb[NUMFMT_LEN];

	cmd_format_signed(d, sizeof(d), mb - ma);
	cmd_format_pct(r, sizeof(r), (mb - ma) / fabs(ma));
	/* Exact: enough digits for a byte count. */
	numfmt(va, sizeof(va), ma, 6);
	numfmt(vb, sizeof(vb), mb, 6);
	printf("%s (%s): A %s, B %s%s%s\n  B - A = %s (%s), exact\n", ob->name,
	       ob->maximize ? "max" : "min", va, vb, *ob->unit ? " " : "", ob->unit, d, r);
	printf("  verdict: %s\n", ma == mb ? "equal" :
	       (mb > ma) == (ob->maximize != 0) ? "B is better" : "B is worse");
}

static int report(const struct study *d, const struct run_result *res,
		  const struct compare_opts *o)
{
	const struct config_result *A, *B;

	if (res->nconfigs != 2) {
		fprintf(stderr, "tuner: compare: the two variants are one configuration (the same flags)\n");
		return EXIT_USAGE;
	}
	A = &res->configs[0];
	B = &res->configs[1];
	printf("compare (study %s): %u measurement%s x %u layout seed%s a side, interleaved\n",
	       d->name, d->repeats_min * (unsigned)d->ntestbeds,
	       numfmt_s(d->repeats_min * d->ntestbeds), d->layout_samples,
	       numfmt_s(d->layout_samples));
	if (o->a_rev) {
		printf("  A: %s (%.12s)\n  B: %s (%.12s)\n  flags: %s\n", o->a_rev, A->commit,
		       o->b_rev, B->commit, *A->flags ? A->flags : "(no flags)");
	} else {
		printf("  A: %s%s\n  B: %s%s\n", *A->flags ? A->flags : "(no flags)",
		       A->pgo ? " (PGO on)" : "", *B->flags ? B->flags : "(no flags)",
		       B->pgo ? " (PGO on)" : "");
	}
	if (strcmp(A->status, "ok") || strcmp(B->status, "ok")) {
		fprintf(stderr, "tuner: compare: A is %s, B is %s (see %s)\n", A->status, B->status,
			res->results_dir);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < d->nobjectives; i++) {
		if (d->objectives[i].from_size)
			compare_size(&d->objectives[i], A, B, i);
		else
			compare_objective(&d->objectives[i], A, B, i, d->layout_samples, o);
	}
	printf("results: %s\n", res->results_dir);
	return EXIT_OK;
}

static int run_compare(const struct study *s, const struct compare_opts *o, struct run_opts *ro)
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
	       OPT_BPGO };
	static const struct option longopts[] = {
		{ "a", required_argument, NULL, OPT_A },
		{ "b", required_argument, NULL, OPT_B },
		{ "a-rev", required_argument, NULL, OPT_AREV },
		{ "b-rev", required_argument, NULL, OPT_BREV },
		{ "flags", required_argument, NULL, OPT_FLAGS },
		{ "layout-sd", required_argument, NULL, OPT_LAYOUT_SD },
		{ "a-pgo", required_argument, NULL, OPT_APGO },
		{ "b-pgo", required_argument, NULL, OPT_BPGO },
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

	if (cmd_wants_help(argc, argv, "compare"))
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
