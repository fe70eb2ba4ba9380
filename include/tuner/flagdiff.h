/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flagdiff: the differences between two flag strings, as changes that can
 * be applied one by one (for tuner blame).
 *
 * Each token is a switch with a key, the thing it sets, so that switches
 * that set the same thing are one change and GCC's "the last one wins"
 * holds:
 *   -O, -O0 .. -O3, -Os, -Oz, -Ofast, -Og     key "-O"
 *   -fno-NAME, -fNAME, -fNAME=V               key "-fNAME"
 *   -mno-NAME, -mNAME, -mNAME=V               key "-mNAME"
 *   -W and other -X=V                         the text before '='
 *   anything else                             the token itself
 * A string's value for a key is its last token with that key. A change is
 * a key whose value differs: added (absent in good), removed (absent in
 * bad) or changed. Tokens are split at blanks; a switch that takes its
 * argument as the next token ("-include FILE") is two tokens here, so keep
 * such arguments joined ("-include=FILE" style) or expect odd keys.
 */
#ifndef TUNER_FLAGDIFF_H
#define TUNER_FLAGDIFF_H

#include <stddef.h>

struct flag_change {
	char *key;  /* malloced */
	char *good; /* the token in good (malloced), NULL: absent */
	char *bad;  /* likewise in bad */
};

struct flagdiff {
	char **good;      /* good's effective tokens, in order (malloced) */
	size_t ngood;
	struct flag_change *changes;
	size_t nchanges;
};

/* The key of one token, written into out (at most len bytes, cut). */
void flagdiff_key(char *out, size_t len, const char *token);

/*
 * Computes the changes from good to bad, in the order their keys first
 * appear (good's first, then bad's new ones). Caller releases out with
 * flagdiff_release(). Never fails (allocation failure aborts).
 */
void flagdiff_compute(struct flagdiff *out, const char *good, const char *bad);
void flagdiff_release(struct flagdiff *d);

/*
 * The flag string of good with the changes set[0..n) applied: a changed
 * key's token replaced in place, a removed one dropped, added ones
 * appended in change order; one space between tokens. With every change
 * applied it sets every key as bad does. Caller frees with free().
 */
char *flagdiff_apply(const struct flagdiff *d, const size_t *set, size_t n);

/* "add TOKEN", "drop TOKEN" or "OLD -> NEW" for change i. Caller frees. */
char *flagdiff_describe(const struct flagdiff *d, size_t i);

#endif
