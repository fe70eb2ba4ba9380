/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_predict: build.equivalent: skip. A unit that GCC is predicted to
 * build as an earlier one (gccopt_predicted()) gets that unit as its lead
 * and a prediction; the first pair built checks it; once confirmed, the
 * others are not built but recorded as their lead's build. See
 * run_priv.h.
 */
#include <stdlib.h>
#include <string.h>

#include "tuner/gccopt.h"
#include "tuner/util.h"
#include "run_priv.h"

/* The kinds of the switches in `ignored` (gccopt_kind()), in order. */
static char *ignored_kinds(const char *ignored)
{
	struct strbuf kinds = STRBUF_INIT, kind = STRBUF_INIT, setting = STRBUF_INIT;
	char **w;
	size_t n = gccopt_words(&w, ignored, 0);

	for (size_t i = 0; i < n; i++) {
		gccopt_kind(&kind, &setting, w[i]);
		if (kinds.len)
			strbuf_addch(&kinds, ' ');
		strbuf_addstr(&kinds, strbuf_str(&kind));
	}
	gccopt_words_free(w, n);
	strbuf_release(&kind);
	strbuf_release(&setting);
	return strbuf_detach(&kinds);
}

void run_predict(struct run_ctx *ctx, struct unit *units, size_t n)
{
	const char **flags = xcalloc(n + 1, sizeof(*flags));
	unsigned long *group = xcalloc(n + 1, sizeof(*group));
	size_t *lead = xcalloc(n + 1, sizeof(*lead));
	char **ignored = xcalloc(n + 1, sizeof(*ignored));

	/* Alike only with the same source, layout seed and PGO. */
	for (size_t i = 0; i < n; i++) {
		flags[i] = units[i].cfg.flags;
		group[i] = run_unit_group(ctx, &units[i]) * 2 + (units[i].cfg.pgo == PGO_ON);
	}
	gccopt_predicted_leads(lead, ignored, flags, group, n);
	for (size_t i = 0; i < n; i++) {
		struct unit *u = &units[i];
		char *kinds;
		size_t p;

		if (lead[i] == i)
			continue;
		u->pred_lead = &units[lead[i]];
		u->ignored = ignored[i];
		kinds = ignored_kinds(u->ignored);
		for (p = 0; p < ctx->npreds; p++)
			if (ctx->preds[p].pgo == (u->cfg.pgo == PGO_ON) &&
			    !strcmp(ctx->preds[p].ignored, kinds))
				break;
		if (p == ctx->npreds) {
			ctx->preds = xrealloc(ctx->preds, (p + 1) * sizeof(*ctx->preds));
			memset(&ctx->preds[p], 0, sizeof(*ctx->preds));
			ctx->preds[p].ignored = kinds;
			ctx->preds[p].pgo = u->cfg.pgo == PGO_ON;
			ctx->npreds++;
		} else {
			free(kinds);
		}
		u->pred = p;
	}
	free(flags);
	free(group);
	free(lead);
	free(ignored);
}

/* Whether the journal holds a pair of builds that checks prediction p
 * (under ctx->pred_lock): a unit of p built, not skipped, and its lead
 * built, both fine with known code. One pair with different code
 * refutes p; else one with the same code confirms it. */
static void check_prediction(struct run_ctx *ctx, struct prediction *p)
{
	for (size_t i = 0; i < ctx->nunits && p->state != PRED_REFUTED; i++) {
		const struct unit *u = &ctx->units[i];
		const struct build_record *a, *b;

		if (!u->pred_lead || &ctx->preds[u->pred] != p)
			continue;
		a = journal_find_build(ctx->j, u->key);
		b = journal_find_build(ctx->j, u->pred_lead->key);
		if (!a || !b || a->status != BUILD_OK || b->status != BUILD_OK ||
		    a->same_build[0] || b->same_build[0] || !a->code[0] || !b->code[0])
			continue;
		if (strcmp(a->code, b->code)) {
			p->state = PRED_REFUTED;
		} else if (p->state == PRED_CONFIRMED) {
			continue;
		} else {
			p->state = PRED_CONFIRMED;
		}
		p->twin = u;
		p->lead = u->pred_lead;
	}
}

