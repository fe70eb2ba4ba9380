/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner propose: a study's search strategy for an evaluator of the caller's,
 * over stdin and stdout. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tuner/run.h"
#include "tuner/strategy.h"
#include "tuner/study.h"
#include "tuner/util.h"

const char propose_usage[] =
	"usage: tuner propose STUDY.yaml [options]\n\n"
	"Runs the study's search strategy (or --strategy's) for an evaluator of your\n"
	"own: tuner builds and measures nothing. It prints a batch of proposals on\n"
	"stdout, one line each:\n\n"
	"  I0,I1,...<TAB>FLAGS\n\n"
	"(the index of the value taken in each dimension of the study's space, in\n"
	"the study's order, then the flags as tuner joins them; PGO is the value of\n"
	"a 'pgo' dimension; with --race, a configuration proposed again asks for\n"
	"another measurement of it, e.g. on another layout seed), then reads one line per proposal of the batch from\n"
	"stdin, in order: the measured values of the study's objectives in its\n"
	"order, separated by spaces, optionally followed by their standard errors\n"
	"(\"612.3 104880\", \"612.3 104880 4.1 0\"), or \"fail\". When the budget is\n"
	"spent or the strategy is done it prints \"done\" and exits. The next batch\n"
	"depends only on the seed and the answers, so the same answers give the same\n"
	"proposals. Used by bench/search.sh to put tuner's strategies beside other\n"
	"tools on the same oracle.\n\n"
	"  -s, --strategy S   exhaustive, random, nsga2 or surrogate (default: the\n"
	"                     study's search.strategy)\n"
	"      --budget N     propose at most N configurations (default: the study's\n"
	"                     search.budget, else the whole space)\n"
	"      --seed N       the strategy's seed (default: the study's)\n"
	"      --race         the evaluator can measure a configuration again: the\n"
	"                     surrogate then spends part of its later batches\n"
	"                     measuring again what may be on the front by luck\n"
	"                     (tuner run cannot yet: docs/search.md)\n"
	"  -q, --quiet        no progress on stderr\n"
	"  -h, --help         this text\n\n"
	"Progress on stderr: after each batch, the proposals so far and the\n"
	"hypervolume of the feasible answers' front (in units of the first batch's\n"
	"ranges).\n\n"
	"Exit status: 0 done, 1 the evaluator closed stdin early, 2 bad study file,\n"
	"option or answer line (stdin:LINE: what is wrong).\n";

/* Reads the answer to proposal i of the trail from line. 0, or -1 with
 * the message printed. */
static int parse_answer(struct strategy_trail *t, size_t i, const char *line, size_t lineno)
{
	size_t m = t->nobjs, n = 0;
	double v[64];
	const char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "fail", 4) && (p[4] == '\0' || p[4] == '\n' || p[4] == ' ')) {
		t->failed[i] = 1;
		return 0;
	}
	while (*p && *p != '\n') {
		char *end;

		if (n == 2 * m || n == ARRAY_SIZE(v)) {
			fprintf(stderr, "tuner: propose: stdin:%zu: more than %zu values (%zu "
					"objectives, then their standard errors)\n", lineno, 2 * m, m);
			return -1;
		}
		v[n] = strtod(p, &end);
		if (end == p || (*end && *end != ' ' && *end != '\t' && *end != '\n')) {
			fprintf(stderr, "tuner: propose: stdin:%zu:%zu: not a number: '%.*s'\n", lineno,
				(size_t)(p - line) + 1, (int)strcspn(p, "\n"), p);
			return -1;
		}
		n++;
		p = end;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	if (n != m && n != 2 * m) {
		fprintf(stderr, "tuner: propose: stdin:%zu: %zu values; want %zu (one per objective), "
				"%zu with standard errors, or 'fail'\n", lineno, n, m, 2 * m);
		return -1;
	}
	for (size_t k = 0; k < m; k++) {
		t->value[i * m + k] = v[k];
		t->se[i * m + k] = n == 2 * m ? fabs(v[m + k]) : 0;
	}
	return 0;
}

static void print_pick(const struct space *s, const size_t *pick)
{
	struct config c = CONFIG_INIT;

	for (size_t d = 0; d < s->ndims; d++)
		printf("%s%zu", d ? "," : "", pick[d]);
	if (space_config_pick(&c, s, pick) == 0) {
		printf("\t%s%s\n", c.flags, c.pgo == PGO_ON ? " (pgo)" : "");
		config_release(&c);
	} else {
		printf("\t\n");
	}
}

/* The options; 0: not given. */
struct propose_opts {
	const char *strategy;
	uint64_t budget, seed;
	int has_budget, has_seed, quiet, race;
};

/* -1 when the options are good and one study file is left, else the exit
 * code after the message. */
