/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner uarch: weigh saved uarch plugin counters, without running again. */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "tuner/journal.h"
#include "tuner/study.h"
#include "tuner/uarch_score.h"
#include "tuner/outfmt.h"
#include "tuner/util.h"

const char uarch_usage[] =
	"usage: tuner uarch (--study STUDY.yaml | --preset NAME) [--set KEY=VALUE]...\n"
	"                   [--csv] FILE|DIR...\n\n"
	"Weighs the counters the uarch plugin saved (a MODEL of a router core's\n"
	"caches and branch predictors) with a modelled core's penalties, without\n"
	"running anything again, and shows where the modelled cycles go.\n\n"
	"FILE is what a measure command printed (a line with packets=N and bytes=B,\n"
	"and the plugin's report), or a report uarch.out.RUN whose packets line is\n"
	"in natbench.stdout.RUN beside it (as targets/natbench/score-uarch.sh\n"
	"leaves them in a build directory), or a kernel model's report\n"
	"model.report.[TESTBED.]RUN whose packets line is the last of\n"
	"measure-TESTBED.log beside it (targets/qemu-linux/model.sh; TESTBED local\n"
	"when not named). DIR is a build directory (each uarch.out.* and\n"
	"model.report.* in it) or a results directory (each of its builds/*/,\n"
	"labelled with the build's flags, PGO and layout seed from its journal).\n\n"
	"For each report: modelled cycles per packet and their split by cause\n"
	"(instructions, L1 I misses, L1 D misses, L2 misses, taken branches,\n"
	"mispredicts, device accesses, fetch groups split at a line end), modelled\n"
	"Mbit/s, and events per packet (with cache maintenance operations).\n\n"
	"  --study S     the penalties and machine of S's measure.uarch\n"
	"  --preset P    a preset's (cortex-a9, bcm47094, 1004k, mt7621, cachegrind)\n"
	"  --set K=V     change one key of the core after that, e.g.\n"
	"                --set l1i_miss=30 --set mispredict=13 (repeatable)\n"
	"  --csv         CSV, one row per report\n"
	"  -h, --help    this text\n\n"
	"A report made for another machine (caches, predictors) than the one\n"
	"chosen is an error: counters of one machine do not describe another.\n"
	"Exit status: 0 every report scored, 1 some could not be, 2 usage.\n";

struct item {
	char *label; /* what to call it */
	char *path;  /* the report (or a whole output) */
};

struct items {
	struct item *v;
	size_t n, alloc;
};

static void add_item(struct items *it, char *label, char *path)
{
	ALLOC_GROW(it->v, it->n + 1, it->alloc);
	it->v[it->n].label = label;
	it->v[it->n++].path = path;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir starting with prefix, sorted; caller frees each and the
 * array. */
static size_t list_dir(char ***out, const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0, alloc = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) || e->d_name[0] == '.')
			continue;
		if (!strcmp(prefix, "uarch.out.") && strchr(e->d_name + strlen(prefix), '.'))
			continue; /* uarch.out.0.lines, .tmp */
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return n;
}

/* Each report of a build directory named kind + RUN, labelled prefix +
 * " run " + RUN. */
static size_t add_reports(struct items *it, const char *dir, const char *prefix,
			  const char *kind)
{
	char **names;
	size_t n = list_dir(&names, dir, kind);

	for (size_t i = 0; i < n; i++) {
		const char *run = names[i] + strlen(kind);

		add_item(it, xasprintf("%s%srun %s", prefix, *prefix ? " " : "", run),
			 xasprintf("%s/%s", dir, names[i]));
		free(names[i]);
	}
	free(names);
	return n;
}

/* Each uarch.out.* (natbench) and model.report.* (the kernel model) of a
 * build directory. */
static size_t add_build_dir(struct items *it, const char *dir, const char *prefix)
{
	return add_reports(it, dir, prefix, "uarch.out.") +
	       add_reports(it, dir, prefix, "model.report.");
}

