/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uarch_score: the `uarch-model` parsers. They turn the raw counters the
 * uarch QEMU plugin wrote (uarch.h, ua_report_write()) into MODELLED
 * cycles per packet and Mbit/s, with the study's penalties
 * (measure.uarch). Penalties live here, not in the plugin, so a study can
 * weigh the same counters differently without running anything again
 * (`tuner uarch` re-scores saved reports).
 *
 * Input (a measure command's stdout): one line holding the tokens
 * `packets=N` and `bytes=B` (what the workload forwarded; the first such
 * line counts), and one whole report: "uarch-report 1", "arch", "config",
 * the regions' counters, "end". Only the counted region is scored (the
 * fast path, or the kernel). The report's config line must equal the
 * machine the study asks for (ua_config_machine()), which catches a
 * measure command that did not pass $TUNER_UARCH to the plugin.
 *
 *   cycles = insn * insns
 *          + l1i_miss * l1i_miss + l1d_miss * (l1d_read_miss + l1d_write_miss)
 *          + l2_miss * (l2i_miss + l2d_miss)
 *          + taken * taken
 *          + mispredict * (mp_direction + mp_btb + mp_target + mp_return)
 *          + io_read * io_read + io_write * io_write
 *          + fetch_split * fetch_split
 *
 * (the left of each product is the penalty, the right the counter). An L2
 * miss is also an L1 miss: it costs the L1 penalty plus l2_miss.
 * Write-backs cost nothing (write buffers). Mbit/s = bytes * 8 *
 * clock_mhz / cycles.
 *
 * Cache maintenance operations cost what they are (instructions), and
 * what they do to the caches shows in the misses after them.
 *
 * Parser names: uarch-model (Mbit/s), and per packet uarch-model:cycles,
 * :insns, :l1i-misses, :l1d-misses, :l2-misses, :mispredicts, :taken,
 * :io (device accesses), :fetch-splits.
 */
#ifndef TUNER_UARCH_SCORE_H
#define TUNER_UARCH_SCORE_H

#include <stddef.h>

#include "uarch/uarch.h"

/* Modelled cycles by cause, and their sum. */
struct ua_cost {
	double insn, l1i, l1d, l2, taken, mispredict, io, fetch;
	double total;
};

/* The formula above applied to counters c with cfg's penalties (scaled by
 * 1/per: per packet, or 1). Pure. */
void ua_cost_of(struct ua_cost *out, const struct ua_config *cfg, const struct ua_counters *c,
		double per);

struct ua_score {
	double packets, bytes;
	char arch[32];
	struct ua_counters cnt[UA_NREGIONS];
	/* Cycles per packet by cause, and the sum. */
	double c_insn, c_l1i, c_l1d, c_l2, c_taken, c_mispredict, c_io, c_fetch;
	double cycles_per_packet;
	double mbps;
};

/*
 * Scores text (len bytes, need not be NUL-terminated; NULL is ""). cfg
 * gives the penalties and the machine the report must have been made
 * with (NULL machine check: pass check_machine 0). 0 with *out filled, or
 * -1 with a one-line message starting "uarch-model: ". Pure: allocates
 * nothing the caller frees.
 */
int ua_score_text(struct ua_score *out, const struct ua_config *cfg, int check_machine,
		  const char *text, size_t len);

/* 1 if name is one of the uarch-model parser names. */
int ua_score_parser_valid(const char *name);
/* The value a parser name selects; NaN for another name. */
double ua_score_value(const struct ua_score *s, const char *parser);

/*
 * Where the plugin is: $TUNER_UARCH_PLUGIN when it is set (NULL if that
 * file cannot be read), else tuner-uarch.so beside the running tuner
 * binary (build/VARIANT/), else ../lib/tuner/ from it (make install). NULL
 * when none exists. A static string, computed once, not to be freed;
 * thread-safe.
 */
const char *ua_plugin_path(void);
/*
 * Why ua_plugin_path() is NULL, to follow "needs the uarch plugin, " in a
 * message: what TUNER_UARCH_PLUGIN names cannot be read, or where none
 * was found; NULL when the plugin is found. A static string, not to be
 * freed; thread-safe.
 */
const char *ua_plugin_missing(void);

#endif
