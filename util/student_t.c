// SPDX-License-Identifier: GPL-2.0-only
/*
 * The t tail through the regularized incomplete beta function,
 * P(T > t) = I_x(df/2, 1/2) / 2 with x = df / (df + t^2), evaluated by its
 * continued fraction (modified Lentz), as in the standard numerical
 * references; accurate to ~1e-12 for the df (a pool of 5 to a few hundred
 * runs) and tails (p down to 1e-8) the gate uses.
 */
#include <float.h>
#include <math.h>

#include "util/student_t.h"

#define CF_ITER 300
#define CF_EPS 1e-15
#define CF_TINY 1e-300

static double beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= CF_ITER; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < CF_EPS)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the continued fraction converges fast on the side of the mean */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double pt_t_sf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 0 : 1;
	tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? tail : 1 - tail;
}

double pt_t_isf(double p, double df)
{
	double lo = 0, hi = 1e6;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	/* symmetric: search the upper half only, where the tail is resolved */
	if (p > 0.5)
		return -pt_t_isf(1 - p, df);
	if (p == 0.5)
		return 0;
	/* bisection: pt_t_sf falls monotonically; 200 halvings of 1e6 reach DBL_EPSILON */
	for (i = 0; i < 200 && hi - lo > DBL_EPSILON * fmax(1, fabs(lo)); i++) {
		double mid = (lo + hi) / 2;

		if (pt_t_sf(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
