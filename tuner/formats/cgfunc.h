/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgfunc: per-function costs from one cachegrind output file, for tuner
 * layout. A model of a router's caches, not a measurement (see cgmodel.h).
 *
 * The file format is cachegrind's (valgrind user manual, "Cachegrind:
 * a high-precision tracing profiler", section "Cachegrind output file
 * format"; valgrind 3.x):
 *
 *   desc: I1 cache:         32768 B, 32 B, 4-way associative
 *   desc: ...                       (other free text, ignored)
 *   cmd: /path/to/program ARGS
 *   events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
 *   fl=FILE                         the count lines below are in FILE
 *   fn=NAME                         ... and in the function NAME
 *   LINE c1 c2 ...                  counts of source line LINE, one per
 *                                   event; trailing counts left out are 0
 *   summary: c1 c2 ...              the totals (also "totals:")
 *
 * fn= names the function symbol the code belongs to, fl= the source file of
 * the line, so a function's inlined header code shows under other fl=
 * lines with the same fn=. A function's counts are the sum of its lines in
 * the model's counted files (model->files, fnmatch on the base name), so
 * the functions' cycles add up to what the cachegrind-model parser scores.
 * Functions with no count in a counted file are left out.
 *
 *   cycles = Ir + l1_miss (I1mr + D1mr + D1mw) + ll_miss (ILmr + DLmr + DLmw)
 *
 * The file must be whole: the counts of all files must add up to the
 * summary line (catches a truncated file or two files mixed). Before the
 * events: line, other "word:" header lines are ignored; after it, every
 * line must be one of the above (or empty, or a # comment). Errors are one
 * line, "cachegrind: line N: ...".
 */
#ifndef TUNER_CGFUNC_H
#define TUNER_CGFUNC_H

#include <stddef.h>

#include "tuner/cgmodel.h"

/* A cache's geometry as the desc: line states it; all 0 when unknown. */
struct cg_geometry {
	unsigned size;  /* bytes */
	unsigned line;  /* bytes per line */
	unsigned assoc; /* ways */
};

/* The events a cost is made of, in this order. */
enum cg_event { CG_IR, CG_I1MR, CG_ILMR, CG_D1MR, CG_D1MW, CG_DLMR, CG_DLMW, CG_NEV };

struct cg_func {
	char *name;          /* as after fn=; malloced */
	char *file;          /* the counted file holding most of its Ir; malloced */
	double ev[CG_NEV];   /* counts over the counted files */
	double cycles;       /* modelled */
};

struct cg_profile {
	struct cg_geometry i1; /* from "desc: I1 cache:"; zeros when absent */
	char *cmd;             /* the cmd: line's text, or NULL; malloced */
	struct cg_func *funcs; /* counted functions, most cycles first */
	size_t nfuncs;
	double total[CG_NEV];  /* over the counted files */
	double cycles;
};

#define CG_PROFILE_INIT { .i1 = { 0 }, .cmd = NULL, .funcs = NULL, .nfuncs = 0, .total = { 0 }, \
			  .cycles = 0 }

/*
 * Parses text (len bytes, need not be NUL-terminated) into out (need not be
 * initialised) with the cache model m. 0, or -1 with a message and out
 * released. Release with cg_profile_release().
 */
int cgfunc_parse(struct cg_profile *out, const struct cg_model *m, const char *text,
		 size_t len);

/* Same, from the file at path; messages are prefixed with the path. */
int cgfunc_load(struct cg_profile *out, const struct cg_model *m, const char *path);

/*
 * Adds b's counts into a, function by function (by name; a function only
 * in b is added), and recomputes the order: for averaging several runs
 * (then cg_profile_scale by 1/runs). Both must come from the same model.
 */
void cg_profile_add(struct cg_profile *a, const struct cg_profile *b);

/* Multiplies every count and cycle figure by k. */
void cg_profile_scale(struct cg_profile *p, double k);

/* The function named name, or NULL. */
const struct cg_func *cg_profile_find(const struct cg_profile *p, const char *name);

void cg_profile_release(struct cg_profile *p);

#endif
