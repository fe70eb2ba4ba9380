/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgmodel: the `cachegrind-model` parsers. A deterministic model of a
 * router's CPU caches, not a measurement: counts from valgrind's cachegrind
 * (run with the target's cache geometry, e.g. a Cortex-A9's 32 KB 4-way
 * 32 B-line L1s and a 512 KB 8-way PL310 L2) are turned into modelled
 * cycles per packet and modelled Mbit/s.
 *
 * Input (a measure command's stdout): one line holding the tokens
 * `packets=N` and `bytes=B` (what the workload forwarded; the first such
 * line counts, before or after the rest), and the whole content of one
 * cachegrind output file as valgrind writes it (`desc:`/`cmd:` header,
 * `events:` line, `fl=` file and `fn=` function blocks of "LINE c1 c2 ..."
 * count lines, `summary:` line). The column of each event comes from the
 * `events:` line; trailing counts left out are 0. Only the counts of files
 * whose base name matches model->files (fnmatch) are used: the fast path,
 * not the traffic generator or libc.
 *
 * The file must be whole: the counts of all files must add up to its
 * summary line, which catches output cut short (the runner caps captured
 * stdout at 1 MiB) or two outputs mixed. Before the `events:` line the
 * workload may print anything; after it, a line starting with a digit must
 * be a count line. Errors are one line starting "cachegrind-model: ".
 *
 *   cycles = Ir + l1_miss * (I1mr + D1mr + D1mw)
 *               + ll_miss * (ILmr + DLmr + DLmw)
 *
 * An LL miss is also an L1 miss, so it costs l1_miss + ll_miss in all.
 * Mbit/s = bytes * 8 * clock_mhz / cycles.
 *
 * Parser names: `cachegrind-model` (modelled Mbit/s),
 * `cachegrind-model:cycles` (cycles per packet), `cachegrind-model:ir`
 * (instructions per packet), `cachegrind-model:i1-misses` (I1 misses per
 * packet). Pure: no I/O.
 */
#ifndef TUNER_CGMODEL_H
#define TUNER_CGMODEL_H

#include <stddef.h>

struct cg_model {
	double l1_miss;   /* cycles added by an L1 miss that hits L2 */
	double ll_miss;   /* cycles added by an L2 (LL) miss: DRAM */
	double clock_mhz; /* core clock */
	char *files;      /* fnmatch pattern on a file's base name; malloced */
};

/* Defaults (study.h, measure.model, says where the numbers come from). */
#define CG_MODEL_L1_MISS 12.0
#define CG_MODEL_LL_MISS 100.0
#define CG_MODEL_CLOCK_MHZ 1400.0
#define CG_MODEL_FILES "fp_*"

/* Fills m with the defaults; release with cg_model_release(). */
void cg_model_init(struct cg_model *m);
void cg_model_release(struct cg_model *m);

struct cg_score {
	double packets, bytes;
	double ir, i1mr, ilmr, d1mr, d1mw, dlmr, dlmw; /* totals, counted files */
	double cycles;            /* total modelled cycles */
	double cycles_per_packet;
	double ir_per_packet;
	double i1_misses_per_packet;
	double mbps;              /* modelled Mbit/s */
};

/* Scores text (len bytes, need not be NUL-terminated; NULL is ""). 0 with
 * *out filled, or -1 with a one-line message (no packets line, no events
 * header, no counted file, counts that do not add up, ...). Allocates
 * nothing the caller frees. */
int cgmodel_score(struct cg_score *out, const struct cg_model *m,
		  const char *text, size_t len);

/* 1 if name is one of the cachegrind-model parser names. */
int cgmodel_parser_valid(const char *name);

/* The value the parser name selects from a score; NaN for a name that is
 * not a cachegrind-model parser. */
double cgmodel_value(const struct cg_score *s, const char *parser);

#endif
