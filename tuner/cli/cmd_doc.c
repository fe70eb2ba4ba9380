/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the measuring commands share for --format (cmd_doc.h). */
#include "cmd_doc.h"

#include <math.h>
#include <stdio.h>

#include "tuner/util.h"

json_t *cmd_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

double cmd_json_get_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

void cmd_print_json(json_t *root)
{
	json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', stdout);
	json_decref(root);
}

json_t *cmd_test_json(const struct stats_test *t, int significant)
{
	json_t *o = json_object();

	json_object_set_new(o, "diff", cmd_json_num(t->diff));
	json_object_set_new(o, "diff_lo", cmd_json_num(t->diff_lo));
	json_object_set_new(o, "diff_hi", cmd_json_num(t->diff_hi));
	json_object_set_new(o, "rel", cmd_json_num(t->rel));
	json_object_set_new(o, "rel_lo", cmd_json_num(t->rel_lo));
	json_object_set_new(o, "rel_hi", cmd_json_num(t->rel_hi));
	json_object_set_new(o, "p", cmd_json_num(t->p));
	json_object_set_new(o, "p_rank", cmd_json_num(t->p_rank));
	json_object_set_new(o, "units_a", json_integer((json_int_t)t->na));
	json_object_set_new(o, "units_b", json_integer((json_int_t)t->nb));
	json_object_set_new(o, "significant", json_boolean(significant));
	return o;
}

char *cmd_flags_text(const char *flags, enum outfmt fmt)
{
	if (!*flags)
		return xstrdup("(no flags)");
	return fmt == OUTFMT_MD ? outfmt_md_code(flags) : xstrdup(flags);
}

char *cmd_one_line(const char *s)
{
	char *out = xstrdup(s);

	for (char *p = out; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return out;
}

char *cmd_objective_label(const char *name, const char *unit, int maximize, enum outfmt fmt)
{
	char *n = outfmt_text(fmt, name), *u = outfmt_text(fmt, unit);
	char *label = xasprintf("%s%s%s%s (%s)", n, *u ? " [" : "", u, *u ? "]" : "",
				maximize ? "max" : "min");

	free(n);
	free(u);
	return label;
}

void cmd_flags_cell(struct outfmt_table *tb, const char *flags, int pgo)
{
	if (*flags)
		outfmt_code_cell(tb, flags, pgo ? " + PGO" : NULL);
	else
		outfmt_cell(tb, "(no flags)%s", pgo ? " + PGO" : "");
}

const char *cmd_bullet(enum outfmt fmt)
{
	return fmt == OUTFMT_MD ? "- " : "";
}
