/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse: the parsers that turn a measure command's stdout into a number.
 *
 *   number       the last number on stdout (decimal or float, e.g. "1.5e3")
 *   iperf3       `iperf3 -J` output: end.sum_received.bits_per_second,
 *                reported in Mbit/s (divided by 1e6)
 *   json:PATH    a number at PATH in a JSON document on stdout; PATH is
 *                dot-separated keys, with [N] for array elements, e.g.
 *                json:end.streams[0].receiver.bits_per_second
 *   cachegrind-model, cachegrind-model:cycles, cachegrind-model:ir,
 *   cachegrind-model:i1-misses
 *                modelled Mbit/s, cycles, instructions or I1 misses per
 *                packet from a workload's packets line and cachegrind's
 *                output file (see cgmodel.h)
 *   uarch-model, uarch-model:cycles, :insns, :l1i-misses, :l1d-misses,
 *   :l2-misses, :mispredicts, :taken
 *                modelled Mbit/s, or cycles or events per packet, from a
 *                workload's packets line and the uarch QEMU plugin's report
 *                (see uarch_score.h)
 *
 * Pure: no I/O.
 */
#ifndef TUNER_PARSE_H
#define TUNER_PARSE_H

#include <stddef.h>

struct cg_model;
struct ua_config;

/* The models some parsers need: NULL members take their defaults (the
 * uarch-model parsers need ua, and check the report's machine against it). */
struct parse_models {
	const struct cg_model *cg;
	const struct ua_config *ua;
};

/* 1 if name is a known parser (json: needs a non-empty, well-formed path). */
int parse_valid(const char *name);

/* Comma-separated list of parser names for messages. Static string. */
const char *parse_names(void);

/* Parses text (len bytes, need not be NUL-terminated; NULL is "") with
 * parser. models (NULL: none) gives the cachegrind-model parsers' cache
 * model (default: its defaults) and the uarch-model parsers' core (needed
 * by them); the other parsers ignore it. 0 with *out set, or -1 with
 * message saying what was missing. */
int parse_value(double *out, const char *parser, const struct parse_models *models,
		  const char *text, size_t len);

#endif
