/* SPDX-License-Identifier: GPL-2.0-or-later */
/* results: what its files share (results.c, results_json.c). */
#ifndef TUNER_RESULTS_PRIV_H
#define TUNER_RESULTS_PRIV_H

#include "tuner/results.h"

/*
 * Reads the pareto.json at path into out (zeroed by the caller): every
 * field but dir and the picks. 0, or -1 with a message of kind input
 * naming path (and the field); out may hold part of the file then, for
 * results_release().
 */
int results_parse(struct results *out, const char *path);

#endif