static size_t add_results_dir(struct items *it, const char *dir)
{
	struct journal *j = NULL;
	char *builds = xasprintf("%s/builds", dir);
	char **keys;
	size_t n = list_dir(&keys, builds, ""), added = 0;

	if (cmd_open_journal_copy(&j, dir) < 0)
		j = NULL; /* label by key */
	for (size_t i = 0; i < n; i++) {
		const struct build_record *b = j ? journal_find_build(j, keys[i]) : NULL;
		char *sub = xasprintf("%s/%s", builds, keys[i]);
		char *label = b ? xasprintf("%s%s seed %u", b->flags && *b->flags ? b->flags : "(none)",
					    b->pgo ? " PGO" : "", b->layout_seed)
				: xstrdup(keys[i]);

		if (is_dir(sub))
			added += add_build_dir(it, sub, label);
		free(label);
		free(sub);
		free(keys[i]);
	}
	free(keys);
	free(builds);
	if (j)
		journal_close(j);
	return added;
}

/* The text to score: the file, and when it has no packets line, for
 * uarch.out.RUN the one of natbench.stdout.RUN beside it, for
 * model.report.SUFFIX the last of the measure log beside it. */
static int load_text(char **out, size_t *len, const char *path)
{
	const char *base = strrchr(path, '/');
	char *text = NULL, *side = NULL, *dir;
	size_t tl = 0, sl = 0;

	if (read_file(&text, &tl, path) < 0)
		return -1;
	base = base ? base + 1 : path;
	if (!strstr(text, "packets=")) {
		dir = path_dirname(path);
		if (!strncmp(base, "uarch.out.", 10)) {
			char *sp = xasprintf("%s/natbench.stdout.%s", dir, base + 10);

			if (read_file(&side, &sl, sp) < 0)
				side = NULL;
			free(sp);
		} else if (!strncmp(base, "model.report.", 13)) {
			side = cmd_kernel_packets_line(dir, base + 13);
		}
		if (side) {
			char *both = xasprintf("%s\n%s", side, text);

			free(text);
			text = both;
			tl = strlen(both);
		}
		free(side);
		free(dir);
	}
	*out = text;
	*len = tl;
	return 0;
}

char *cmd_kernel_packets_line(const char *dir, const char *suffix)
{
	const char *dot = strrchr(suffix, '.');
	char *testbed = dot ? xstrndup(suffix, (size_t)(dot - suffix)) : xstrdup("local");
	char *p = xasprintf("%s/measure-%s.log", dir, testbed), *text = NULL, *line = NULL;
	size_t len;

	if (read_file(&text, &len, p) == 0) {
		const char *at = NULL;

		for (const char *q = text; (q = strstr(q, "packets=")); q++)
			if (q == text || q[-1] == '\n')
				at = q;
		if (at)
			line = xstrndup(at, strcspn(at, "\n"));
	}
	free(text);
	free(p);
	free(testbed);
	return line;
}

