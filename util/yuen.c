// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/student_t.h"
#include "util/yuen.h"

/* Beyond this many values a trim that still fails never keeps enough. */
#define PT_YUEN_MIN_SCAN 10000

/* floor(n * f), 0.1 * 10 counting as 1 (as pt_trimmed_mean_cut counts it) */
static size_t cut(double f, size_t n)
{
	return f > 0 ? (size_t)(f * (double)n + 1e-9) : 0;
}

/* n keeps enough values after the trim */
static bool enough(struct pt_trim trim, size_t n)
{
	return cut(trim.lo, n) + cut(trim.hi, n) + PT_YUEN_MIN_KEPT <= n;
}

size_t pt_yuen_min_n(struct pt_trim trim)
{
	size_t n;

	/* a trim below 1 in all fails only for small n; the last failure + 1 */
	for (n = PT_YUEN_MIN_SCAN; n >= 2; n--)
		if (!enough(trim, n))
			return n == PT_YUEN_MIN_SCAN ? SIZE_MAX : n + 1;
	return 2;
}

/* One side: its trimmed mean, the kept count h, and d = (n-1) s_w^2 / (h (h-1)). */
static bool side(const double *v, size_t n, struct pt_trim trim, double *mean, double *d, size_t *h)
{
	size_t lo = cut(trim.lo, n), hi = cut(trim.hi, n), i;
	double *s, wmean = 0, ss = 0, sum = 0;

	if (n < 2 || !enough(trim, n))
		return false;
	s = malloc(n * sizeof(*s));
	if (!s)
		return false;
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			free(s);
			return false;
		}
		s[i] = v[i];
	}
	pt_sort_doubles(s, n);
	*h = n - lo - hi;
	for (i = lo; i < n - hi; i++)
		sum += s[i];
	*mean = sum / (double)*h;
	/* winsorized: the cut values replaced by the nearest kept one */
	for (i = 0; i < n; i++)
		s[i] = s[i < lo ? lo : i >= n - hi ? n - hi - 1 : i];
	for (i = 0; i < n; i++)
		wmean += s[i];
	wmean /= (double)n;
	for (i = 0; i < n; i++)
		ss += (s[i] - wmean) * (s[i] - wmean);
	*d = ss / ((double)*h * (double)(*h - 1));
	free(s);
	return true;
}

bool pt_yuen(const double *a, size_t na, const double *b, size_t nb, struct pt_trim trim,
	     struct pt_yuen *out)
{
	double ma, mb, da, db, se2;
	size_t ha, hb;

	if (!side(a, na, trim, &ma, &da, &ha) || !side(b, nb, trim, &mb, &db, &hb))
		return false;
	memset(out, 0, sizeof(*out));
	out->diff = mb - ma;
	se2 = da + db;
	if (!(se2 > 0)) {
		/* no spread on either side: the means differ or they do not */
		out->t = out->diff > 0 ? INFINITY : out->diff < 0 ? -INFINITY : 0;
		out->df = (double)(ha + hb - 2);
		out->p_greater = out->diff > 0 ? 0 : 1;
		out->p_two = out->diff != 0 ? 0 : 1;
		return true;
	}
	out->t = out->diff / sqrt(se2);
	out->df = se2 * se2 / (da * da / (double)(ha - 1) + db * db / (double)(hb - 1));
	out->p_greater = pt_t_sf(out->t, out->df);
	out->p_two = 2 * pt_t_sf(fabs(out->t), out->df);
	if (out->p_two > 1)
		out->p_two = 1;
	return true;
}
