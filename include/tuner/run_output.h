/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report: the results of a run for people (a table on a FILE) and for
 * programs (pareto.json; results.csv: run_output_csv.c).
 */
#ifndef TUNER_REPORT_H
#define TUNER_REPORT_H

#include <stdio.h>

#include "tuner/outfmt.h"
#include "tuner/run.h"
#include "tuner/study.h"

/*
 * Prints the Pareto set (all configurations when all is set) as a table,
 * front first, sorted by the first objective. The front column says "*"
 * (on the front) or "~" (on it within noise: tied with the configurations
 * named in the status column). With layout seeds, a column per noisy
 * measured objective gives its measurement and layout spread relative to
 * its value ("0.5% / 2.1%"). Notes under the table say what the front
 * could not see (one sample per configuration; one layout seed). With
 * build.applied, the status column adds "[not applied: FLAGS]" for
 * requested flags that were not in effect in every compile. On the front
 * (all not set), configurations that built the same code are one row,
 * whose status names the others ("[same code: also ID, ID]"); with all,
 * each has its row ("[same code as ID]").
 */
void report_table(FILE *f, const struct study *s, const struct run_result *r, int all);

/*
 * report_table() as GitHub Markdown: the same rows as a table (a header
 * row, a separator row, the same number of cells in every row; flags in
 * code spans, flags and status in columns of their own), then a blank
 * line and the notes as "- " bullet lines.
 */
void report_markdown(FILE *f, const struct study *s, const struct run_result *r, int all);

/*
 * Writes DIR/pareto.json atomically: the study, its objectives (with
 * "noisy": compared under noise), the confidence of the front's tests,
 * the race's counts when raced, the source commit, provenance ("compiler":
 * the first line of $CC --version or null; "host": {name, machine} from
 * uname; "date": the run's end, "2026-12-02T10:00:00Z"), the front and every
 * configuration with status, flags, PGO mode, on_front, tied and
 * tied_with (ids), race ({runs, verdict} or null), objective values
 * (trimmed mean, n, median, sd, min, max, run_sd, layout_sd,
 * layout_seeds), build directories and applied (null when not checked,
 * else {source, builds, lines, note, flags: [{flag, in_effect, overridden,
 * overridden_by, recorded}], not_applied: [flags not in effect in every
 * line]}). 0 or -1 with message.
 */
int report_json(const struct study *s, const struct run_result *r, const char *path);

/* The object report_json() writes, for a caller that prints it or adds to
 * it (`tuner run --format json`). Caller owns the reference (json_decref()). */
struct json_t;
struct json_t *report_json_doc(const struct study *s, const struct run_result *r);

/*
 * Writes a CSV file (RFC 4180 quoting) atomically: one row per
 * configuration with config, flags, pgo, status, on_front, feasible and per
 * objective NAME, NAME_n, NAME_median, NAME_sd, NAME_min, NAME_max; then
 * tied (0/1), tied_with (space-separated ids), race (verdict), runs,
 * per objective NAME_run_sd, NAME_layout_sd, then applied_lines (empty:
 * not checked), not_applied (space-separated flags not in effect in
 * every compiler command line) and same_code_as; last, one column per
 * dimension of the space, in the study's order, named "dim:NAME": the
 * configuration's value of it as the study writes it ("" for the empty
 * value; "off"/"on" for pgo; space_flags_pick()). Columns are only ever
 * added at the end, so that readers by position keep working. Values
 * missing are empty. 0 or -1 with message.
 */
int report_csv(const struct study *s, const struct run_result *r, const char *path);

/* ---- run_output_testbeds.c: the per-testbed breakdown ---- */

/* Whether r has one to show: several testbeds, or a lifecycle (deploys,
 * faults, recoveries, a quarantine). */
int report_has_testbeds(const struct study *s, const struct run_result *r);
/* Each testbed's measurements, deploys, builds that did not boot,
 * recoveries, faults, effect per measured objective (relative to the
 * others, the blocking factor of run.h's struct run_block) and state, as
 * a text or Markdown table with notes; nothing when there is none to
 * show (report_has_testbeds()). */
void report_testbeds(FILE *f, const struct study *s, const struct run_result *r,
		     enum outfmt fmt);
/* The same as a JSON array of {name, measured, failed, deploys,
 * boot_failures, recoveries, faults, reboots, quarantined, effect: {OBJ:
 * {relative, n, p, adjusted}}}. Caller owns the reference. */
struct json_t *report_testbeds_json(const struct study *s, const struct run_result *r);
/* The same as CSV (testbed, measured, failed, deploys, boot_failures,
 * recoveries, faults, reboots, quarantined, then per measured objective
 * NAME_relative, NAME_n, NAME_p, NAME_adjusted), written atomically. 0 or
 * -1 with message. */
int report_testbeds_csv(const struct study *s, const struct run_result *r, const char *path);

#endif
