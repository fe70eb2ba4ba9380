/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gccopt_priv: what gccopt's two files share, private to them. gccopt.c
 * splits words, gives kinds and the canonical form; gccopt_predict.c
 * predicts which flag strings GCC builds, or trains, alike.
 */
#ifndef TUNER_GCCOPT_PRIV_H
#define TUNER_GCCOPT_PRIV_H

#include "tuner/gccopt.h"

/* The canonical form of g (gccopt_canonical()) without the switches with
 * skip[i] set (skip NULL: none). Caller frees with free(). */
char *gccopt_canonical_of(const struct gccopt *g, const int *skip);

/* qsort()'s comparison of two char * by strcmp(). */
int gccopt_cmp_str(const void *a, const void *b);

#endif
