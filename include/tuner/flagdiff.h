/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flagdiff: the differences between two flag strings, as changes that can
 * be applied one by one (for tuner blame).
 *
 * Each token is a switch with a key, the thing it sets: its kind in
 * gccopt.h (the one model of GCC's options), so that switches that set
 * the same thing are one change and GCC's "the last one wins" holds, and
 * values that add up (-fsanitize=address, -fsanitize=undefined) are
 * changes of their own. A string's value for a key is its last token with
 * that key. A change is a key whose value differs: added (absent in good),
 * removed (absent in bad) or changed. Tokens are gccopt's words (shell
 * rules, separate arguments joined: "-D X" is "-DX").
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
