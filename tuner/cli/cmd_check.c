/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner check: validate a study file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_numbers.h"
#include "tuner/gccopt.h"
#include "tuner/run.h"
#include "tuner/study.h"
#include "tuner/numfmt.h"
#include "tuner/lab.h"
#include "tuner/uarch_score.h"
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

/* The configurations compared as GCC sees them: sorted by id. */
struct seen {
	char id[17];
	char *flags;
	int pgo;
	size_t index; /* in the space's order */
};

static int cmp_seen(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : strcmp(x->flags, y->flags);
}

/* Up to this many configurations are listed to find GCC-equivalent ones:
 * as many as a run evaluates (pairing them is quadratic: 65536 take 12 s). */
#define EQUIV_MAX STUDY_MAX_CONFIGS

/*
 * Warns of dimension values that another dimension's value overrides
 * (gccopt: the last switch of a kind wins), and lists the configurations
 * that GCC builds alike: one configuration, built and measured once.
 */
/* In the space's order. */
static int cmp_index(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Counts the PGO configurations (seen[0..n), one per id, in the space's
 * order; flags[i] theirs) predicted to train the same profile as an
 * earlier one (gccopt_profile_form()), leaving out those build.equivalent
 * predicts to be another's build (plead[i] != i), and says what
 * train.share does with them.
 */
static void check_shares(const struct seen *seen, const char **flags, const size_t *plead,
			 size_t n, int skip, int share)
{
	unsigned long *group = xcalloc(n + 1, sizeof(*group));
	size_t *lead = xcalloc(n + 1, sizeof(*lead));
	char **kinds = xcalloc(n + 1, sizeof(*kinds));
	struct strbuf all = STRBUF_INIT;
	size_t members = 0;

	for (size_t i = 0; i < n; i++)
		group[i] = seen[i].pgo && (!skip || plead[i] == i) ? 0 : 2 * (unsigned long)i + 1;
	gccopt_profile_leads(lead, kinds, flags, group, n);
	for (size_t i = 0; i < n; i++) {
		char **w;
		size_t nw;

		if (lead[i] == i)
			continue;
		members++;
		nw = gccopt_words(&w, kinds[i], 0);
		for (size_t k = 0; k < nw; k++) {
			char *in = xasprintf(" %s,", w[k]), *have = xasprintf(" %s,", strbuf_str(&all));

			if (!strstr(have, in))
				strbuf_addf(&all, "%s%s", all.len ? ", " : "", w[k]);
			free(in);
			free(have);
		}
		gccopt_words_free(w, nw);
		free(kinds[i]);
	}
	if (members)
		printf("note: %zu PGO configuration%s predicted to train the same profile as "
		       "another (they differ only in %s, which gcc applies after instrumenting): %s\n",
		       members, members == 1 ? " is" : "s are", strbuf_str(&all),
		       share ? "with train.share: check, they use its profile once a pair, trained both, confirms it"
			     : "each trains its own (train.share: check would train one pair per kind of switch to check it, not the rest)");
	free(group);
	free(lead);
	free(kinds);
	strbuf_release(&all);
}

/*
 * Counts the configurations (seen[0..n), one per id, in the space's
 * order) that GCC is predicted to build as an earlier one
 * (gccopt_predicted()), and says what build.equivalent does with them;
 * then what train.share does (check_shares()).
 */
static void check_predicted(struct seen *seen, size_t n, int skip, int share)
{
	const char **flags = xcalloc(n + 1, sizeof(*flags));
	unsigned long *group = xcalloc(n + 1, sizeof(*group));
	size_t *lead = xcalloc(n + 1, sizeof(*lead));
	char **ignored = xcalloc(n + 1, sizeof(*ignored));
	struct strbuf kinds = STRBUF_INIT;
	size_t twins = 0;

	for (size_t i = 0; i < n; i++) {
		flags[i] = seen[i].flags;
		group[i] = (unsigned long)seen[i].pgo;
	}
	gccopt_predicted_leads(lead, ignored, flags, group, n);
	for (size_t i = 0; i < n; i++) {
		if (lead[i] == i)
			continue;
		twins++;
		if (!strstr(strbuf_str(&kinds), ignored[i])) {
			if (kinds.len)
				strbuf_addstr(&kinds, ", ");
			strbuf_addstr(&kinds, ignored[i]);
		}
		free(ignored[i]);
	}
	if (twins)
		printf("note: %zu configuration%s predicted to build the same code as another "
		       "(gcc ignores %s at -Os and -Oz): %s\n", twins,
		       twins == 1 ? " is" : "s are", strbuf_str(&kinds),
		       skip ? "with build.equivalent: skip, they are not built once one such pair, built, confirms it"
			    : "each is built (build.equivalent: skip would build one such pair to check it, not the rest)");
	check_shares(seen, flags, lead, n, skip, share);
	free(flags);
	free(group);
	free(lead);
	free(ignored);
	strbuf_release(&kinds);
}

static void check_overrides(const struct space *sp, uint64_t size, int skip, int share)
{
	struct space_override *o;
	size_t n = space_overrides(&o, sp);
	struct seen *seen;
	size_t groups = 0;

	for (size_t i = 0; i < n; i++) {
		const struct dimension *d = &sp->dims[o[i].dim], *b = &sp->dims[o[i].by_dim];
		if (o[i].by_dim == o[i].dim)
			printf("warning: dimension '%s', value '%s': %s overrides %s\n", d->name,
			       d->values[o[i].value], o[i].by, o[i].flag);
		else
			printf("warning: dimension '%s', value '%s': its %s is overridden by %s of dimension '%s' wherever they meet\n",
			       d->name, d->values[o[i].value], o[i].flag, o[i].by, b->name);
	}
	space_overrides_free(o, n);
	if (size > EQUIV_MAX) {
		char *all = space_size_str(sp, 0);

		printf("note: %s configurations: too many to list those GCC builds alike\n", all);
		free(all);
		return;
	}
	seen = xcalloc((size_t)size + 1, sizeof(*seen));
	for (uint64_t i = 0; i < size; i++) {
		struct config cfg = CONFIG_INIT;
		if (space_config(&cfg, sp, i) < 0)
			break;
		memcpy(seen[i].id, cfg.id, sizeof(seen[i].id));
		seen[i].flags = cfg.flags;
		seen[i].pgo = cfg.pgo == PGO_ON;
		seen[i].index = (size_t)i;
	}
	qsort(seen, (size_t)size, sizeof(*seen), cmp_seen);
	for (size_t i = 0; i < size;) {
		size_t k = i + 1;
		while (k < size && !strcmp(seen[k].id, seen[i].id))
			k++;
		if (k - i > 1) {
			char *canon = gccopt_canonical(seen[i].flags);
			groups++;
			printf("GCC-equivalent (one configuration, %s):", seen[i].id);
			for (size_t m = i; m < k; m++)
				printf(" '%s'%s", seen[m].flags, m + 1 < k ? "," : "");
			printf(" all build '%s'\n", canon);
			free(canon);
		}
		i = k;
	}
	if (groups)
		printf("note: %zu set%s of GCC-equivalent flag strings: each is built and measured once\n",
		       groups, numfmt_s(groups));
	/* One of each id (the first of a set), in the space's order. */
	{
		struct seen *one = xcalloc((size_t)size + 1, sizeof(*one));
		size_t m = 0;

		for (size_t i = 0; i < size; i++) {
			if (m && !strcmp(one[m - 1].id, seen[i].id)) {
				if (seen[i].index < one[m - 1].index)
					one[m - 1] = seen[i];
				continue;
			}
			one[m++] = seen[i]; /* flags stay seen's */
		}
		qsort(one, m, sizeof(*one), cmp_index);
		check_predicted(one, m, skip, share);
		free(one);
	}
	for (size_t i = 0; i < size; i++)
		free(seen[i].flags);
	free(seen);
}

/* The testbeds, their env's names (never a value: it may be a secret)
 * and any ${NAME} this environment does not set. */
static void print_testbeds(const struct study *s)
{
	if (s->ntestbeds == 1 && !s->tbs[0].nenv && !s->deploy.command)
		return;
	printf("testbeds: %zu, lab.mode %s, lab.order %s, quarantine after %u faults, "
	       "a failed deploy after %u boot failures\n", s->ntestbeds,
	       s->lab.mode == LAB_ALL ? "all" : "split",
	       s->lab.order == LAB_BUILDS ? "builds" : "rounds", s->lab.quarantine,
	       s->lab.boot_attempts);
	for (size_t t = 0; t < s->ntestbeds; t++) {
		const struct testbed *tb = &s->tbs[t];
		char *unset = lab_env_unset(tb);

		printf("  %s", tb->name);
		for (size_t k = 0; k < tb->nenv; k++)
			printf("%s%s", k ? ", " : ": env ", tb->env_name[k]);
		printf("\n");
		if (unset)
			printf("warning: testbed '%s' names %s, not set here: a run needs %s\n",
			       tb->name, unset, strchr(unset, ',') ? "them" : "it");
		free(unset);
	}
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "show", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct study s;
	char commit[41], *all, *about;
	uint64_t show = 5, size;
	int c;

	if (cmd_wants_help(argc, argv, check_usage))
		return EXIT_OK;
	optind = 1;
	opterr = 0;
	/* Options before or after the study file, as for run. */
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_u64(&show, optarg) < 0) {
				fprintf(stderr, "tuner: check: --show takes a count, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case ':':
			fprintf(stderr, "tuner: check: %s needs a value\n", argv[optind - 1]);
			return EXIT_USAGE;
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
		cmd_print_error(tn_errmsg());
		return EXIT_USAGE;
	}
	if (run_resolve_source(commit, &s) < 0) {
		cmd_print_error(tn_errmsg());
		study_release(&s);
		return EXIT_USAGE;
	}

	/* Refused as run refuses it, before it lists anything. */
	if (study_check_plan(&s, s.budget, 1) < 0) {
		cmd_print_error(tn_errmsg());
		study_release(&s);
		return EXIT_USAGE;
	}

	size = space_size(&s.space);
	all = space_size_str(&s.space, 0);
	printf("%s: study '%s' is valid\n", s.path, s.name);
	printf("source: %s at %s (%s)%s%s\n", s.source_repo, s.source_rev, commit,
	       *s.source_path ? ", path " : "", s.source_path);
	printf("space: %zu dimension%s, %s configuration%s", s.space.ndims,
	       numfmt_s(s.space.ndims), all, numfmt_s(size));
	about = cmd_about(all);
	printf("%s", about);
	free(about);
	free(all);
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
	if (size > show) {
		all = space_size_str(&s.space, show);
		printf("  ... %s more\n", all);
		free(all);
	}
	check_overrides(&s.space, size, s.skip_equivalent, s.share_profiles);
	if (s.has_uarch && ua_plugin_missing())
		fprintf(stderr, "warning: measure.uarch needs the uarch plugin, %s: tuner run will "
				"refuse this study here\n", ua_plugin_missing());
	else if (s.has_uarch)
		printf("measure: MODELLED by the uarch plugin %s\n", ua_plugin_path());
	if (s.executor_slurm)
		printf("builds: Slurm jobs (partition %s, %s%u CPU%s, memory %s, %u resubmission%s of "
		       "a lost job; docs/cluster.md)\n",
		       s.slurm.partition ? s.slurm.partition : "the default",
		       s.slurm.cpus ? "" : "default ", s.slurm.cpus ? s.slurm.cpus : 1,
		       numfmt_s(s.slurm.cpus ? s.slurm.cpus : 1), s.slurm.mem ? s.slurm.mem : "the default",
		       s.slurm.retries, numfmt_s(s.slurm.retries));
	print_testbeds(&s);
	study_release(&s);
	return EXIT_OK;
}
