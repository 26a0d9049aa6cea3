// SPDX-License-Identifier: GPL-2.0-only
/* Symmetric eigen-decomposition and small linear solves (linalg.h). */
#include "util/linalg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Lines p and q of the n x n matrix m rotated by (c, s): element k of line
 * p is m[p * across + k * along], so (1, n) rotates columns (m = m J) and
 * (n, 1) rows (m = J^T m).
 */
static void rotate(double *m, size_t n, size_t across, size_t along, size_t p, size_t q, double c,
		   double s)
{
	size_t k;

	for (k = 0; k < n; k++) {
		double *mp = &m[p * across + k * along], *mq = &m[q * across + k * along];
		double xp = *mp, xq = *mq;

		*mp = c * xp - s * xq;
		*mq = s * xp + c * xq;
	}
}

static double off_diagonal(const double *m, size_t n)
{
	double sum = 0;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j)
				sum += m[i * n + j] * m[i * n + j];
	return sum;
}

int pt_sym_eigen(const double *a, size_t n, double *val, double *vec)
{
	double *m = malloc((n * n + 1) * sizeof(*m)), *v = malloc((n * n + 1) * sizeof(*v));
	size_t *order = malloc((n + 1) * sizeof(*order)), i, j, p, q, sweep;
	double scale = 0;

	if (!m || !v || !order) {
		free(m);
		free(v);
		free(order);
		return -1;
	}
	memcpy(m, a, n * n * sizeof(*m));
	for (i = 0; i < n * n; i++) {
		v[i] = i / n == i % n;
		scale += m[i] * m[i];
	}
	/* Jacobi converges quadratically: 60 sweeps is far more than a 100 x 100 needs */
	for (sweep = 0; sweep < 60 && off_diagonal(m, n) > 1e-22 * scale; sweep++) {
		for (p = 0; p < n; p++) {
			for (q = p + 1; q < n; q++) {
				double apq = m[p * n + q], th, t, c, s;

				if (fabs(apq) < 1e-300)
					continue;
				th = (m[q * n + q] - m[p * n + p]) / (2 * apq);
				t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
				c = 1 / sqrt(t * t + 1);
				s = t * c;
				rotate(m, n, 1, n, p, q, c, s);
				rotate(m, n, n, 1, p, q, c, s);
				rotate(v, n, 1, n, p, q, c, s);
			}
		}
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	/* insertion sort by value, descending: n is small */
	for (i = 1; i < n; i++)
		for (j = i;
		     j > 0 && m[order[j] * n + order[j]] > m[order[j - 1] * n + order[j - 1]];
		     j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		val[i] = m[order[i] * n + order[i]];
		for (j = 0; j < n; j++)
			vec[i * n + j] = v[j * n + order[i]];
	}
	free(m);
	free(v);
	free(order);
	return 0;
}

int pt_solve(double *a, double *b, size_t n)
{
	double big = 0;
	size_t i, j, k;

	for (i = 0; i < n * n; i++)
		big = fmax(big, fabs(a[i]));
	for (i = 0; i < n; i++) {
		size_t piv = i;

		for (k = i + 1; k < n; k++)
			if (fabs(a[k * n + i]) > fabs(a[piv * n + i]))
				piv = k;
		if (!(fabs(a[piv * n + i]) > 1e-12 * big))
			return -1;
		if (piv != i) {
			double t = b[i];

			for (j = 0; j < n; j++) {
				double u = a[i * n + j];

				a[i * n + j] = a[piv * n + j];
				a[piv * n + j] = u;
			}
			b[i] = b[piv];
			b[piv] = t;
		}
		for (k = i + 1; k < n; k++) {
			double f = a[k * n + i] / a[i * n + i];

			for (j = i; j < n; j++)
				a[k * n + j] -= f * a[i * n + j];
			b[k] -= f * b[i];
		}
	}
	for (i = n; i-- > 0;) {
		double s = b[i];

		for (j = i + 1; j < n; j++)
			s -= a[i * n + j] * b[j];
		b[i] = s / a[i * n + i];
	}
	return 0;
}
