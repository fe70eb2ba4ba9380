/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers as the commands write them for people (cmd_numbers.h). */
#include "cmd_numbers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tuner/numfmt.h"
#include "tuner/util.h"

void cmd_format_signed(char *buf, size_t len, double v)
{
	numfmt_signed(buf, len, v, 3);
}

void cmd_format_ps(char *buf, size_t len, double p, double p_rank)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

	numfmt_p(a, sizeof(a), p);
	numfmt_p(b, sizeof(b), p_rank);
	snprintf(buf, len, "%s, ranks %s", a, b);
}

char *cmd_about(const char *dec)
{
	size_t exp = strlen(dec) - 1;
	int two;

	if (strlen(dec) <= 12)
		return xstrdup("");
	two = ((dec[0] - '0') * 100 + (dec[1] - '0') * 10 + (dec[2] - '0') + 5) / 10;
	if (two == 100) {
		two = 10;
		exp++;
	}
	return xasprintf(" (about %d.%de%zu)", two / 10, two % 10, exp);
}

void cmd_format_pct(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "%s", isnan(v) ? "?" : v > 0 ? "+inf%" : "-inf%");
	else
		snprintf(buf, len, "%+.3g%%", 100 * v);
}

void cmd_format_rel(char *buf, size_t len, double rel, double lo, double hi)
{
	char r[32], l[32], h[32];

	cmd_format_pct(r, sizeof(r), rel);
	cmd_format_pct(l, sizeof(l), lo);
	cmd_format_pct(h, sizeof(h), hi);
	snprintf(buf, len, "%s [%s, %s]", r, l, h);
}
