/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner defaults: each target's best flags, and one default for all. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_doc.h"
#include "cmd_options.h"
#include "cmd_targets.h"
#include "tuner/defaults.h"
#include "tuner/numfmt.h"
#include "tuner/outfmt.h"
#include "tuner/results.h"
#include "tuner/util.h"

const char defaults_usage[] =
	"usage: tuner defaults STUDY.yaml... [--results DIR]... [--objective NAME]\n"
	"                      [--limit [TARGET:]OBJ<=X|>=X]... [--within PCT]\n"
	"                      [--top N | --all] [--format table|md|json]\n\n"
	"From the results of finished runs of several studies over the same flag\n"
	"space, one per target (a router, a kernel; the target is named after its\n"
	"study), and without building or measuring anything: each target's best\n"
	"configuration under its own limits (the study's objective limits and any\n"
	"--limit), by its first measured objective (or --objective); the regret of\n"
	"every configuration on every target, the relative loss against that\n"
	"target's own best, with a 95% interval from both standard errors; and the\n"
	"common default: of the configurations feasible on every target, the one\n"
	"whose worst regret is smallest (ties: smaller mean regret, fewer flags).\n"
	"Configurations are matched across targets by their id (flags and PGO).\n\n"
	"The verdict says 'one default serves all within X% (worst regret, on T)'\n"
	"when X is under --within, else 'per-target defaults gain Y% on T'. Each\n"
	"target's best and the common default are printed as a line to paste:\n"
	"CONFIG_KERNEL_CFLAGS=\"...\" (PGO, when on, in a comment).\n\n"
	"  --results DIR        a study's results (default results/<study>); give\n"
	"                       it once per study, in the studies' order\n"
	"  --objective NAME     rank by this objective on every target\n"
	"  --limit SPEC         a further limit: OBJ<=X or OBJ>=X on every target\n"
	"                       that has OBJ, TARGET:OBJ<=X on one (repeatable)\n"
	"  --within PCT         the worst regret one default may have to serve all\n"
	"                       (default 2)\n"
	"  --top N              rows of the regret table (default 10)\n"
	"  --all                every configuration in the regret table\n"
	"  --format F           table (default), md (GitHub Markdown) or json (every\n"
	"                       configuration; regrets as fractions, 0.02 = 2%)\n"
	"  -h, --help           this text\n\n"
	"Exit status: 0 done (whatever the verdict), 1 error, 2 bad study file,\n"
	"results or option.\n";

struct limit {
	char *target;       /* malloced; NULL: every target */
	char *objective;    /* malloced */
	int at_most;        /* <=, else >= */
	double x;
};

struct opts {
	struct limit *limits;
	size_t nlimits;
	double within;      /* fraction */
	unsigned top;
	int all;
};

struct ctx {
	struct cmd_targets *ct;
	struct opts *o;
	struct defaults_target *tg;
	size_t *obj;        /* per target: the objective's index */
	struct defaults d;
};

static int parse_limit(struct limit *out, const char *spec)
{
	const char *op = strstr(spec, "<=");
	const char *colon;

	if (!op)
		op = strstr(spec, ">=");
	if (!op || parse_double(&out->x, op + 2) < 0 || !isfinite(out->x))
		return -1;
	out->at_most = op[0] == '<';
	colon = memchr(spec, ':', (size_t)(op - spec));
	out->target = NULL;
	if (colon) {
		out->target = xstrndup(spec, (size_t)(colon - spec));
		spec = colon + 1;
	}
	out->objective = xstrndup(spec, (size_t)(op - spec));
	if (!*out->objective || (out->target && !*out->target)) {
		free(out->target);
		free(out->objective);
		return -1;
	}
	return 0;
}

