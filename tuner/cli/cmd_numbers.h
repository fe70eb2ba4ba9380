/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers as the commands write them for people (numfmt.h does the digits). */
#ifndef TUNER_CMD_NUMBERS_H
#define TUNER_CMD_NUMBERS_H

/* Signed values, percentages, a comparison's interval, a test's p-values,
 * a count too long to read. */

#include <stddef.h>

/* Writes v signed, 3 significant digits (numfmt.h: "+12.5", "-0.03",
 * "+10 k"; "?", "+inf"). */
void cmd_format_signed(char *buf, size_t len, double v);
/* Writes a test's two p-values: "p = 0.001, ranks p = 0.002",
 * "p < 1e-16, ranks p = 0.0079" (numfmt_p()). */
void cmd_format_ps(char *buf, size_t len, double p, double p_rank);
/* " (about 1.2e21)": an exact decimal count dec of more than 12 digits,
 * to two significant digits; "" for a shorter one. Caller frees. */
char *cmd_about(const char *dec);
/* Writes a fraction as a signed percentage ("+2.31%"; "?", "+inf%"). */
void cmd_format_pct(char *buf, size_t len, double v);
/*
 * Writes "REL [LO, HI]" of a comparison (percentages of A, e.g.
 * "-2.31% [-2.9%, -1.72%]"), "?" where not finite, into buf.
 */
void cmd_format_rel(char *buf, size_t len, double rel, double lo, double hi);

#endif
