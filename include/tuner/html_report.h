/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_report: the results of one study, or of several studies over one
 * flag space, one per target (results.h: struct results_target), as one
 * self-contained HTML page, report.html: CSS and SVG inline, nothing
 * fetched, a few lines of script that only show a point's or a bar's
 * label on keyboard focus (hover shows each one's <title> without it).
 * The page holds:
 *
 *   - provenance, per target: study, study hash, source commit and tree,
 *     dirty, tuner version, compiler, host, date (struct results), whether
 *     the run completed, the objectives (an objective whose value is a
 *     model's says MODELLED); a column per target when there are several;
 *   - at a glance: per target how many configurations, on the front,
 *     tied, failed, and the front's ends; over several targets the
 *     verdict on one default and the values that change sign;
 *   - the Pareto front of each target (side by side when several;
 *     html_scatter()): x the size-like objective (the one called "size",
 *     else the study's size objective, else the second), y the first
 *     other one; one point per configuration that has both values
 *     (data-config="ID"), class "front" on the front and "front tied" on
 *     it within noise, error bars of +-2 standard errors
 *     (results_value.se: run and layout spread), its flags and values in
 *     its <title>; points that coincide name each other;
 *   - the per-flag effects (section "effects"; results_effects(),
 *     effects.h): per objective a bar chart (html_bars()) of every
 *     non-reference value's effect against its dimension's first value,
 *     in %, with its 95% interval, one bar per target and value
 *     (data-key="OBJECTIVE:TARGET:DIMENSION=VALUE", class "t0", "t1", ...
 *     by target, "unclear" when the interval holds 0), grouped by value
 *     over several targets; then the values whose effect changes sign
 *     between targets (effects_sign_change()) and the interactions
 *     flagged;
 *   - the regret across targets (section "regret"; defaults.h), over two
 *     targets or more: the verdict (defaults_verdict(), within 2%), each
 *     target's best and the common default, and a heat map
 *     (html_heatmap()) of configurations x targets coloured by regret,
 *     each target's best cell marked "best" (class "best"), the common
 *     default's row class "common"; the rows of every configuration
 *     feasible on all targets first, by worst regret, at most 24 of them
 *     and the rows of the targets' bests. With one target, says that it
 *     needs two or more;
 *   - every configuration in a table, per target: front mark, id, flags
 *     (wrapping), PGO, values with sd and n, the layout spread (layout sd
 *     relative to the value, with a bar) where some configuration has
 *     several layout seeds, status;
 *   - what failed and why, per target: status, the logs (build.log, or
 *     each testbed's measure log) and their last lines.
 *
 * Element ids are the sections' ("front", "effects", "regret", "configs",
 * "failures") and rows' ("c-ID", "f-ID"); with several targets those of
 * target i (from 1) are prefixed "tI-".
 */
#ifndef TUNER_HTML_REPORT_H
#define TUNER_HTML_REPORT_H

#include <stddef.h>

#include "tuner/results.h"
#include "tuner/util.h"

/*
 * Appends the page for the n >= 1 targets t to sb. objective (NULL: each
 * target's study's first objective that is not its size, as tuner
 * defaults takes it) is the one the regret ranks by; a target without it
 * is ranked by its default one. Reads the failed configurations' logs; a
 * log that cannot be read is named, not an error. Returns the number of
 * points plotted, over all the targets.
 */
size_t html_report(struct strbuf *sb, const struct results_target *t, size_t n,
		   const char *objective);

/* html_report() written to path atomically. 0, or -1 with a message. */
int html_report_write(const char *path, const struct results_target *t, size_t n,
		      const char *objective);

#endif
