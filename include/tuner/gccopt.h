/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gccopt: what a flag string means to GCC. The one model of it that
 * configuration ids, compare, blame, bisect and the applied-flag check
 * share.
 *
 * Words: split at white space (GCC's recorded switches) or as /bin/sh
 * splits them (quotes, backslashes, no expansion: TUNER_FLAGS and command
 * lines); a switch whose argument may be the next word is joined with it
 * ("-D X" is "-DX", "--param N=V" is "--param=N=V").
 *
 * Kinds: each switch sets one thing, its kind, to a setting; of the
 * switches of one kind the last is in effect (GCC manual, "Invoking GCC":
 * "if you specify multiple options of the same kind, the last one is the
 * one that is effective"):
 *   -O, -O0..-O3, -Os, -Oz, -Ofast, -Og      one kind (-O is -O1)
 *   -g, -g0..-g3                             one kind (-g is -g2)
 *   -fX, -fno-X, -fX=V (also -m and -W)      one kind per X: -falign-functions,
 *                                            -fno-align-functions and
 *                                            -falign-functions=32 contradict
 *   -fsanitize=V, ...-prefix-map=V, -Werror=V  one kind per X=V (they add up)
 *   --param=N=V                              one kind per N
 *   -DN, -DN=V, -UN                          one kind per macro N
 *   -X=V otherwise (-std=c11)                one kind per X
 *   anything else (-I dirs, unknown words)   itself, kept verbatim
 *
 * Limits (not modelled): what an -O level or another flag implies or
 * clears (-O0 makes -fno-reorder-blocks moot; -fprofile-use enables
 * -fbranch-probabilities); -march vs -mcpu; -marm vs -mthumb (two
 * kinds); comma lists (-fsanitize=a,b);
 * -Wall's group against its members; a -m option whose name starts with
 * "no-". Pure: no I/O; all strings malloced and owned by the structs.
 */
#ifndef TUNER_GCCOPT_H
#define TUNER_GCCOPT_H

#include <stddef.h>

#include "tuner/util.h"

/* The words of s: split (shell rules if shell, else at white space),
 * separate arguments joined. *out is a malloced array of malloced
 * strings (gccopt_words_free()); returns the count. */
size_t gccopt_words(char ***out, const char *s, int shell);
void gccopt_words_free(char **w, size_t n);

/*
 * The kind of word w and its setting within the kind, into kind and
 * setting (reset first): two switches of one kind contradict unless
 * their settings are equal. A word that is not a switch (no leading '-')
 * is a kind of its own with an empty setting.
 */
void gccopt_kind(struct strbuf *kind, struct strbuf *setting, const char *w);

struct gccopt_switch {
	char *word;          /* as given, separate arguments joined */
	char *kind, *setting;
	size_t winner;       /* index of the switch of its kind in effect: the
	                        last one (itself when it is in effect) */
};

/* A flag string as GCC sees it. */
struct gccopt {
	struct gccopt_switch *sw; /* in the order given */
	size_t n;
};

/* Parses flags, its words split as gccopt_words() does (shell: TUNER_FLAGS
 * and command lines; else GCC's recorded switches). Release with
 * gccopt_release(). Never fails (allocation failure aborts). */
void gccopt_parse(struct gccopt *out, const char *flags, int shell);
void gccopt_release(struct gccopt *g);

/* The switch in effect of kind `kind` in g (the last of it), or NULL. */
const struct gccopt_switch *gccopt_last_of_kind(const struct gccopt *g, const char *kind);
/* The switch in effect of the kind of word w in g, or NULL. */
const struct gccopt_switch *gccopt_effective(const struct gccopt *g, const char *w);

/*
 * The canonical form of flags: the switches in effect (one per kind),
 * -O and -g levels spelt -O<n> and -g<n>, sorted; the words whose order matters
 * to GCC whatever their kinds (-I and other search paths, words that are
 * not switches) after them, in their own order. Two flag strings GCC
 * treats alike (as far as this model sees) have the same canonical form.
 * Caller frees with free().
 */
char *gccopt_canonical(const char *flags);

/*
 * The canonical form of flags without the switches GCC is predicted to
 * ignore given the others: at -Os and -Oz (the last -O), GCC aligns no
 * function, jump or loop (it aligns only code it optimises for speed), so
 * -falign-functions, -falign-jumps and -falign-loops, with or without a
 * value and their -fno- forms, change nothing there. Two flag strings
 * with equal predicted forms are expected to build the same code: a
 * prediction about GCC (gcc 8 and later), to be confirmed by building
 * (the run's build.equivalent). *ignored (NULL: not wanted) gets the
 * ignored words, space-separated ("" none). Caller frees both with
 * free().
 */
char *gccopt_predicted(const char *flags, char **ignored);

/*
 * Pairs each of flags[0..n) that ignores something (gccopt_predicted())
 * with the first earlier one of the same group (group[i]: what else must
 * be equal, such as PGO) whose predicted form is equal: lead[i] is its
 * index, or i when there is none (it leads itself). ignored[i] gets the
 * ignored words of a paired one (malloced: free()), NULL for a lead.
 */
void gccopt_predicted_leads(size_t *lead, char **ignored, const char *const *flags,
			    const unsigned long *group, size_t n);

/*
 * The canonical form of flags without the switches GCC acts on only after
 * it has instrumented the code for a profile: -freorder-blocks,
 * -freorder-blocks-algorithm, -ftree-ch and -falign-functions, -jumps,
 * -loops and -labels (with their -fno- forms and values). Two flag
 * strings with equal forms are expected to train the same profile: a
 * prediction about GCC and about the program (its behaviour must not
 * depend on where its code lies), to be confirmed by training both (the
 * run's train.share). Caller frees with free().
 */
char *gccopt_profile_form(const char *flags);

/*
 * Pairs each of flags[0..n) with the first earlier one of the same group
 * (group[i]: what else must be equal) with an equal gccopt_profile_form()
 * that leads itself: lead[i] is its index, or i when there is none.
 * kinds[i] gets the kinds of switch in which a paired one differs from
 * its lead ("-falign-functions -freorder-blocks": sorted, space-separated,
 * malloced: free()), NULL for a lead.
 */
void gccopt_profile_leads(size_t *lead, char **kinds, const char *const *flags,
			  const unsigned long *group, size_t n);

/* 1 if GCC builds a and b alike (same canonical form), else 0. */
int gccopt_equal(const char *a, const char *b);

#endif
