/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout: which code placements cost what. The seeds' question ("is there a
 * way to find out which function alignments got such a big impact on NAT
 * performance?"): for a build, its hot functions with their addresses,
 * cache-line offsets, first cache sets and the lines they span, next to
 * what each costs in a cache model; for two builds, what moved and which
 * functions carry the difference; over all builds of a study, whose
 * alignment goes with the objective.
 *
 * Costs come from cachegrind (cgfunc.h) and are MODELLED: instruction and
 * cache-miss counts of a simulated cache with the target's geometry turned
 * into cycles, not a router's measurement. Addresses come from the
 * artifact's symbol table (elfsym.h), link-time addresses: the cache set
 * of a position-independent program assumes it is loaded at a multiple of
 * the cache's way size (true of a kernel, of a fixed-address program, and
 * of valgrind's loading of x86-64 programs at 0x108000); the line offset
 * holds at any page-aligned load address.
 *
 * A build directory holds the artifact and one or more cachegrind output
 * files named cachegrind.out* (the measure command leaves them there, as
 * targets/natbench/score.sh does with --cachegrind-out-file=
 * "$TUNER_OUT/cachegrind.out.$TUNER_RUN"); several are averaged. Costs
 * are per packet when a file of the directory named *.stdout* or
 * measure-*.log has a "packets=N" token, else per run.
 */
#ifndef TUNER_LAYOUT_H
#define TUNER_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "formats/cgfunc.h"
#include "formats/elfsym.h"
#include "tuner/stats.h"

/* When the cachegrind file does not state the I1 geometry: a Cortex-A9's
 * 32 KB 4-way L1 I-cache with 32-byte lines (256 sets), what score.sh
 * asks cachegrind for. */
#define LAYOUT_I1_SIZE 32768u
#define LAYOUT_I1_LINE 32u
#define LAYOUT_I1_ASSOC 4u

struct layout_func {
	const char *name;           /* points into the build's profile */
	const struct elf_func *sym; /* NULL: no symbol of that name */
	uint64_t addr, size;        /* 0 without a symbol */
	unsigned offset;            /* addr mod line size */
	unsigned set;               /* first cache set, (addr / line) mod sets */
	unsigned lines;             /* cache lines [addr, addr + size) touches */
	double ir, i1mr, cycles;    /* per packet (per run when packets is 0) */
};

struct layout_build {
	char *dir, *artifact;   /* malloced */
	struct cg_profile prof; /* the average of its runs, per run */
	size_t runs;            /* cachegrind files read */
	double packets;         /* per run; 0 when unknown */
	struct cg_geometry i1;  /* the files' geometry, or the default */
	unsigned sets;
	struct elf_func *syms;  /* every function symbol of the artifact */
	size_t nsyms;
	struct layout_func *funcs; /* the profile's functions, most cycles first */
	size_t nfuncs;
	/* A hash of the function symbols (names, addresses, sizes) and the
	 * costs: equal for two builds of the same code (a flag that changed
	 * nothing), which are one layout, not two. */
	uint64_t fingerprint;
};

/*
 * Loads the build in dir with the cache model m. artifact: the program's
 * path, or NULL to take the file of dir named like the program of the
 * cachegrind files' cmd: line. 0, or -1 with a message ("no cachegrind
 * data in DIR ..." says how to get it). Release with layout_build_release().
 */
int layout_build_load(struct layout_build *out, const char *dir, const char *artifact,
		      const struct cg_model *m);
void layout_build_release(struct layout_build *b);

/* The function named name in b, or NULL. */
const struct layout_func *layout_build_find(const struct layout_build *b, const char *name);

/*
 * The names of the entries of dir that match pattern (fnmatch; a leading
 * dot only matches a dot), sorted. 0 with *out (NULL-terminated, NULL when
 * none; free with layout_free_names) and *n set, or -1 with a message.
 */
int layout_list_dir(char ***out, size_t *n, const char *dir, const char *pattern);
void layout_free_names(char **names);

/* Fills f's placement (addr, size, offset, set, lines) for geometry g
 * (line and sets > 0). Pure. */
void layout_place(struct layout_func *f, uint64_t addr, uint64_t size, unsigned line,
		  unsigned sets);

/* ---- Two builds ---- */

struct layout_delta {
	const char *name;
	const struct layout_func *a, *b; /* NULL where it has no cost */
	double delta;                    /* cycles in b - cycles in a */
	double share;                    /* delta / (total b - total a); NaN if 0 */
};

struct layout_diff {
	struct layout_delta *rows; /* every costed function, largest |delta| first */
	size_t n;
	double total_a, total_b;   /* modelled cycles of the counted code */
	size_t common;             /* function symbols in both artifacts */
	size_t moved;              /* ... at another address */
	size_t realigned;          /* ... at another offset in their line */
	size_t resized;            /* ... of another size */
};

/* Compares b with a. Pointers in out point into a and b: keep them until
 * layout_diff_release(). */
void layout_diff(struct layout_diff *out, const struct layout_build *a,
		 const struct layout_build *b);
void layout_diff_release(struct layout_diff *d);


/* ---- A study's builds (tuner/analysis/layout_stats.c) ---- */

struct layout_class {
	uint64_t offset;  /* address mod the modulus */
	size_t n;         /* builds */
	double objective; /* mean of the builds' objective */
	double cost;      /* mean of the function's own cycles */
	unsigned lines;   /* most lines it spans in this class */
};

struct layout_effect {
	char *name;                  /* malloced */
	double mean_cost;            /* mean own cycles over the builds with it */
	size_t nbuilds;              /* builds with a symbol and a cost for it */
	struct layout_class *classes; /* by offset; malloced */
	size_t nclasses;
	struct stats_anova obj;     /* the objective across its offsets */
	struct stats_anova own;     /* its own cycles across its offsets */
	double cost_range;           /* largest - smallest class mean cost */
	double q;                    /* Benjamini-Hochberg q of obj.p, over
					* the distinct patterns tested */
	size_t pattern;              /* equal for functions whose offsets split
					* the builds alike: confounded */
	size_t same;                 /* other examined functions with it */
};

struct layout_study_opts {
	unsigned modulus; /* alignment classes: address mod this (> 0) */
	size_t top;       /* examine the top functions by mean cycles */
};

/*
 * For each of the top functions (by mean own cycles over the builds that
 * have it), groups builds[0..nb) by the function's offset (address mod
 * modulus) and tests whether the objective values[i] differ between the
 * groups (stats_anova), and whether its own cost does; q-values over the
 * functions tested. Builds with a NaN value are left out. Sorted: testable
 * ones by p, then by cost_range (larger first), then the rest (one class,
 * or no builds to spare). 0 with *out (free with layout_effects_free) and
 * *n set; -1 with a message when no build has both a value and costs.
 */
int layout_study(struct layout_effect **out, size_t *n, const struct layout_build *const *builds,
		 const double *values, size_t nb, const struct layout_study_opts *o);
void layout_effects_free(struct layout_effect *e, size_t n);

#endif