static int parse_options(struct cmd_targets *ct, struct opts *o, int argc, char **argv)
{
	enum { OPT_LIMIT = 3000, OPT_WITHIN, OPT_TOP, OPT_ALL };
	static const struct option longopts[] = {
		CMD_TARGETS_LONGOPTS,
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ "within", required_argument, NULL, OPT_WITHIN },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "all", no_argument, NULL, OPT_ALL },
		{ NULL, 0, NULL, 0 },
	};
	double pct;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_LIMIT:
			o->limits = xrealloc(o->limits, (o->nlimits + 1) * sizeof(*o->limits));
			if (parse_limit(&o->limits[o->nlimits], optarg) < 0) {
				fprintf(stderr, "tuner: defaults: --limit is [TARGET:]OBJECTIVE<=X or >=X, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			o->nlimits++;
			break;
		case OPT_WITHIN:
			if (parse_double(&pct, optarg) < 0 || !(pct >= 0) || !isfinite(pct)) {
				fprintf(stderr, "tuner: defaults: --within takes a percentage >= 0, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			o->within = pct / 100;
			break;
		case OPT_TOP:
			ret = cmd_count_option(&o->top, "defaults", "--top", optarg, 1000000);
			if (ret)
				return ret;
			break;
		case OPT_ALL:
			o->all = 1;
			break;
		default:
			ret = cmd_targets_option(ct, c, "defaults", argv);
			if (ret)
				return ret > 0 ? ret : EXIT_USAGE;
		}
	}
	return 0;
}

/* The objective of target t: --objective, else the study's first
 * measured one (not the size), else its first. */
static int pick_objective(size_t *out, const struct results_target *t, const char *name)
{
	int i = -1;

	if (name) {
		i = results_objective(&t->res, name);
		if (i < 0) {
			fprintf(stderr, "tuner: defaults: %s (%s) has no objective '%s'\n", t->name,
				t->res.dir, name);
			return EXIT_USAGE;
		}
	}
	for (size_t k = 0; i < 0 && k < t->study.nobjectives; k++)
		if (!t->study.objectives[k].from_size)
			i = results_objective(&t->res, t->study.objectives[k].name);
	if (i < 0 && !t->res.nobjectives) {
		fprintf(stderr, "tuner: defaults: %s (%s) has no objectives\n", t->name, t->res.dir);
		return EXIT_USAGE;
	}
	*out = i < 0 ? 0 : (size_t)i;
	return 0;
}

/* --limit: makes configurations past it infeasible on its targets. */
static int apply_limits(struct ctx *x)
{
	for (size_t l = 0; l < x->o->nlimits; l++) {
		const struct limit *lm = &x->o->limits[l];
		size_t applied = 0;

		for (size_t t = 0; t < x->ct->n; t++) {
			const struct results *r = &x->ct->t[t].res;
			int i;

			if (lm->target && strcmp(lm->target, x->ct->t[t].name))
				continue;
			i = results_objective(r, lm->objective);
			if (i < 0)
				continue;
			applied++;
			for (size_t k = 0; k < r->nconfigs; k++) {
				const struct results_value *v = &r->configs[k].obj[i];

				if (!v->known || (lm->at_most ? v->value > lm->x : v->value < lm->x))
					x->tg[t].configs[k].feasible = 0;
			}
		}
		if (!applied) {
			fprintf(stderr, "tuner: defaults: --limit %s%s%s: %s\n",
				lm->target ? lm->target : "", lm->target ? ":" : "", lm->objective,
				lm->target ? "no such target with that objective" :
				"no target has that objective");
			return EXIT_USAGE;
		}
	}
	return 0;
}

static void format_pct(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%.3g%%", 100 * v);
}

static void format_regret(char *buf, size_t len, const struct defaults_cell *c, int best)
{
	char r[32], lo[32], hi[32];

	switch (c->state) {
	case DEFAULTS_MISSING:
		snprintf(buf, len, "missing");
		return;
	case DEFAULTS_UNKNOWN:
		snprintf(buf, len, "no value");
		return;
	case DEFAULTS_INFEASIBLE:
		snprintf(buf, len, "over a limit");
		return;
	case DEFAULTS_OK:
		break;
	}
	if (best) {
		snprintf(buf, len, "0 (its best)");
		return;
	}
	format_pct(r, sizeof(r), c->regret);
	format_pct(lo, sizeof(lo), c->lo);
	format_pct(hi, sizeof(hi), c->hi);
	if (isfinite(c->regret))
		snprintf(buf, len, "%s [%s, %s]", r, lo, hi);
	else
		snprintf(buf, len, "?");
}

static const struct defaults_config *best_of(const struct ctx *x, size_t t)
{
	return x->d.best[t] < 0 ? NULL : &x->tg[t].configs[x->d.best[t]];
}

/* The line a maintainer pastes: flags quoted for the shell. */
static char *paste_line(const char *flags, int pgo)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "CONFIG_KERNEL_CFLAGS=\"");
	for (const char *p = flags; *p; p++) {
		if (strchr("\"\\$`", *p))
			strbuf_addch(&sb, '\\');
		strbuf_addch(&sb, *p);
	}
	strbuf_addch(&sb, '"');
	if (pgo)
		strbuf_addstr(&sb, "  # and PGO on: build with a profile, as the study's train command made it");
	return strbuf_detach(&sb);
}