int run_predict_needed(struct unit *u)
{
	struct run_ctx *ctx = u->ctx;
	struct prediction *p = &ctx->preds[u->pred];
	const struct build_record *lead;
	struct build_record rec;
	enum pred_state st;
	char *log, *note;
	int ret;

	for (;;) {
		pthread_mutex_lock(&ctx->pred_lock);
		if (p->state == PRED_UNCHECKED)
			check_prediction(ctx, p);
		st = p->state;
		if (st == PRED_UNCHECKED && !p->verifying) {
			p->verifying++;
			u->verifying = 1;
		}
		pthread_mutex_unlock(&ctx->pred_lock);
		if (st != PRED_UNCHECKED || u->verifying)
			break;
		if (run_stopped(ctx))
			return -1;
		run_nap();
	}
	if (st != PRED_CONFIRMED)
		return 1;
	if (run_wait_built(u->pred_lead) < 0)
		return -1;
	lead = u->pred_lead->build;
	if (!lead || lead->status != BUILD_OK || !lead->code[0] || !lead->artifact)
		return 1;

	memset(&rec, 0, sizeof(rec));
	memcpy(rec.key, u->key, sizeof(rec.key));
	memcpy(rec.config_id, u->cfg.id, sizeof(rec.config_id));
	rec.layout_seed = u->layout_seed;
	rec.flags = u->cfg.flags;
	rec.pgo = u->cfg.pgo == PGO_ON;
	memcpy(rec.commit, u->src->commit, sizeof(rec.commit));
	memcpy(rec.tree, u->src->tree, sizeof(rec.tree));
	rec.dirty = u->src->dirty;
	rec.status = BUILD_OK;
	rec.size = lead->size;
	rec.dir = u->dir;
	rec.artifact = lead->artifact;
	memcpy(rec.code, lead->code, sizeof(rec.code));
	memcpy(rec.same_build, lead->key, sizeof(rec.same_build));
	rec.ignored = u->ignored;
	/* Its directory says why it holds no build (measure logs go there). */
	log = xasprintf("%s/build.log", u->dir);
	note = xasprintf("== tuner: not built: gcc ignores %s at -Os and -Oz (predicted, and "
			 "confirmed: %s and %s built the same code); this configuration's build "
			 "is the one of %s: %s\n", u->ignored, p->twin->cfg.id, p->lead->cfg.id,
			 u->pred_lead->cfg.id, lead->dir);
	if (remove_tree(u->dir) < 0 || mkdir_p(u->dir) < 0 ||
	    write_file_atomic(log, note, strlen(note)) < 0)
		tn_error_clear(); /* only the note is lost */
	free(log);
	free(note);
	ret = journal_add_build(ctx->j, &rec);
	if (ret < 0) {
		run_fail(ctx);
		return -1;
	}
	u->build = journal_find_build(ctx->j, u->key);
	atomic_fetch_add(&ctx->builds_skipped, 1);
	atomic_store(&u->built, 1);
	return 0;
}

void run_predict_checked(struct unit *u)
{
	struct run_ctx *ctx = u->ctx;

	if (!u->verifying)
		return;
	(void)run_wait_built(u->pred_lead);
	pthread_mutex_lock(&ctx->pred_lock);
	ctx->preds[u->pred].verifying--;
	check_prediction(ctx, &ctx->preds[u->pred]);
	pthread_mutex_unlock(&ctx->pred_lock);
	u->verifying = 0;
}

void run_summarize_predictions(struct run_result *out, struct run_ctx *ctx)
{
	if (!ctx->npreds)
		return;
	out->predictions = xcalloc(ctx->npreds, sizeof(*out->predictions));
	out->npredictions = ctx->npreds;
	for (size_t k = 0; k < ctx->npreds; k++) {
		struct prediction *p = &ctx->preds[k];
		struct run_prediction *r = &out->predictions[k];

		check_prediction(ctx, p);
		r->ignored = xstrdup(p->ignored);
		r->pgo = p->pgo;
		r->checked = p->state == PRED_CONFIRMED ? 1 : p->state == PRED_REFUTED ? -1 : 0;
		if (p->twin) {
			memcpy(r->twin, p->twin->cfg.id, sizeof(r->twin));
			memcpy(r->lead, p->lead->cfg.id, sizeof(r->lead));
		}
		for (size_t i = 0; i < ctx->nunits; i++) {
			const struct unit *u = &ctx->units[i];
			const struct build_record *b;
			if (!u->pred_lead || u->pred != k)
				continue;
			b = journal_find_build(ctx->j, u->key);
			r->skipped += b && b->same_build[0];
		}
	}
}
