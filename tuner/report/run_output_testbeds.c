/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_output_testbeds: the per-testbed breakdown; see include/tuner/run_output.h */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/outfmt.h"
#include "tuner/run_output.h"
#include "tuner/util.h"

int report_has_testbeds(const struct study *s, const struct run_result *r)
{
	if (s->ntestbeds > 1)
		return 1;
	for (size_t t = 0; t < r->ntestbeds; t++) {
		const struct run_testbed *tb = &r->testbeds[t];

		if (tb->deploys || tb->faults || tb->recoveries || tb->boot_failures ||
		    tb->quarantined)
			return 1;
	}
	return 0;
}

/* Testbed t's effect on objective o, as a percentage ("+1.2%"), or "-". */
static void effect_text(char *buf, size_t len, const struct run_result *r, size_t o, size_t t)
{
	const struct run_block *b = &r->block;

	if (!b->shift || isnan(b->p[o]) || !b->n[o * b->ntestbeds + t]) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%+.2f%%", (exp(b->shift[o * b->ntestbeds + t]) - 1) * 100);
}

static const char *state(const struct run_testbed *tb)
{
	return tb->quarantined ? "quarantined" : "ok";
}

void report_testbeds(FILE *f, const struct study *s, const struct run_result *r,
		     enum outfmt fmt)
{
	const char *bullet = fmt == OUTFMT_MD ? "- " : "";
	struct outfmt_table t;
	size_t cols = 8;
	char buf[64];

	if (!report_has_testbeds(s, r) || !r->ntestbeds)
		return;
	for (size_t o = 0; o < s->nobjectives; o++)
		cols += !s->objectives[o].from_size;
	fprintf(f, "\n%sTestbeds (lab.mode %s, lab.order %s):\n%s", fmt == OUTFMT_MD ? "#### " : "",
		s->lab.mode == LAB_ALL ? "all: each measures every build" :
		"split: each measurement on one, a build's runs rotating over them",
		s->lab.order == LAB_BUILDS ? "builds" : "rounds", fmt == OUTFMT_MD ? "\n" : "");
	outfmt_table_init(&t, cols);
	outfmt_cell(&t, "testbed");
	outfmt_cell(&t, "measured");
	outfmt_cell(&t, "failed");
	outfmt_cell(&t, "deploys");
	outfmt_cell(&t, "no boot");
	outfmt_cell(&t, "recovered");
	outfmt_cell(&t, "faults");
	for (size_t o = 0; o < s->nobjectives; o++)
		if (!s->objectives[o].from_size)
			outfmt_cell(&t, "%s vs others", s->objectives[o].name);
	outfmt_cell(&t, "state");
	for (size_t k = 0; k < r->ntestbeds; k++) {
		const struct run_testbed *tb = &r->testbeds[k];

		outfmt_cell(&t, "%s", tb->name);
		outfmt_cell(&t, "%lu", tb->measured);
		outfmt_cell(&t, "%lu", tb->failed);
		outfmt_cell(&t, "%lu", tb->deploys);
		outfmt_cell(&t, "%lu", tb->boot_failures);
		outfmt_cell(&t, "%lu", tb->recoveries);
		outfmt_cell(&t, "%lu", tb->faults);
		for (size_t o = 0; o < s->nobjectives; o++) {
			if (s->objectives[o].from_size)
				continue;
			effect_text(buf, sizeof(buf), r, o, k);
			outfmt_cell(&t, "%s", buf);
		}
		outfmt_cell(&t, "%s", state(tb));
	}
	outfmt_table_print(f, &t, fmt);
	outfmt_table_release(&t);
	if (fmt == OUTFMT_MD)
		fputc('\n', f);
	for (size_t o = 0; o < s->nobjectives && r->block.p; o++) {
		double p = r->block.p[o];
		char *name;

		if (s->objectives[o].from_size || isnan(p))
			continue;
		name = outfmt_text(fmt, s->objectives[o].name);
		if (r->block.adjusted[o])
			fprintf(f, "%s%s: the testbeds differ (p = %.3g): each sample was taken back by "
				"its testbed's effect before the statistics (a blocking factor)\n",
				bullet, name, p);
		else
			fprintf(f, "%s%s: no testbed effect found (p = %.3g): samples pooled as measured\n",
				bullet, name, p);
		free(name);
	}
	for (size_t k = 0; k < r->ntestbeds; k++) {
		char *name, *why;

		if (!r->testbeds[k].quarantined)
			continue;
		name = outfmt_text(fmt, r->testbeds[k].name);
		why = outfmt_text(fmt, r->testbeds[k].why ? r->testbeds[k].why : "");
		fprintf(f, "%s%s was quarantined: %s\n", bullet, name, why);
		free(name);
		free(why);
	}
}