static const char *objective_name(const struct ctx *x, size_t t)
{
	return x->ct->t[t].res.objectives[x->obj[t]].name;
}

static void print_bests(const struct ctx *x, enum outfmt fmt)
{
	struct outfmt_table tb;

	outfmt_table_init(&tb, 5);
	outfmt_cell(&tb, "target");
	outfmt_cell(&tb, "best");
	outfmt_cell(&tb, "objective");
	outfmt_cell(&tb, "value ± se");
	outfmt_cell(&tb, "flags");
	for (size_t t = 0; t < x->ct->n; t++) {
		const struct defaults_config *b = best_of(x, t);
		const struct results_objective *ob = &x->ct->t[t].res.objectives[x->obj[t]];
		char v[NUMFMT_LEN], se[NUMFMT_LEN];

		outfmt_cell(&tb, "%s", x->ct->t[t].name);
		if (!b) {
			outfmt_cell(&tb, "-");
			outfmt_cell(&tb, "%s (%s)", ob->name, ob->maximize ? "max" : "min");
			outfmt_cell(&tb, "-");
			outfmt_cell(&tb, "(no feasible configuration with a value)");
			continue;
		}
		numfmt(v, sizeof(v), b->value, 4);
		numfmt(se, sizeof(se), isnan(b->se) ? 0 : b->se, 2);
		outfmt_cell(&tb, "%s", b->id);
		outfmt_cell(&tb, "%s (%s)", ob->name, ob->maximize ? "max" : "min");
		outfmt_cell(&tb, "%s ±%s%s%s", v, se, *ob->unit ? " " : "", ob->unit);
		cmd_flags_cell(&tb, b->flags, b->pgo);
	}
	outfmt_table_print(stdout, &tb, fmt);
	outfmt_table_release(&tb);
}

static void print_regrets(const struct ctx *x, enum outfmt fmt)
{
	size_t n = x->ct->n, candidates = 0, shown = 0, limit;
	struct outfmt_table tb;

	for (size_t k = 0; k < x->d.nrows; k++)
		candidates += (size_t)x->d.rows[k].candidate;
	limit = x->o->all ? x->d.nrows : x->o->top < candidates ? x->o->top : candidates;
	printf("%sregret: the loss against each target's own best, 95%% intervals; %zu of %zu configuration%s feasible on every target%s\n%s",
	       fmt == OUTFMT_MD ? "\n" : "\n", candidates, x->d.nrows, numfmt_s(x->d.nrows),
	       x->o->all ? "" : ", the best shown by worst regret", fmt == OUTFMT_MD ? "\n" : "");
	outfmt_table_init(&tb, 4 + n);
	outfmt_cell(&tb, "config");
	outfmt_cell(&tb, "flags");
	for (size_t t = 0; t < n; t++)
		outfmt_cell(&tb, "%s", x->ct->t[t].name);
	outfmt_cell(&tb, "worst");
	outfmt_cell(&tb, "mean");
	for (size_t k = 0; k < x->d.nrows && shown < limit; k++, shown++) {
		const struct defaults_row *r = &x->d.rows[k];
		char w[32], m[32];

		outfmt_cell(&tb, "%s%s", r->id, (long)k == x->d.common ? " (default)" : "");
		cmd_flags_cell(&tb, r->flags, r->pgo);
		for (size_t t = 0; t < n; t++) {
			const struct defaults_config *b = best_of(x, t);
			char cell[128];

			format_regret(cell, sizeof(cell), &r->cells[t], b && !strcmp(b->id, r->id));
			outfmt_cell(&tb, "%s", cell);
		}
		format_pct(w, sizeof(w), r->worst);
		format_pct(m, sizeof(m), r->mean);
		outfmt_cell(&tb, "%s%s%s", r->candidate ? w : "-", r->candidate ? " on " : "",
			    r->candidate ? x->ct->t[r->worst_target].name : "");
		outfmt_cell(&tb, "%s", r->candidate ? m : "-");
	}
	outfmt_table_print(stdout, &tb, fmt);
	outfmt_table_release(&tb);
	if (shown < x->d.nrows)
		printf("%s(%zu more; --all lists every configuration)\n",
		       fmt == OUTFMT_MD ? "\n" : "", x->d.nrows - shown);
}

