/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * applied: which of a configuration's flags were really in effect in the
 * compilations of a build.
 *
 * The question comes from OpenWrt's 5.4 kernel: a Makefile change moved
 * -fno-reorder-blocks so that it no longer applied, nothing failed, and NAT
 * throughput moved 25% (seeds, 002). A tuner that believes every build got
 * its flags measures the wrong thing silently. With `build.applied` in the
 * study, each build's compiler command lines are collected (study.h: the
 * .GCC.command.line section that -frecord-gcc-switches leaves in the
 * artifact, or the lines a command prints, e.g. from a kernel's .cmd
 * files) and every requested flag is judged against each line here.
 *
 * The rule is GCC's for repeated switches: the last switch of a kind wins,
 * with words and kinds as gccopt.h (the one model of GCC's options)
 * defines them. In one line a requested flag is
 *   - in effect:  the last switch of its kind is the flag itself;
 *   - overridden: the last switch of its kind is another one (each such
 *                 one is reported: -freorder-blocks overriding
 *                 -fno-reorder-blocks; -Os or -O3 overriding -O2);
 *   - absent:     no switch of its kind appears.
 * Limits: gccopt.h's (implied settings, -march vs -mcpu, comma lists);
 * tokens of a flag that are not switches (no leading '-') are not judged.
 *
 * GCC does not record every switch in .GCC.command.line: preprocessor,
 * warning, driver and linker options (-D, -I, -W..., -pipe, -static, -o,
 * -fdiagnostics-..., -march=native, which it records resolved) never
 * appear there. With `recorded` set, such flags are marked unrecorded and
 * not judged, rather than reported absent.
 *
 * Pure: no I/O. All strings are malloced and owned by the structs.
 */
#ifndef TUNER_APPLIED_H
#define TUNER_APPLIED_H

#include <stddef.h>

#include "tuner/util.h"

struct applied_flag {
	char *flag;          /* the requested switch, separate arguments joined */
	unsigned in_effect;  /* lines where it is the last switch of its kind */
	unsigned overridden; /* lines where another switch of its kind wins */
	char *overridden_by; /* those switches, each once in order of first
	                        appearance, joined by " or " ("-Os or -O3"),
	                        or NULL */
	int unrecorded;      /* GCC never records its kind: not judged */
};

struct applied {
	int checked;         /* 0: the build was not checked; the rest is empty */
	int recorded;        /* 1: lines from .GCC.command.line; 0: a command */
	unsigned lines;      /* command lines judged (all builds merged) */
	unsigned builds;     /* builds merged into this (applied_merge) */
	char *note;          /* NULL, or why there were no lines to judge */
	size_t nflags;
	struct applied_flag *flags;
};

#define APPLIED_INIT { .checked = 0, .recorded = 0, .lines = 0, .builds = 0, .note = NULL, \
		       .nflags = 0, .flags = NULL }

/*
 * Judges every switch of flags (as TUNER_FLAGS holds them; each distinct
 * switch once, in order) against each of lines[0..nlines). recorded: the
 * lines are GCC's recorded switches (split at white space; unrecordable
 * kinds marked unrecorded), else shell command lines. Fills out (need not
 * be initialised; checked 1, builds 1); release with applied_release().
 */
void applied_analyse(struct applied *out, const char *flags, char *const *lines,
		     size_t nlines, int recorded);

/*
 * The command lines in the bytes of a .GCC.command.line section (NUL-
 * separated strings). GCC 11 and later write one string per translation
 * unit: its producer line ("GNU C17 12.2.0 -march=... -O2 ..."); clang
 * writes the whole command line; both are one line each. GCC 10 and older
 * write one string per switch: consecutive such strings (a leading '-', or
 * a word without spaces) are joined into one line. The linker merges
 * identical strings (SHF_MERGE), so an artifact holds each distinct switch
 * set once (and with GCC <= 10 only the union of all switches). *out is a
 * malloced array of malloced lines (applied_lines_free()); returns the
 * count.
 */
size_t applied_section_lines(char ***out, const char *data, size_t len);

/* The non-blank lines of text (a command's output), as above. */
size_t applied_text_lines(char ***out, const char *text, size_t len);

void applied_lines_free(char **lines, size_t n);

/*
 * The words of a line as the analysis sees them: split (shell rules
 * unless recorded), separate arguments joined. Malloced array of malloced
 * strings; free with applied_lines_free(). For tests and messages.
 */
size_t applied_words(char ***out, const char *line, int recorded);

/* Adds from (another layout-seed build of the same configuration) into
 * into: lines, builds and counts add up, flags matched by name, the
 * overriding switches join into's; the first note stays. An unchecked
 * from changes nothing. */
void applied_merge(struct applied *into, const struct applied *from);

/* A deep copy of from into out (released with applied_release()). */
void applied_copy(struct applied *out, const struct applied *from);

void applied_release(struct applied *a);

/* 1 if the flag was judged and is not in effect in every line. */
int applied_flag_missed(const struct applied *a, const struct applied_flag *f);

/*
 * Appends to sb, space-separated, the flags that are not in effect in
 * every line (applied_flag_missed). Returns how many.
 */
size_t applied_missed_list(struct strbuf *sb, const struct applied *a);

/*
 * Appends one line per problem to sb, each starting with prefix and ending
 * in '\n': the note when there were no lines, or for each missed flag
 * "-fno-reorder-blocks in effect in 0 of 2 recorded switch sets
 * (overridden by -freorder-blocks in 1; absent from 1)". Returns how many
 * lines (0: nothing to warn about, or not checked).
 */
size_t applied_describe(struct strbuf *sb, const struct applied *a, const char *prefix);

#endif
