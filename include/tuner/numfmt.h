/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * numfmt: figures for people to read. A few significant digits, large
 * values scaled by thousands with an SI prefix ("141.7 k", "46.33 M"),
 * whole numbers under 10,000 in full ("2202"), no trailing zeros ("12.5"),
 * p-values down to "p < 1e-16". Machine outputs (JSON, CSV, the journal)
 * keep full precision and never use this. Pure; no allocation: every
 * function writes at most len bytes into buf (NUMFMT_LEN is always
 * enough).
 */
#ifndef TUNER_NUMFMT_H
#define TUNER_NUMFMT_H

#include <stddef.h>

#define NUMFMT_LEN 32

/* v to sig significant digits (1..15): "?" for NaN, "inf" / "-inf". */
void numfmt(char *buf, size_t len, double v, int sig);
/* The same with its sign always: "+6.97", "-1.2 k", "+0". */
void numfmt_signed(char *buf, size_t len, double v, int sig);
/* A p-value: "p < 1e-16" under 1e-16 (what doubles can tell from 0),
 * "p = 3.2e-05" under 0.001, else "p = 0.012" (2 significant digits). */
void numfmt_p(char *buf, size_t len, double p);
/* "s" unless n is 1: printf("%lu layout seed%s", n, numfmt_s(n)). */
const char *numfmt_s(unsigned long n);

#endif