static void print_row(const struct ua_score *s, const char *label, int csv)
{
	const struct ua_counters *c = &s->cnt[UA_COUNTED];
	double p = s->packets;
	double mp = (double)(c->mp_direction + c->mp_btb + c->mp_target + c->mp_return);

	if (csv) {
		struct strbuf sb = STRBUF_INIT;

		outfmt_csv_quoted(&sb, label);
		printf("%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,"
		       "%.2f,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
		       strbuf_str(&sb), s->cycles_per_packet, s->c_insn, s->c_l1i, s->c_l1d, s->c_l2, s->c_taken,
		       s->c_mispredict, s->mbps, (double)c->insns / p, (double)c->l1i_miss / p,
		       (double)(c->l1d_read_miss + c->l1d_write_miss) / p,
		       (double)(c->l2i_miss + c->l2d_miss) / p, (double)c->taken / p, mp / p,
		       s->c_io, s->c_fetch, (double)c->io_read / p, (double)c->io_write / p,
		       (double)c->fetch_split / p, (double)c->maint_l1 / p, (double)c->maint_l2 / p);
		strbuf_release(&sb);
		return;
	}
	printf("%s\n", label);
	printf("  cycles/packet %.1f = insns %.1f + L1I %.1f + L1D %.1f + L2 %.1f + taken %.1f"
	       " + mispredicts %.1f + device %.1f + fetch splits %.1f\n",
	       s->cycles_per_packet, s->c_insn, s->c_l1i, s->c_l1d, s->c_l2, s->c_taken,
	       s->c_mispredict, s->c_io, s->c_fetch);
	printf("  Mbit/s %.2f (modelled)   per packet: insns %.1f, L1I misses %.2f, L1D misses %.2f,"
	       " L2 misses %.2f, taken %.1f, mispredicts %.2f (direction %.2f, BTB %.2f, target"
	       " %.2f, return %.2f)\n",
	       s->mbps, (double)c->insns / p, (double)c->l1i_miss / p,
	       (double)(c->l1d_read_miss + c->l1d_write_miss) / p,
	       (double)(c->l2i_miss + c->l2d_miss) / p, (double)c->taken / p, mp / p,
	       (double)c->mp_direction / p, (double)c->mp_btb / p, (double)c->mp_target / p,
	       (double)c->mp_return / p);
	if (c->io_read || c->io_write || c->maint_l1 || c->maint_l2 || c->fetch_groups)
		printf("  per packet: device reads %.2f, writes %.2f; cache maintenance L1 %.2f, L2"
		       " %.2f (lines held %.2f, written back %.2f, dirty dropped %.2f); fetch groups"
		       " %.1f, split %.2f\n",
		       (double)c->io_read / p, (double)c->io_write / p, (double)c->maint_l1 / p,
		       (double)c->maint_l2 / p, (double)c->maint_held / p, (double)c->maint_wb / p,
		       (double)c->maint_drop_dirty / p, (double)c->fetch_groups / p,
		       (double)c->fetch_split / p);
}

