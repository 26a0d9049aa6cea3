// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <string.h>

#include "model/nnls.h"

#define N PT_NNLS_MAX_COLS

/* Solve the k x k system g s = r in place (partial pivoting); -1 when singular. */
static int solve(double g[N][N], double *r, size_t k)
{
	size_t i, j, c;

	for (c = 0; c < k; c++) {
		size_t p = c;

		for (i = c + 1; i < k; i++)
			if (fabs(g[i][c]) > fabs(g[p][c]))
				p = i;
		if (fabs(g[p][c]) < 1e-14)
			return -1;
		if (p != c) {
			double t;

			for (j = 0; j < k; j++)
				t = g[c][j], g[c][j] = g[p][j], g[p][j] = t;
			t = r[c], r[c] = r[p], r[p] = t;
		}
		for (i = c + 1; i < k; i++) {
			double f = g[i][c] / g[c][c];

			for (j = c; j < k; j++)
				g[i][j] -= f * g[c][j];
			r[i] -= f * r[c];
		}
	}
	for (c = k; c-- > 0;) {
		for (j = c + 1; j < k; j++)
			r[c] -= g[c][j] * r[j];
		r[c] /= g[c][c];
	}
	return 0;
}

/* Unconstrained least squares on the columns in set (scaled to unit norm); s: n values. */
static int ls_on(const double *a, const double *b, size_t m, size_t n, const int *set,
		 const double *scale, double *s)
{
	double g[N][N], r[N];
	size_t idx[N], k = 0, i, j, row;

	for (j = 0; j < n; j++)
		if (set[j])
			idx[k++] = j;
	for (i = 0; i < k; i++) {
		r[i] = 0;
		for (j = 0; j < k; j++)
			g[i][j] = 0;
	}
	for (row = 0; row < m; row++) {
		const double *ar = a + row * n;

		for (i = 0; i < k; i++) {
			double ai = ar[idx[i]] / scale[idx[i]];

			r[i] += ai * b[row];
			for (j = 0; j < k; j++)
				g[i][j] += ai * ar[idx[j]] / scale[idx[j]];
		}
	}
	if (solve(g, r, k))
		return -1;
	memset(s, 0, n * sizeof(*s));
	for (i = 0; i < k; i++)
		s[idx[i]] = r[i];
	return 0;
}

/* w = A^T (b - A x), in scaled columns. */
static void gradient(const double *a, const double *b, size_t m, size_t n, const double *x,
		     const double *scale, double *w)
{
	size_t row, j;

	memset(w, 0, n * sizeof(*w));
	for (row = 0; row < m; row++) {
		const double *ar = a + row * n;
		double res = b[row];

		for (j = 0; j < n; j++)
			res -= ar[j] / scale[j] * x[j];
		for (j = 0; j < n; j++)
			w[j] += ar[j] / scale[j] * res;
	}
}

/* The inner loop: move x towards the LS solution on set until it is feasible. */
static int inner(const double *a, const double *b, size_t m, size_t n, int *set,
		 const double *scale, double *x)
{
	double s[N];
	size_t j;
	int guard;

	for (guard = 0; guard < 100; guard++) {
		double alpha = 1;
		int ok = 1;

		if (ls_on(a, b, m, n, set, scale, s))
			return -1;
		for (j = 0; j < n; j++)
			if (set[j] && s[j] <= 0) {
				ok = 0;
				alpha = fmin(alpha, x[j] / (x[j] - s[j]));
			}
		if (ok) {
			memcpy(x, s, n * sizeof(*x));
			return 0;
		}
		for (j = 0; j < n; j++) {
			x[j] += alpha * (s[j] - x[j]);
			if (set[j] && x[j] <= 1e-15)
				set[j] = 0, x[j] = 0;
		}
	}
	return -1;
}

int pt_nnls(const double *a, const double *b, size_t m, size_t n, double *x)
{
	double scale[N], w[N], tol;
	int set[N] = { 0 }, iter;
	size_t j, row;

	if (!n || n > N)
		return -1;
	for (j = 0; j < n; j++) {
		scale[j] = 0;
		for (row = 0; row < m; row++)
			scale[j] += a[row * n + j] * a[row * n + j];
		scale[j] = scale[j] > 0 ? sqrt(scale[j]) : 1;
		x[j] = 0;
	}
	tol = 0;
	for (row = 0; row < m; row++)
		tol += b[row] * b[row];
	tol = 1e-12 * (sqrt(tol) + 1);
	for (iter = 0; iter < 3 * N; iter++) {
		size_t t = n;

		gradient(a, b, m, n, x, scale, w);
		for (j = 0; j < n; j++)
			if (!set[j] && w[j] > tol && (t == n || w[j] > w[t]))
				t = j;
		if (t == n)
			break;
		set[t] = 1;
		if (inner(a, b, m, n, set, scale, x)) {
			set[t] = 0;
			break;
		}
	}
	for (j = 0; j < n; j++)
		x[j] /= scale[j];
	return iter < 3 * N ? 0 : -1;
}
