/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numfmt: see include/tuner/numfmt.h */
#include "tuner/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* v rounded to sig significant digits (what %.*e would print). */
static double rounded(double v, int sig)
{
	char tmp[48];

	snprintf(tmp, sizeof(tmp), "%.*e", sig - 1, v);
	return strtod(tmp, NULL);
}

static void format(char *buf, size_t len, double v, int sig, int sign)
{
	static const char *const prefix[] = { "k", "M", "G", "T" };
	const char *plus;
	double r, a;
	int k;

	if (v == 0)
		v = 0; /* no "-0" */
	plus = sign && !signbit(v) ? "+" : "";
	if (sig < 1)
		sig = 1;
	if (sig > 15)
		sig = 15;
	if (isnan(v)) {
		snprintf(buf, len, "?");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sinf", v > 0 ? plus : "-");
		return;
	}
	if (fabs(v) < 1e4 && v == floor(v)) {
		snprintf(buf, len, "%s%.0f", plus, v);
		return;
	}
	r = rounded(v, sig);
	a = fabs(r);
	if (a < 1e4) {
		snprintf(buf, len, "%s%.*g", plus, sig, r);
		return;
	}
	/* 1e4 .. 1e6 in k, then M, G, T by thousands; beyond, e notation. */
	k = a < 1e6 ? 0 : (int)floor(log10(a) / 3) - 1;
	if (k > 3) {
		snprintf(buf, len, "%s%.*e", plus, sig - 1, r);
		return;
	}
	snprintf(buf, len, "%s%.*g %s", plus, sig, r / pow(1e3, k + 1), prefix[k]);
}

void numfmt(char *buf, size_t len, double v, int sig)
{
	format(buf, len, v, sig, 0);
}

void numfmt_signed(char *buf, size_t len, double v, int sig)
{
	format(buf, len, v, sig, 1);
}

void numfmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "p = ?");
	else if (p < 1e-16)
		snprintf(buf, len, "p < 1e-16");
	else if (p < 1e-3)
		snprintf(buf, len, "p = %.1e", p);
	else
		snprintf(buf, len, "p = %.2g", p);
}

const char *numfmt_s(unsigned long n)
{
	return n == 1 ? "" : "s";
}