json_t *report_testbeds_json(const struct study *s, const struct run_result *r)
{
	json_t *arr = json_array();

	for (size_t k = 0; k < r->ntestbeds; k++) {
		const struct run_testbed *tb = &r->testbeds[k];
		json_t *o = json_object(), *eff = json_object();

		json_object_set_new(o, "name", json_string(tb->name));
		json_object_set_new(o, "measured", json_integer((json_int_t)tb->measured));
		json_object_set_new(o, "failed", json_integer((json_int_t)tb->failed));
		json_object_set_new(o, "deploys", json_integer((json_int_t)tb->deploys));
		json_object_set_new(o, "boot_failures", json_integer((json_int_t)tb->boot_failures));
		json_object_set_new(o, "recoveries", json_integer((json_int_t)tb->recoveries));
		json_object_set_new(o, "faults", json_integer((json_int_t)tb->faults));
		json_object_set_new(o, "reboots", json_integer((json_int_t)tb->reboots));
		json_object_set_new(o, "quarantined", json_boolean(tb->quarantined));
		for (size_t i = 0; i < s->nobjectives && r->block.p; i++) {
			size_t q = i * r->block.ntestbeds + k;
			json_t *e;

			if (s->objectives[i].from_size)
				continue;
			e = json_object();
			json_object_set_new(e, "relative", isnan(r->block.p[i]) || !r->block.n[q] ?
					    json_null() : json_real(exp(r->block.shift[q]) - 1));
			json_object_set_new(e, "n", json_integer((json_int_t)r->block.n[q]));
			json_object_set_new(e, "p", isnan(r->block.p[i]) ? json_null() :
					    json_real(r->block.p[i]));
			json_object_set_new(e, "adjusted", json_boolean(r->block.adjusted[i]));
			json_object_set_new(eff, s->objectives[i].name, e);
		}
		json_object_set_new(o, "effect", eff);
		json_array_append_new(arr, o);
	}
	return arr;
}

int report_testbeds_csv(const struct study *s, const struct run_result *r, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sb, "testbed,measured,failed,deploys,boot_failures,recoveries,faults,"
		      "reboots,quarantined");
	for (size_t i = 0; i < s->nobjectives; i++)
		if (!s->objectives[i].from_size)
			strbuf_addf(&sb, ",%s_relative,%s_n,%s_p,%s_adjusted", s->objectives[i].name,
				    s->objectives[i].name, s->objectives[i].name,
				    s->objectives[i].name);
	strbuf_addstr(&sb, "\r\n");
	for (size_t k = 0; k < r->ntestbeds; k++) {
		const struct run_testbed *tb = &r->testbeds[k];

		outfmt_csv_field(&sb, tb->name);
		strbuf_addf(&sb, ",%lu,%lu,%lu,%lu,%lu,%lu,%lu,%d", tb->measured, tb->failed,
			    tb->deploys, tb->boot_failures, tb->recoveries, tb->faults, tb->reboots,
			    tb->quarantined);
		for (size_t i = 0; i < s->nobjectives && r->block.p; i++) {
			size_t q = i * r->block.ntestbeds + k;

			if (s->objectives[i].from_size)
				continue;
			if (isnan(r->block.p[i]) || !r->block.n[q])
				strbuf_addf(&sb, ",,%zu,,%d", r->block.n[q], r->block.adjusted[i]);
			else
				strbuf_addf(&sb, ",%.10g,%zu,%.6g,%d", exp(r->block.shift[q]) - 1,
					    r->block.n[q], r->block.p[i], r->block.adjusted[i]);
		}
		strbuf_addstr(&sb, "\r\n");
	}
	ret = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
