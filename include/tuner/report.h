/*
 * report: the results of a run for people (a table on a FILE) and for
 * programs (pareto.json).
 */
#ifndef TUNER_REPORT_H
#define TUNER_REPORT_H

#include <stdio.h>

#include "tuner/run.h"
#include "tuner/study.h"

/* Prints the Pareto set (all configurations when all is set) as a table,
 * front first, sorted by the first objective. */
void report_table(FILE *f, const struct study *s, const struct run_result *r, int all);

/*
 * Writes DIR/pareto.json atomically: the study, its objectives, the source
 * commit, the front and every configuration with status, flags, PGO mode,
 * objective values (trimmed mean, n, median, sd, min, max) and build
 * directories. 0 or -1 with message.
 */
int report_json(const struct study *s, const struct run_result *r, const char *path);

/*
 * Writes a CSV file (RFC 4180 quoting) atomically: one row per
 * configuration with config, flags, pgo, status, on_front, feasible and per
 * objective NAME, NAME_n, NAME_median, NAME_sd, NAME_min, NAME_max. Values
 * missing are empty. 0 or -1 with message.
 */
int report_csv(const struct study *s, const struct run_result *r, const char *path);

#endif