static int parse_options(struct propose_opts *o, int argc, char **argv)
{
	enum { OPT_BUDGET = 256, OPT_SEED, OPT_RACE };
	static const struct option longopts[] = {
		{ "strategy", required_argument, NULL, 's' },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "race", no_argument, NULL, OPT_RACE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->strategy = optarg;
			break;
		case OPT_BUDGET:
			if (parse_u64(&o->budget, optarg) < 0 || !o->budget) {
				fprintf(stderr, "tuner: propose: --budget takes a whole number from 1, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			o->has_budget = 1;
			break;
		case OPT_SEED:
			if (parse_u64(&o->seed, optarg) < 0) {
				fprintf(stderr, "tuner: propose: --seed takes a whole number, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			o->has_seed = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_RACE:
			o->race = 1;
			break;
		case ':':
			fprintf(stderr, "tuner: propose: %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "tuner: propose: unknown option '%s' (see 'tuner propose --help')\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "tuner: propose: need one study file (see 'tuner propose --help')\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* The evaluator's answers on stdin, line by line. */
struct answers {
	char *line;
	size_t cap, lineno;
};

/* Asks the strategy for its next batch and prints it, one proposal a
 * line, each added to the trail t. Its size: 0 when the strategy is done,
 * or -1 with message. */
static long ask_batch(const struct strategy_ops *ops, void *st, struct strategy_trail *t,
		      size_t *batch, const struct space *sp)
{
	long k = ops->ask(st, batch, STRATEGY_MAX_BATCH, strategy_trail_obs(t), t->n);

	if (k <= 0)
		return k;
	for (long i = 0; i < k; i++) {
		strategy_trail_add(t, batch + (size_t)i * sp->ndims);
		print_pick(sp, batch + (size_t)i * sp->ndims);
	}
	fflush(stdout);
	return k;
}

/* Reads the answers to proposals from..t->n of the trail from stdin. -1,
 * or the exit code after the message: EXIT_FAIL when stdin ended,
 * EXIT_USAGE for a bad line. */
static int read_answers(struct strategy_trail *t, size_t from, struct answers *a)
{
	for (size_t i = from; i < t->n; i++) {
		if (getline(&a->line, &a->cap, stdin) < 0) {
			fprintf(stderr, "tuner: propose: stdin ended after %zu of %zu answers\n", i,
				t->n);
			return EXIT_FAIL;
		}
		if (parse_answer(t, i, a->line, ++a->lineno) < 0)
			return EXIT_USAGE;
	}
	return -1;
}

/* What matters to the strategy after the search, a line each on stderr. */
static void print_what_matters(const struct strategy_ops *ops, void *st, const struct study *s,
			       struct strategy_trail *t)
{
	char *text = run_search_describe(ops, st, s, t), *l, *save = NULL;

	for (l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "tuner: propose %s, what matters to %s\n", ops->name, l);
	free(text);
}

/*
 * The search over stdin and stdout: batch after batch, the strategy's
 * proposals out and the evaluator's answers in, until the strategy is
 * done ("done"). The exit code.
 */
static int propose(const struct study *s, const struct strategy_ops *ops,
		   const struct propose_opts *o)
{
	struct strategy_problem prob;
	struct strategy_trail trail;
	struct strategy_hv hv = STRATEGY_HV_INIT;
	struct answers in = { NULL, 0, 0 };
	struct pareto_obj *objs = xcalloc(s->nobjectives + 1, sizeof(*objs));
	size_t nd = s->space.ndims, batches = 0, from;
	size_t *batch;
	void *st = NULL;
	long k;
	int ret;

	study_pareto_objs(objs, s);
	prob.s = &s->space;
	prob.objs = objs;
	prob.nobjs = s->nobjectives;
	prob.budget = o->has_budget ? o->budget : s->budget;
	prob.seed = o->has_seed ? o->seed : s->seed;
	prob.repeats = o->race;
	strategy_trail_init(&trail, nd, s->nobjectives);
	batch = xcalloc((size_t)STRATEGY_MAX_BATCH * (nd ? nd : 1), sizeof(*batch));
	if (ops->init(&st, &prob) < 0) {
		ret = cmd_error();
		goto out;
	}
	for (;;) {
		double h;

		from = trail.n;
		k = ask_batch(ops, st, &trail, batch, &s->space);
		if (k <= 0)
			break;
		ret = read_answers(&trail, from, &in);
		if (ret >= 0)
			goto out;
		batches++;
		h = strategy_hv_progress(&hv, objs, s->nobjectives, strategy_trail_obs(&trail),
					 trail.n);
		if (!o->quiet)
			fprintf(stderr, "tuner: propose %s: batch %zu, %zu configurations, hypervolume %.4g\n",
				ops->name, batches, trail.n, h);
	}
	if (k < 0) {
		ret = cmd_error();
		goto out;
	}
	printf("done\n");
	fflush(stdout);
	if (!o->quiet)
		print_what_matters(ops, st, s, &trail);
	ret = EXIT_OK;
out:
	if (st)
		ops->free(st);
	free(in.line);
	free(batch);
	free(objs);
	strategy_trail_release(&trail);
	strategy_hv_release(&hv);
	return ret;
}

int cmd_propose(int argc, char **argv)
{
	struct propose_opts o = { 0 };
	const struct strategy_ops *ops;
	struct study s;
	int ret;

	if (cmd_wants_help(argc, argv, propose_usage))
		return EXIT_OK;
	ret = parse_options(&o, argc, argv);
	if (ret >= 0)
		return ret;
	ops = strategy_find(o.strategy ? o.strategy : "exhaustive");
	if (!ops) {
		fprintf(stderr, "tuner: propose: unknown strategy '%s' (known: %s)\n", o.strategy,
			strategy_names());
		return EXIT_USAGE;
	}
	ret = cmd_open_study(&s, argv[optind], "propose", 0);
	if (ret)
		return ret;
	if (!o.strategy)
		ops = strategy_find(s.strategy);
	ret = propose(&s, ops, &o);
	cmd_close_study(&s);
	return ret;
}
