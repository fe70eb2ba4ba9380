/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gccspace: a GCC's own list of optimisation switches, turned into the
 * dimensions of a study's space (tuner space; docs/space.md).
 *
 * Input: what `CC -Q --help=optimizers LEVEL` prints in the C locale, and
 * optionally what `CC -Q --help=params LEVEL` prints. After a header line
 * ("The following options control optimizations:" / "... parameters:")
 * each option is one line: two spaces, the option, white space, and its
 * state at LEVEL:
 *
 *   -ftree-ch                   [enabled]        a switch, on at LEVEL
 *   -fgcse-sm                   [disabled]       a switch, off
 *   -fprefetch-loop-arrays                       a switch decided later (target, other flags)
 *   -fexceptions                [available in Modula-2]   not for C
 *   -fhandle-exceptions         -fexceptions     another name of an option
 *   -falign-jumps=              16:11:8          an option's value
 *   -fira-region=[one|all|mixed] one             a value of an enumerated list
 *   -flifetime-dse=<0,2>        2                a number in a range
 *   --param=max-unroll-times=   8                a param, range 0 .. INT_MAX
 *   --param=align-threshold=<1,65536>  100       a param with its own range
 *
 * Output: one dimension for LEVEL itself ("opt": [LEVEL]), then one per
 * switch, in GCC's order, then one per param. The first value of every
 * switch or param dimension is "": LEVEL's own setting. A switch on at
 * LEVEL gives ["", "-fno-X"], one off ["", "-fX"], one decided later
 * ["", "-fX", "-fno-X"] (a switch listed as -fno-X or -mX likewise); an
 * enumerated option ["", "-fX=B", ...] with every choice but LEVEL's;
 * -falign-functions, -jumps, -loops and -labels ["", "-fno-align-X" where
 * LEVEL aligns, "-falign-X=16", "=32", "=64" but the one LEVEL already
 * uses]. A param with default v in [min, max] gives ["", "--param=N=a",
 * "--param=N=b"] (gccspace_param_sample()). Values GCC ignores at LEVEL
 * (gccopt_predicted(): alignment at -Os and -Oz) are dropped, and so is a
 * dimension left with "" alone.
 *
 * Left out, each with its reason (enum gccspace_why): options that can
 * change what a correct program does or how it meets other code
 * (floating-point semantics, what the language allows, ABI and linking,
 * exceptions and unwinding, hardening, profiles and instrumentation, the
 * memory model) unless opts.unsafe; always: options for other languages,
 * other names of an option, values with no sensible list (numbers, names),
 * reports and debug information, switches gcc refuses beside another
 * dimension's value (-fno-toplevel-reorder with -fsection-anchors,
 * -flive-patching with IPA switches), params that act on no code of the
 * build or have no default to scale. Then opts.exclude and opts.only
 * (gccspace_glob_match()) leave out more.
 *
 * Dimension names come from the option: "-ftree-ch" is tree_ch, "-mX" is
 * m_X, "--param=max-unroll-times" is param_max_unroll_times ('-', '='
 * and anything but letters and digits become '_'); a name already taken
 * gets "_2", "_3", ...
 *
 * Pure: no I/O. Returns malloced strings owned by the structs.
 */
#ifndef TUNER_GCCSPACE_H
#define TUNER_GCCSPACE_H

#include <stddef.h>

/* Why an option is not a dimension. The first ones (up to
 * GCCSPACE_UNSAFE_LAST) are put back by opts.unsafe. */
enum gccspace_why {
	GCCSPACE_FLOAT,      /* floating-point semantics: the -ffast-math family */
	GCCSPACE_LANGUAGE,   /* what the language allows: aliasing, overflow, null pointers */
	GCCSPACE_INTERFACE,  /* ABI, data layout, linking, the frame */
	GCCSPACE_EXCEPTIONS, /* exceptions and unwind tables */
	GCCSPACE_HARDENING,  /* stack protection and checks, hardening */
	GCCSPACE_INSTRUMENT, /* profiles, sanitizers, instrumentation */
	GCCSPACE_MEMORY,     /* stores, loads or calls the source does not make */
	GCCSPACE_UNSAFE_LAST = GCCSPACE_MEMORY,
	GCCSPACE_NOCODE,     /* reports, dumps, debug information */
	GCCSPACE_OTHER_LANG, /* [available in ...]: not for C */
	GCCSPACE_ALIAS,      /* another name of a listed option */
	GCCSPACE_VALUE,      /* takes a value with no sensible list */
	GCCSPACE_IGNORED,    /* GCC ignores every other value at LEVEL */
	GCCSPACE_CONFLICT,   /* an error beside another dimension's value */
	GCCSPACE_PARAM_NOCODE, /* a param for no code of this build */
	GCCSPACE_NO_SAMPLE,  /* a param with no other value to try */
	GCCSPACE_EXCLUDED,   /* opts.exclude */
	GCCSPACE_NOT_ONLY,   /* not matched by opts.only */
	GCCSPACE_NWHY
};

