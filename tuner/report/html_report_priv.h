/* SPDX-License-Identifier: GPL-2.0-or-later */
/* html_report's private parts: html_report.c (the page, provenance, the
 * plots), html_report_table.c (the tables), html_report_effects.c (the
 * per-flag effects) and html_report_regret.c (the regret across targets). */
#ifndef TUNER_HTML_REPORT_PRIV_H
#define TUNER_HTML_REPORT_PRIV_H

#include <math.h>
#include <string.h>

#include "tuner/defaults.h"
#include "tuner/effects.h"
#include "tuner/html_report.h"

static inline int config_ok(const struct results_config *c)
{
	return !strcmp(c->status, "ok");
}

static inline int config_failed(const struct results_config *c)
{
	return !config_ok(c) && strcmp(c->status, "incomplete");
}

static inline int value_known(const struct results_config *c, int i)
{
	return i >= 0 && c->obj[i].known && isfinite(c->obj[i].value);
}

static inline const char *front_word(const struct results_config *c)
{
	if (!c->on_front)
		return NULL;
	return c->tied ? "tied" : "front";
}

/* One target on the page: pfx prefixes its element ids ("" with one
 * target, "t2-" for the second of several); name is NULL with one target
 * (headings do not name it). */
struct html_tgt {
	const struct results_target *t;
	char pfx[24];
	const char *name;
};

/* The plot's objectives: x size-like, y the first other one; -1: none. */
struct html_axes {
	int x, y;
};
/* Of results r (s: its study, for the size objective). */
struct html_axes html_pick_axes(const struct results *r, const struct study *s);
/* "572.2 Mbit/s" (sig digits), as text (not escaped). */
void html_add_value(struct strbuf *sb, const struct results_objective *o, double v, int sig);
/* The section "front": one plot, or one per target side by side (ax: per
 * target). Returns the points drawn. */
size_t html_report_fronts(struct strbuf *sb, const struct results_target *t, size_t n,
			  const struct html_axes *ax);

/* Every configuration in a table, the front first, then by objective y
 * (best first; y < 0: the first objective). */
void html_report_table(struct strbuf *sb, const struct html_tgt *g, int y);
/* What failed, its status and its logs' last lines. */
void html_report_failures(struct strbuf *sb, const struct html_tgt *g);


/* The per-flag effects of every target, by objective. */
struct html_effects {
	const struct results_target *t;
	size_t n;
	const char **objs;             /* objective names, in the targets' order */
	size_t nobjs;
	struct results_effect_row *rows;
	size_t nrows;
	struct effects *eff;           /* [o * n + t], computed where has[o * n + t] */
	int *has;
};
void html_effects_compute(struct html_effects *e, const struct results_target *t, size_t n);
void html_effects_release(struct html_effects *e);
/* Row r's main effect on target t for objective o, or NULL (no such value
 * there, or no such objective). */
const struct effect_est *html_effect(const struct html_effects *e, size_t o,
				     const struct results_effect_row *r, size_t t);
/* Row r's value (ref: its reference) for people: the flags, "(no DIM)"
 * for "", or "pgo=on" / "pgo=off". Returns buf. */
const char *html_effect_label(char *buf, size_t len, const struct html_effects *e,
			      const struct results_effect_row *r, int ref);
/* Whether row r's effect on objective o changes sign between two targets. */
int html_effect_flips(const struct html_effects *e, size_t o, const struct results_effect_row *r);
/* The effects section. */
void html_report_effects(struct strbuf *sb, const struct html_effects *e);

/* The regret across targets (n >= 2), ranked by each target's objective. */
struct html_regret {
	size_t n;
	struct defaults_target *tg;    /* per target */
	size_t *obj;                   /* per target: the objective's index */
	struct defaults d;
	double within;                 /* the verdict's threshold */
	char *verdict;
};
void html_regret_compute(struct html_regret *g, const struct results_target *t, size_t n,
			 const char *objective);
void html_regret_release(struct html_regret *g);
/* The regret section; g NULL: one target, says it takes two. */
void html_report_regret(struct strbuf *sb, const struct html_regret *g,
			const struct results_target *t, size_t n);

#endif
