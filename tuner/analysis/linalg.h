/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linalg: dense linear algebra on row-major matrices of doubles, in
 * place, allocating nothing: the Cholesky factorisation of a symmetric
 * positive definite matrix and the solve with its factor (Golub & Van
 * Loan, "Matrix Computations", 4th ed., 2013, 4.2). Pure.
 */
#ifndef TUNER_LINALG_H
#define TUNER_LINALG_H

#include <stddef.h>

/* Cholesky factor of a (p x p, symmetric positive definite) in place: its
 * lower triangle becomes L (a = L L'); the strict upper triangle is left
 * as it was. 0, or -1 when not positive definite. */
int linalg_chol_factor(double *a, size_t p);

/* Solves L L' x = b with linalg_chol_factor()'s L (p x p); b (p) becomes
 * x. */
void linalg_chol_solve(const double *l, double *b, size_t p);

#endif
