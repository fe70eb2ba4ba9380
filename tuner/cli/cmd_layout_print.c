/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner layout: the reports (see cmd_layout.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmd_layout.h"
#include "cmd_numbers.h"
#include "tuner/study.h"
#include "tuner/util.h"

static const char *per(const struct layout_build *b)
{
	return b->packets ? "pkt" : "run";
}

void layout_print_model(FILE *f, const struct layout_build *b, const struct cg_model *m)
{
	fprintf(f, "costs: MODELLED by cachegrind's simulated caches, not measured: cycles = Ir"
		   " + %g x (I1mr + D1mr + D1mw) + %g x (ILmr + DLmr + DLmw), over files %s,\n",
		m->l1_miss, m->ll_miss, m->files);
	if (b->packets)
		fprintf(f, "       per packet (%.0f packets a run)\n", b->packets);
	else
		fprintf(f, "       per run (no packets= count beside the cachegrind files)\n");
	fprintf(f, "I1 cache: %u B, %u-way, %u-B lines, %u sets%s\n", b->i1.size, b->i1.assoc,
		b->i1.line, b->sets,
		b->prof.i1.line ? "" : " (assumed: the cachegrind files do not say)");
}

/* Width of the function column: the longest name shown, 8..40. */
static int name_width(const struct layout_delta *rows, size_t n)
{
	size_t w = 8;

	for (size_t i = 0; i < n; i++)
		if (strlen(rows[i].name) > w)
			w = strlen(rows[i].name);
	return (int)(w > 40 ? 40 : w);
}

static void placement(FILE *f, const struct layout_func *x)
{
	if (!x || !x->sym)
		fprintf(f, "  %10s %3s %3s %2s", "-", "", "", "");
	else
		fprintf(f, "  %#10" PRIx64 " %3u %3u %2u", x->addr, x->offset, x->set, x->lines);
}

static void moved(FILE *f, const struct layout_func *a, const struct layout_func *b)
{
	char buf[32];

	if (!a || !b || !a->sym || !b->sym)
		snprintf(buf, sizeof(buf), "?");
	else if (a->addr == b->addr)
		snprintf(buf, sizeof(buf), "=");
	else if (b->addr > a->addr)
		snprintf(buf, sizeof(buf), "+%" PRIu64, b->addr - a->addr);
	else
		snprintf(buf, sizeof(buf), "-%" PRIu64, a->addr - b->addr);
	fprintf(f, " %8s", buf);
}

/* v in a column of width w with prec decimals, or "-" when x is NULL. */
static void cost(FILE *f, int w, int prec, const struct layout_func *x, double v)
{
	if (x)
		fprintf(f, " %*.*f", w, prec, v);
	else
		fprintf(f, " %*s", w, "-");
}

void layout_print_diff(FILE *f, const struct layout_build *a, const struct layout_build *b,
		       const struct layout_diff *d, const struct cg_model *m, size_t top)
{
	double diff = d->total_b - d->total_a;
	size_t shown = d->n < top ? d->n : top;
	int w = name_width(d->rows, shown);
	char pct[32];

	fprintf(f, "A: %s (%s)\nB: %s (%s)\n", a->dir, a->artifact, b->dir, b->artifact);
	layout_print_model(f, a, m);
	if (!a->packets != !b->packets || a->packets != b->packets)
		fprintf(f, "warning: A and B ran different packet counts (%g, %g): the costs do "
			   "not compare\n", a->packets, b->packets);
	if (a->i1.line != b->i1.line || a->sets != b->sets)
		fprintf(f, "warning: B's I1 geometry differs (%u-B lines, %u sets); A's is used "
			   "for moves\n", b->i1.line, b->sets);
	cmd_format_pct(pct, sizeof(pct), d->total_a ? diff / d->total_a : NAN);
	fprintf(f, "total: A %.1f cycles/%s, B %.1f: B - A %+.1f (%s); I1 misses/%s %.2f -> "
		   "%.2f\n", d->total_a, per(a), d->total_b, diff, pct, per(a),
		a->prof.total[CG_I1MR] / (a->packets ? a->packets : 1),
		b->prof.total[CG_I1MR] / (b->packets ? b->packets : 1));
	fprintf(f, "symbols: %zu functions in both artifacts; %zu moved, %zu to another line "
		   "offset, %zu changed size\n\n", d->common, d->moved, d->realigned, d->resized);
	fprintf(f, "%3s  %-*s %6s  %10s %3s %3s %2s  %10s %3s %3s %2s %8s %9s %9s %9s %6s "
		   "%7s %7s\n", "#", w, "function", "size", "A address", "off", "set", "ln",
		"B address", "off", "set", "ln", "moved", "A cycles", "B cycles", "B - A",
		"share", "A I1mr", "B I1mr");
	for (size_t i = 0; i < shown; i++) {
		const struct layout_delta *r = &d->rows[i];
		const struct layout_func *s = r->b && r->b->sym ? r->b : r->a;
		char share[32];

		fprintf(f, "%3zu  %-*.*s", i + 1, w, w, r->name);
		if (s && s->sym)
			fprintf(f, " %6" PRIu64, s->size);
		else
			fprintf(f, " %6s", "-");
		placement(f, r->a);
		placement(f, r->b);
		moved(f, r->a, r->b);
		cost(f, 9, 1, r->a, r->a ? r->a->cycles : 0);
		cost(f, 9, 1, r->b, r->b ? r->b->cycles : 0);
		fprintf(f, " %+9.1f", r->delta);
		if (isfinite(r->share))
			snprintf(share, sizeof(share), "%.0f%%",
				 fabs(r->share) < 0.005 ? 0 : 100 * r->share);
		else
			snprintf(share, sizeof(share), "-");
		fprintf(f, " %6s", share);
		cost(f, 7, 2, r->a, r->a ? r->a->i1mr : 0);
		cost(f, 7, 2, r->b, r->b ? r->b->i1mr : 0);
		fprintf(f, "\n");
	}
	if (shown < d->n)
		fprintf(f, "(%zu more functions; --top N shows more)\n", d->n - shown);
	fprintf(f, "\noff: address mod the %u-byte line; set: the first cache set; ln: lines "
		   "the function spans; cycles per %s; share: of B - A\n", a->i1.line, per(a));
}

/* ---- Study ---- */

static void print_objective(FILE *f, const struct layout_set *set, const struct study *s)
{
	const struct objective *ob = NULL;

	for (size_t i = 0; s && i < s->nobjectives; i++)
		if (!strcmp(s->objectives[i].name, set->objective))
			ob = &s->objectives[i];
	fprintf(f, "objective: %s", set->objective);
	if (ob && *ob->unit)
		fprintf(f, " (%s)", ob->unit);
	if (ob && !strncmp(ob->parser, "cachegrind-model", 16))
		fprintf(f, ", MODELLED (parser %s), not measured", ob->parser);
	else if (ob)
		fprintf(f, ", parser %s", ob->parser);
	else
		fprintf(f, ", as the journal recorded it (natbench's throughput is MODELLED by "
			   "the cachegrind-model parser; --study tells)");
	fprintf(f, "; mean per build\n");
}

/* Prints a class table for e. */
static void print_classes(FILE *f, const struct layout_effect *e, const struct layout_set *set,
			  const struct layout_study_opts *so)
{
	const char *unit = set->builds[0]->packets ? "pkt" : "run";

	fprintf(f, "\n%s: offset mod %u against %s (p %.2g, eta2 %.2f; its own cost: p %.2g)\n",
		e->name, so->modulus, set->objective, e->obj.p, e->obj.eta2, e->own.p);
	char own[32];

	snprintf(own, sizeof(own), "own cycles/%s", unit);
	fprintf(f, "  %6s %6s %5s %14s %14s\n", "offset", "builds", "lines", own, set->objective);
	for (size_t c = 0; c < e->nclasses; c++) {
		const struct layout_class *k = &e->classes[c];

		char off[32];

		snprintf(off, sizeof(off), "+%" PRIu64, k->offset);
		fprintf(f, "  %6s %6zu %5u %14.1f %14.6g\n", off, k->n, k->lines, k->cost,
			k->objective);
	}
}

/* 1 if e[i] is the first (best ranked) of the functions split alike. */
static int first_of_pattern(const struct layout_effect *e, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (e[j].pattern == e[i].pattern)
			return 0;
	return 1;
}

void layout_print_study(FILE *f, const struct layout_set *set,
			const struct layout_effect *e, size_t n,
			const struct layout_study_opts *so, const struct cg_model *m,
			const struct study *s)
{
	size_t patterns = 0, single = 0, untestable = 0, shown = 0, matter = 0;
	const char *unit = set->builds[0]->packets ? "pkt" : "run";
	int w = 8;

	for (size_t i = 0; i < n; i++)
		if (strlen(e[i].name) > (size_t)w)
			w = strlen(e[i].name) > 40 ? 40 : (int)strlen(e[i].name);
	fprintf(f, "results: %s: %zu builds with cachegrind data (of %zu: %zu failed, %zu "
		   "without data, %zu the same code as another, merged)\n", set->results, set->n,
		set->total, set->failed, set->nodata, set->duplicates);
	print_objective(f, set, s);
	if (set->nflags > 1)
		fprintf(f, "note: the builds differ in flags (%zu flag strings): an offset class "
			   "can stand for a flag's other\n      effects; builds that differ only in "
			   "layout (layout seeds, a pad) tell them apart\n", set->nflags);
	layout_print_model(f, set->builds[0], m);
	fprintf(f, "alignment: a function's class is its address mod %u; one-way analysis of "
		   "variance of %s\n", so->modulus, set->objective);
	fprintf(f, "           across each function's classes, over the %zu hottest functions\n\n",
		n);
	fprintf(f, "%4s  %-*s %7s %6s %9s %9s %9s %6s %10s %6s\n", "rank", w, "function",
		"classes", "builds", "F", "p", "q", "eta2", "own range", "alike");
	for (size_t i = 0; i < n; i++) {
		const struct layout_effect *x = &e[i];

		if (!first_of_pattern(e, i))
			continue;
		patterns++;
		if (x->nclasses < 2) {
			single += 1 + x->same;
			continue;
		}
		if (!isfinite(x->obj.p)) {
			untestable += 1 + x->same;
			continue;
		}
		matter += x->q < 0.05;
		fprintf(f, "%4zu  %-*.*s %7zu %6zu %9.3g %9.2g %9.2g %6.3f %10.1f %6zu\n",
			++shown, w, w, x->name, x->nclasses, x->nbuilds, x->obj.f, x->obj.p, x->q,
			x->obj.eta2, x->cost_range, x->same);
	}
	if (single || untestable)
		fprintf(f, "(not tested: %zu function%s at one offset in every build, %zu with no "
			   "builds to spare)\n", single, single == 1 ? "" : "s", untestable);
	fprintf(f, "\nF, p: Fisher's test that %s is the same at every offset; q: "
		   "Benjamini-Hochberg; eta2: share\nof %s's variance the offset explains; own "
		   "range: spread of the function's own modelled cycles/%s\nbetween its offsets; "
		   "alike: functions whose offsets split the builds the same way (confounded)\n",
		set->objective, set->objective, unit);

	for (size_t i = 0, details = 0; i < n && details < 3; i++) {
		const struct layout_effect *x = &e[i];

		if (x->nclasses < 2 || !isfinite(x->obj.p) || (details && x->q >= 0.05))
			continue;
		print_classes(f, x, set, so);
		details++;
	}
	fprintf(f, "\n");
	if (!matter) {
		fprintf(f, "verdict: no function's alignment goes with %s (q >= 0.05 for all %zu "
			   "tested patterns)\n", set->objective, shown);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct layout_effect *x = &e[i];

		if (!first_of_pattern(e, i) || x->nclasses < 2 || !isfinite(x->q) || x->q >= 0.05)
			continue;
		fprintf(f, "verdict: the alignment of %s goes with %s (q %.2g, eta2 %.2f)", x->name,
			set->objective, x->q, x->obj.eta2);
		if (x->same)
			fprintf(f, "; %zu other function%s moved alike: the data cannot tell which",
				x->same, x->same == 1 ? "" : "s");
		fprintf(f, "\n");
	}
}