/* Applies "KEY=VALUE" to c; 0 or -1 with a message printed. */
static int apply_set(struct ua_config *c, const char *kv, const char *cmd)
{
	char key[64], err[256];
	const char *eq = strchr(kv, '=');

	if (!eq || (size_t)(eq - kv) >= sizeof(key) || eq == kv) {
		fprintf(stderr, "tuner: %s: --set takes KEY=VALUE, not '%s'\n", cmd, kv);
		return -1;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	if (!strcmp(key, "preset")) {
		fprintf(stderr, "tuner: %s: use --preset, not --set preset=\n", cmd);
		return -1;
	}
	if (ua_config_set(c, key, eq + 1, err, sizeof(err)) < 0) {
		fprintf(stderr, "tuner: %s: --set %s\n", cmd, err);
		return -1;
	}
	return 0;
}

int cmd_uarch_option(struct uarch_choice *ch, int c, const char *arg)
{
	switch (c) {
	case 's':
		ch->study = arg;
		return 1;
	case 'p':
		ch->preset = arg;
		return 1;
	case 'S':
		ALLOC_GROW(ch->sets, ch->nsets + 1, ch->alloc);
		ch->sets[ch->nsets++] = arg;
		return 1;
	default:
		return 0;
	}
}

static int choose(struct ua_config *cfg, const char *study, const char *preset,
		  const char *const *sets, size_t nsets, const char *cmd)
{
	char err[256];

	if (!!study == !!preset) {
		fprintf(stderr, "tuner: %s: give one of --study or --preset (see 'tuner %s "
				"--help')\n", cmd, cmd);
		return -1;
	}
	if (study) {
		struct study s;

		if (study_load(&s, study) < 0) {
			cmd_print_error(tn_errmsg());
			return -1;
		}
		if (!s.has_uarch) {
			fprintf(stderr, "tuner: %s: %s has no measure.uarch\n", cmd, study);
			study_release(&s);
			return -1;
		}
		*cfg = s.uarch;
		study_release(&s);
	} else if (ua_config_preset(cfg, preset, err, sizeof(err)) < 0) {
		fprintf(stderr, "tuner: %s: %s\n", cmd, err);
		return -1;
	}
	for (size_t i = 0; i < nsets; i++)
		if (apply_set(cfg, sets[i], cmd) < 0)
			return -1;
	return 0;
}

int cmd_uarch_config(struct ua_config *cfg, struct uarch_choice *ch, const char *cmd)
{
	int r = choose(cfg, ch->study, ch->preset, ch->sets, ch->nsets, cmd);

	free(ch->sets);
	ch->sets = NULL;
	return r;
}

int cmd_uarch(int argc, char **argv)
{
	static const struct option longopts[] = {
		CMD_UARCH_LONGOPTS,
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct uarch_choice ch = { NULL, NULL, NULL, 0, 0 };
	size_t nsets;
	struct items it = { NULL, 0, 0 };
	struct ua_config cfg;
	int csv = 0, c, ret = EXIT_USAGE, failed = 0;

	if (cmd_wants_help(argc, argv, uarch_usage))
		return EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (cmd_uarch_option(&ch, c, optarg))
			continue;
		switch (c) {
		case 'c':
			csv = 1;
			break;
		case ':':
			fprintf(stderr, "tuner: uarch: %s needs a value\n", argv[optind - 1]);
			goto out;
		default:
			fprintf(stderr, "tuner: uarch: unknown option '%s' (see 'tuner uarch --help')\n",
				argv[optind - 1]);
			goto out;
		}
	}
	nsets = ch.nsets;
	if (cmd_uarch_config(&cfg, &ch, "uarch") < 0)
		goto out;
	if (optind == argc) {
		fprintf(stderr, "tuner: uarch: no report given (see 'tuner uarch --help')\n");
		goto out;
	}

	for (int i = optind; i < argc; i++) {
		size_t before = it.n;
		char *builds = xasprintf("%s/builds", argv[i]);

		if (is_dir(builds))
			add_results_dir(&it, argv[i]);
		else if (is_dir(argv[i]))
			add_build_dir(&it, argv[i], argv[i]);
		else
			add_item(&it, xstrdup(argv[i]), xstrdup(argv[i]));
		free(builds);
		if (it.n == before) {
			fprintf(stderr, "tuner: uarch: no uarch report (uarch.out.*, model.report.*) "
					"under '%s'\n", argv[i]);
			ret = EXIT_FAIL;
			goto out;
		}
	}
	if (csv)
		printf("report,cycles,c_insn,c_l1i,c_l1d,c_l2,c_taken,c_mispredict,mbps,insns,"
		       "l1i_misses,l1d_misses,l2_misses,taken,mispredicts,c_io,c_fetch,io_reads,"
		       "io_writes,fetch_splits,maint_l1,maint_l2\n");
	else
		printf("MODELLED (%s%s): penalties insn %g, L1I miss %g, L1D miss %g, L2 miss %g, "
		       "taken %g, mispredict %g, device read %g, write %g, fetch split %g cycles; "
		       "%g MHz\n",
		       cfg.preset, nsets ? " changed" : "", cfg.insn, cfg.l1i_miss, cfg.l1d_miss,
		       cfg.l2_miss, cfg.taken, cfg.mispredict, cfg.io_read, cfg.io_write,
		       cfg.fetch_split, cfg.clock_mhz);
	for (size_t i = 0; i < it.n; i++) {
		struct ua_score sc;
		char *text = NULL;
		size_t len = 0;

		if (load_text(&text, &len, it.v[i].path) < 0 ||
		    ua_score_text(&sc, &cfg, 1, text, len) < 0) {
			fprintf(stderr, "tuner: uarch: %s: %s\n", it.v[i].path, tn_errmsg());
			failed = 1;
		} else {
			print_row(&sc, it.v[i].label, csv);
		}
		free(text);
	}
	ret = failed ? EXIT_FAIL : EXIT_OK;
out:
	for (size_t i = 0; i < it.n; i++) {
		free(it.v[i].label);
		free(it.v[i].path);
	}
	free(it.v);
	free(ch.sets);
	return ret;
}