static void print_paste(const struct ctx *x, enum outfmt fmt)
{
	const struct defaults_row *c = x->d.common >= 0 ? &x->d.rows[x->d.common] : NULL;

	struct strbuf sb = STRBUF_INIT;

	for (size_t t = 0; t < x->ct->n; t++) {
		const struct defaults_config *b = best_of(x, t);
		char *name = cmd_one_line(x->ct->t[t].name), *line;

		if (!b) {
			strbuf_addf(&sb, "# %s: no feasible configuration with a value\n", name);
			free(name);
			continue;
		}
		char *oname = cmd_one_line(objective_name(x, t));

		line = paste_line(b->flags, b->pgo);
		strbuf_addf(&sb, "# %s: its best by %s\n%s\n", name, oname, line);
		free(line);
		free(name);
		free(oname);
	}
	if (c) {
		char *line = paste_line(c->flags, c->pgo);
		char *name = cmd_one_line(x->ct->t[c->worst_target].name);
		char w[32];

		format_pct(w, sizeof(w), c->worst);
		strbuf_addf(&sb, "# common default (every target): worst regret %s, on %s\n%s\n", w,
			    name, line);
		free(line);
		free(name);
	}
	/* A fence no flag can end (outfmt_md_block). */
	if (fmt == OUTFMT_MD) {
		char *block = outfmt_md_block("sh", strbuf_str(&sb));

		printf("\n%s", block);
		free(block);
	} else {
		printf("\n%s", strbuf_str(&sb));
	}
	strbuf_release(&sb);
}

/* Whether target t's values carry a noise estimate: some standard error
 * above 0. Without one (one sample each, one layout seed: a deterministic
 * model, say) every interval is 0 wide and says nothing of layout luck. */
static int has_noise(const struct ctx *x, size_t t)
{
	for (size_t k = 0; k < x->tg[t].nconfigs; k++)
		if (x->tg[t].configs[k].se > 0)
			return 1;
	return 0;
}

