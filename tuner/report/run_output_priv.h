/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_priv: what report.c and report_testbeds.c share, private to the
 * report module.
 */
#ifndef TUNER_REPORT_PRIV_H
#define TUNER_REPORT_PRIV_H

#include "tuner/util.h"

/* Appends v to sb as one CSV field (RFC 4180: quoted, with its quotes
 * doubled, when it holds a comma, a quote or a line break). */
void report_csv_field(struct strbuf *sb, const char *v);

#endif
