// SPDX-License-Identifier: GPL-2.0-only
/*
 * Digamma and trigamma by the recurrence psi(x) = psi(x + 1) - 1/x up to
 * x >= 10, then their asymptotic series in 1/x (Abramowitz and Stegun
 * 6.3.18 and 6.4.12): the terms kept leave under 1e-13 there. The inverse of
 * trigamma, which decreases from +inf to 0 over x > 0, by bisection on
 * ln x: slower than Newton's step but never leaves the domain.
 */
#include <math.h>

#include "util/gammafn.h"

#define ASYMPTOTIC_FROM 10.0
#define BISECT_STEPS 200

double pt_digamma(double x)
{
	double acc = 0, r, r2;

	if (!(x > 0) || isinf(x))
		return isinf(x) && x > 0 ? INFINITY : NAN;
	for (; x < ASYMPTOTIC_FROM; x += 1)
		acc -= 1 / x;
	r = 1 / x;
	r2 = r * r;
	return acc + log(x) - 0.5 * r -
	       r2 * (1.0 / 12 - r2 * (1.0 / 120 - r2 * (1.0 / 252 - r2 * (1.0 / 240 - r2 / 132))));
}

double pt_trigamma(double x)
{
	double acc = 0, r, r2;

	if (!(x > 0))
		return NAN;
	if (isinf(x))
		return 0;
	for (; x < ASYMPTOTIC_FROM; x += 1)
		acc += 1 / (x * x);
	r = 1 / x;
	r2 = r * r;
	return acc + r + 0.5 * r2 +
	       r * r2 *
		       (1.0 / 6 -
			r2 * (1.0 / 30 - r2 * (1.0 / 42 - r2 * (1.0 / 30 - r2 * 5 / 66))));
}

double pt_trigamma_inv(double y)
{
	double lo = log(1e-12), hi = log(1e12), mid;
	int i;

	if (!(y > 0) || isinf(y))
		return NAN;
	/* psi'(x) ~ 1/x^2 near 0 and ~ 1/x far out: outside these, those are exact enough */
	if (y > 1e24)
		return 1 / sqrt(y);
	if (y < 1e-12)
		return 1 / y;
	for (i = 0; i < BISECT_STEPS && hi - lo > 1e-14; i++) {
		mid = 0.5 * (lo + hi);
		if (pt_trigamma(exp(mid)) > y)
			lo = mid;
		else
			hi = mid;
	}
	return exp(0.5 * (lo + hi));
}
