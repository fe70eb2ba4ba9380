/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linalg: see tuner/analysis/linalg.h */
#include "linalg.h"

#include <math.h>

int linalg_chol_factor(double *a, size_t p)
{
	for (size_t j = 0; j < p; j++) {
		double s = a[j * p + j];

		for (size_t k = 0; k < j; k++)
			s -= a[j * p + k] * a[j * p + k];
		if (!(s > 0))
			return -1;
		a[j * p + j] = sqrt(s);
		for (size_t i = j + 1; i < p; i++) {
			double t = a[i * p + j];

			for (size_t k = 0; k < j; k++)
				t -= a[i * p + k] * a[j * p + k];
			a[i * p + j] = t / a[j * p + j];
		}
	}
	return 0;
}

void linalg_chol_solve(const double *l, double *b, size_t p)
{
	for (size_t i = 0; i < p; i++) {
		double t = b[i];

		for (size_t k = 0; k < i; k++)
			t -= l[i * p + k] * b[k];
		b[i] = t / l[i * p + i];
	}
	for (size_t i = p; i-- > 0;) {
		double t = b[i];

		for (size_t k = i + 1; k < p; k++)
			t -= l[k * p + i] * b[k];
		b[i] = t / l[i * p + i];
	}
}