/* The reason, a phrase ("floating-point semantics (the -ffast-math
 * family)"). Static; never NULL. */
const char *gccspace_why_text(enum gccspace_why why);

enum gccspace_kind { GCCSPACE_LEVEL, GCCSPACE_SWITCH, GCCSPACE_PARAM };

struct gccspace_dim {
	char *name;    /* "tree_ch"; unique */
	char *option;  /* what it varies, as GCC lists it: "-ftree-ch",
	                  "-falign-functions", "--param=max-unroll-times", LEVEL */
	enum gccspace_kind kind;
	char **values; /* nvalues; values[0] is "" (LEVEL for the level's) */
	size_t nvalues;
};

struct gccspace_left {
	char *option;  /* as GCC lists it, without its <range> or [list] */
	enum gccspace_why why;
};

struct gccspace {
	struct gccspace_dim *dims; /* dims[0] is the level's */
	size_t ndims;
	size_t nswitch, nparam;    /* how many dims of each kind */
	struct gccspace_left *left; /* in GCC's order, switches then params */
	size_t nleft;
};
#define GCCSPACE_INIT { .dims = NULL, .ndims = 0, .nswitch = 0, .nparam = 0, .left = NULL, \
			.nleft = 0 }

struct gccspace_opts {
	const char *level;              /* "-O2" (NULL: "-O2") */
	int unsafe;                     /* keep the options that change semantics */
	const char *const *exclude;     /* globs: leave these out */
	size_t nexclude;
	const char *const *only;        /* globs: if any, keep only these */
	size_t nonly;
};
#define GCCSPACE_OPTS_INIT { .level = NULL, .unsafe = 0, .exclude = NULL, .nexclude = 0, \
			     .only = NULL, .nonly = 0 }

/*
 * 0 when level is one of -O0, -O1, -O2, -O3, -Os, -Oz, or -Ofast with
 * unsafe (it enables the -ffast-math family); else -1 with a message
 * (kind input).
 */
int gccspace_level_check(const char *level, int unsafe);

/*
 * Whether option (as GCC lists it: "-ftree-ch", "--param=max-unroll-times";
 * "=..." after the name is ignored) matches glob (fnmatch): a glob that
 * starts with '-' is matched against the option, any other against its
 * name without "-f", "-fno-", "-m" or "--param=" ("tree-*" matches
 * -ftree-ch, "max-unroll-*" matches --param=max-unroll-times). 1 or 0.
 */
int gccspace_glob_match(const char *glob, const char *option);

/*
 * The values to try of a param whose default at the level is v, in
 * [min, max]: floor(v / 2) and 2v, each clamped into the range, without
 * v and without repeats; for v = 0 in a range of [0, 1] (a switch), 1.
 * A default of 0 otherwise, or one outside the range (-1: unset), has no
 * values. Writes up to 2 into out, returns how many.
 */
size_t gccspace_param_sample(long long out[2], long long min, long long max, long long v);

/*
 * Fills out from optimizers (the text of `CC -Q --help=optimizers LEVEL`)
 * and params (of `CC -Q --help=params LEVEL`, or NULL: no params), with
 * opts (level checked with gccspace_level_check()). Caller releases out
 * with gccspace_release(), also after a failure. 0, or -1 with a message:
 * the text is not such a listing (no header line, a line that is not an
 * option, a state or range that cannot be read, an option listed twice,
 * no option at all), naming the line.
 */
int gccspace_build(struct gccspace *out, const char *optimizers, const char *params,
		   const struct gccspace_opts *opts);

/*
 * The space as a YAML block: "space:\n" then one line per dimension,
 * "  NAME: [V, V, ...]\n", each value quoted where YAML needs it ("" for
 * the empty one). Caller frees with free().
 */
char *gccspace_yaml(const struct gccspace *g);

/*
 * The study text with its top-level `space:` (a block of indented lines
 * after it, or a flow mapping on its own line) replaced by block (a
 * `space:` block, as gccspace_yaml() makes it); the rest byte for byte.
 * *out: malloced, caller frees with free(). 0, or -1 with a message when
 * the text has no top-level space or a flow mapping over several lines.
 */
int gccspace_splice(char **out, const char *study, const char *block);

void gccspace_release(struct gccspace *g);

#endif