static void print_text(const struct ctx *x, enum outfmt fmt)
{
	const struct defaults_row *c = x->d.common >= 0 ? &x->d.rows[x->d.common] : NULL;
	char *verdict = defaults_verdict(&x->d, x->tg, x->o->within);
	char within[32];

	format_pct(within, sizeof(within), x->o->within);
	printf("%sdefaults over %zu target%s: each one's best under its own limits\n%s",
	       fmt == OUTFMT_MD ? "### " : "", x->ct->n, numfmt_s(x->ct->n),
	       fmt == OUTFMT_MD ? "\n" : "");
	print_bests(x, fmt);
	printf("\n");
	if (c) {
		char w[32], lo[32], hi[32], m[32];

		format_pct(w, sizeof(w), c->worst);
		format_pct(lo, sizeof(lo), c->cells[c->worst_target].lo);
		format_pct(hi, sizeof(hi), c->cells[c->worst_target].hi);
		format_pct(m, sizeof(m), c->mean);
		char *flags = cmd_flags_text(c->flags, fmt);
		char *name = outfmt_text(fmt, x->ct->t[c->worst_target].name);

		printf("common default: %s %s%s (worst regret %s [%s, %s] on %s, mean %s)\n%s",
		       c->id, flags, c->pgo ? " + PGO" : "", w, lo, hi, name, m,
		       fmt == OUTFMT_MD ? "\n" : "");
		free(flags);
		free(name);
	}
	printf("verdict: %s (threshold %s, --within)\n", verdict, within);
	for (size_t t = 0; t < x->ct->n; t++) {
		char *name;

		if (has_noise(x, t))
			continue;
		name = outfmt_text(fmt, x->ct->t[t].name);
		printf("%snote: %s has no noise estimate (one sample per configuration, one "
		       "layout seed): its intervals are 0 wide and hold no layout luck; "
		       "layout.samples >= 2 measures it\n", fmt == OUTFMT_MD ? "\n" : "", name);
		free(name);
	}
	free(verdict);
	print_regrets(x, fmt);
	print_paste(x, fmt);
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *config_json(const char *id, const char *flags, int pgo)
{
	json_t *o = json_object();
	char *line = paste_line(flags, 0);

	json_object_set_new(o, "config", json_string(id));
	json_object_set_new(o, "flags", json_string(flags));
	json_object_set_new(o, "pgo", json_string(pgo ? "on" : "off"));
	json_object_set_new(o, "line", json_string(line));
	free(line);
	return o;
}

static void print_json(const struct ctx *x)
{
	static const char *const states[] = { "ok", "missing", "no value", "over a limit" };
	json_t *root = json_object(), *targets = json_array(), *rows = json_array(), *common;
	char *verdict = defaults_verdict(&x->d, x->tg, x->o->within);

	for (size_t t = 0; t < x->ct->n; t++) {
		const struct results_target *rt = &x->ct->t[t];
		const struct results_objective *ob = &rt->res.objectives[x->obj[t]];
		const struct defaults_config *b = best_of(x, t);
		json_t *j = json_object(), *best = json_null();

		json_object_set_new(j, "name", json_string(rt->name));
		json_object_set_new(j, "study", json_string(rt->study.path));
		json_object_set_new(j, "results", json_string(rt->res.dir));
		json_object_set_new(j, "objective", json_string(ob->name));
		json_object_set_new(j, "unit", json_string(ob->unit));
		json_object_set_new(j, "goal", json_string(ob->maximize ? "max" : "min"));
		if (b) {
			best = config_json(b->id, b->flags, b->pgo);
			json_object_set_new(best, "value", num(b->value));
			json_object_set_new(best, "se", num(b->se));
		}
		json_object_set_new(j, "best", best);
		json_object_set_new(j, "noise_estimated", json_boolean(has_noise(x, t)));
		json_array_append_new(targets, j);
	}
	for (size_t k = 0; k < x->d.nrows; k++) {
		const struct defaults_row *r = &x->d.rows[k];
		json_t *j = config_json(r->id, r->flags, r->pgo), *cells = json_object();

		json_object_set_new(j, "candidate", json_boolean(r->candidate));
		json_object_set_new(j, "worst", num(r->worst));
		json_object_set_new(j, "worst_target", r->candidate ?
				    json_string(x->ct->t[r->worst_target].name) : json_null());
		json_object_set_new(j, "mean", num(r->mean));
		for (size_t t = 0; t < x->ct->n; t++) {
			const struct defaults_cell *c = &r->cells[t];
			json_t *cj = json_object();

			json_object_set_new(cj, "state", json_string(states[c->state]));
			json_object_set_new(cj, "regret", num(c->regret));
			json_object_set_new(cj, "lo", num(c->lo));
			json_object_set_new(cj, "hi", num(c->hi));
			json_object_set_new(cells, x->ct->t[t].name, cj);
		}
		json_object_set_new(j, "targets", cells);
		json_array_append_new(rows, j);
	}
	if (x->d.common >= 0) {
		const struct defaults_row *c = &x->d.rows[x->d.common];

		common = config_json(c->id, c->flags, c->pgo);
		json_object_set_new(common, "worst", num(c->worst));
		json_object_set_new(common, "worst_target",
				    json_string(x->ct->t[c->worst_target].name));
		json_object_set_new(common, "mean", num(c->mean));
	} else {
		common = json_null();
	}
	json_object_set_new(root, "targets", targets);
	json_object_set_new(root, "within", json_real(x->o->within));
	json_object_set_new(root, "common", common);
	json_object_set_new(root, "serves_all", json_boolean(defaults_serves_all(&x->d,
										  x->o->within)));
	json_object_set_new(root, "verdict", json_string(verdict));
	json_object_set_new(root, "regret", rows);
	cmd_print_json(root);
	free(verdict);
}

int cmd_defaults(int argc, char **argv)
{
	struct cmd_targets ct = CMD_TARGETS_INIT;
	struct opts o = { .within = 0.02, .top = 10 };
	struct ctx x = { .ct = &ct, .o = &o };
	int ret;

	if (cmd_wants_help(argc, argv, defaults_usage))
		return EXIT_OK;
	ret = parse_options(&ct, &o, argc, argv);
	if (!ret)
		ret = cmd_targets_load(&ct, argc, argv, "defaults");
	if (ret)
		goto out;
	x.tg = xcalloc(ct.n, sizeof(*x.tg));
	x.obj = xcalloc(ct.n, sizeof(*x.obj));
	for (size_t t = 0; t < ct.n; t++) {
		ret = pick_objective(&x.obj[t], &ct.t[t], ct.objective);
		if (ret)
			goto out;
		results_defaults_target(&x.tg[t], &ct.t[t].res, ct.t[t].name, x.obj[t]);
	}
	ret = apply_limits(&x);
	if (ret)
		goto out;
	defaults_compute(&x.d, x.tg, ct.n);
	if (ct.fmt == OUTFMT_JSON)
		print_json(&x);
	else
		print_text(&x, ct.fmt);
out:
	defaults_release(&x.d);
	for (size_t t = 0; x.tg && t < ct.n; t++)
		free(x.tg[t].configs);
	free(x.tg);
	free(x.obj);
	for (size_t l = 0; l < o.nlimits; l++) {
		free(o.limits[l].target);
		free(o.limits[l].objective);
	}
	free(o.limits);
	cmd_targets_release(&ct);
	return ret;
}
