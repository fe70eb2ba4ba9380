/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_output_priv: what run_output.c (the table, Markdown) and
 * run_output_json.c (pareto.json) share. */
#ifndef TUNER_RUN_OUTPUT_PRIV_H
#define TUNER_RUN_OUTPUT_PRIV_H

#include "tuner/study.h"

/* Whether objective o's values come from a model (the cachegrind or uarch
 * parsers), not a measurement: such a unit says MODELLED. */
int report_objective_modelled(const struct objective *o);

#endif
