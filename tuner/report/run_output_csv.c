/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_output_csv: results.csv (report_csv()); see include/tuner/run_output.h */
#include <math.h>
#include <stdlib.h>

#include "tuner/outfmt.h"
#include "tuner/run_output.h"
#include "tuner/util.h"

static void csv_header(struct strbuf *sb, const char *name, const char *part)
{
	char *h = xasprintf("%s%s", name, part);

	strbuf_addch(sb, ',');
	outfmt_csv_field(sb, h);
	free(h);
}

static void csv_number(struct strbuf *sb, double v)
{
	strbuf_addch(sb, ',');
	if (isfinite(v))
		strbuf_addf(sb, "%.10g", v);
}

/* applied_lines (empty: not checked) and not_applied (space-separated). */
static void csv_applied(struct strbuf *sb, const struct applied *a)
{
	struct strbuf missed = STRBUF_INIT;

	strbuf_addch(sb, ',');
	if (a->checked)
		strbuf_addf(sb, "%u", a->lines);
	strbuf_addch(sb, ',');
	applied_missed_list(&missed, a);
	outfmt_csv_field(sb, strbuf_str(&missed));
	strbuf_release(&missed);
}

/* dim:NAME per dimension: the configuration's value in each (all empty
 * when its flags are not the study space's, which a run's never are). */
static void csv_dims(struct strbuf *sb, const struct space *sp, const struct config_result *cr,
		     size_t *pick)
{
	int found = space_flags_pick(pick, sp, cr->flags, cr->pgo ? PGO_ON : PGO_OFF);

	for (size_t d = 0; d < sp->ndims; d++) {
		strbuf_addch(sb, ',');
		if (found)
			outfmt_csv_field(sb, sp->dims[d].values[pick[d]]);
	}
}

int report_csv(const struct study *s, const struct run_result *r, const char *path)
{
	static const char *const parts[] = { "", "_n", "_median", "_sd", "_min", "_max" };
	static const char *const spread[] = { "_run_sd", "_layout_sd" };
	const struct space *sp = &s->space;
	size_t *pick = xcalloc(sp->ndims + 1, sizeof(*pick));
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sb, "config,flags,pgo,status,on_front,feasible");
	for (size_t i = 0; i < s->nobjectives; i++)
		for (size_t k = 0; k < ARRAY_SIZE(parts); k++)
			csv_header(&sb, s->objectives[i].name, parts[k]);
	/* New columns go after the old ones, so readers by position keep
	 * working. */
	strbuf_addstr(&sb, ",tied,tied_with,race,runs");
	for (size_t i = 0; i < s->nobjectives; i++)
		for (size_t k = 0; k < ARRAY_SIZE(spread); k++)
			csv_header(&sb, s->objectives[i].name, spread[k]);
	strbuf_addstr(&sb, ",applied_lines,not_applied,same_code_as");
	for (size_t d = 0; d < sp->ndims; d++)
		csv_header(&sb, "dim:", sp->dims[d].name);
	strbuf_addstr(&sb, "\r\n");
	for (size_t c = 0; c < r->nconfigs; c++) {
		const struct config_result *cr = &r->configs[c];
		strbuf_addf(&sb, "%s,", cr->id);
		outfmt_csv_field(&sb, cr->flags);
		strbuf_addf(&sb, ",%s,%s,%d,%d", cr->pgo ? "on" : "off", cr->status,
			    cr->on_front, cr->feasible);
		for (size_t i = 0; i < s->nobjectives; i++) {
			const struct summary *sm = &cr->obj[i];
			csv_number(&sb, cr->value[i]);
			strbuf_addf(&sb, ",%zu", sm->n);
			csv_number(&sb, sm->median);
			csv_number(&sb, sm->n ? sm->stddev : NAN);
			csv_number(&sb, sm->min);
			csv_number(&sb, sm->max);
		}
		strbuf_addf(&sb, ",%d,", cr->tied);
		for (size_t k = 0; k < cr->ntied; k++)
			strbuf_addf(&sb, "%s%s", k ? " " : "", cr->tied_with[k]);
		strbuf_addf(&sb, ",%s,", cr->race ? cr->race : "");
		if (cr->race)
			strbuf_addf(&sb, "%u", cr->runs);
		for (size_t i = 0; i < s->nobjectives; i++) {
			csv_number(&sb, cr->spread[i].within_sd);
			csv_number(&sb, cr->spread[i].between_sd);
		}
		csv_applied(&sb, &cr->applied);
		strbuf_addf(&sb, ",%s", cr->same_code_as);
		csv_dims(&sb, sp, cr, pick);
		strbuf_addstr(&sb, "\r\n");
	}
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(pick);
	return ret;
}
