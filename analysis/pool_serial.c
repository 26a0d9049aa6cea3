// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pool_serial.h"

/* A run to be put in time order: its start (NAN: unknown) and where it was given. */
struct timed_run {
	double start;
	unsigned run;
	size_t pos;
};

static int by_start(const void *pa, const void *pb)
{
	const struct timed_run *a = pa, *b = pb;

	/* runs without a time last, each in its given order */
	if (isnan(a->start) || isnan(b->start)) {
		if (isnan(a->start) != isnan(b->start))
			return isnan(a->start) ? 1 : -1;
	} else if (a->start != b->start) {
		return a->start > b->start ? 1 : -1;
	}
	return (a->pos > b->pos) - (a->pos < b->pos);
}

static double time_of(const double *t, size_t ntimes, unsigned run)
{
	return t && run < ntimes ? t[run] : NAN;
}

int pt_pool_chain_make(const double *start, const double *end, size_t ntimes, const unsigned *runs,
		       size_t n, struct pt_pool_chain *c)
{
	struct timed_run *tr = malloc((n ? n : 1) * sizeof(*tr));
	size_t i;

	memset(c, 0, sizeof(*c));
	c->run = malloc((n ? n : 1) * sizeof(*c->run));
	c->b2b = calloc(n ? n : 1, sizeof(*c->b2b));
	if (!c->run || !c->b2b || !tr) {
		free(tr);
		pt_pool_chain_free(c);
		return -1;
	}
	for (i = 0; i < n; i++) {
		tr[i] = (struct timed_run){ time_of(start, ntimes, runs[i]), runs[i], i };
		if (isnan(time_of(end, ntimes, runs[i])))
			tr[i].start = NAN;
	}
	qsort(tr, n, sizeof(*tr), by_start);
	for (i = 0; i < n; i++) {
		c->run[i] = tr[i].run;
		if (i && !isnan(tr[i].start) && !isnan(tr[i - 1].start)) {
			/* a second's slack: the times are written to the second */
			double gap = tr[i].start - time_of(end, ntimes, tr[i - 1].run);

			c->b2b[i] = gap >= -1 && gap <= PT_POOL_SERIAL_GAP_S;
		}
	}
	c->n = n;
	free(tr);
	return 0;
}

void pt_pool_chain_free(struct pt_pool_chain *c)
{
	free(c->run);
	free(c->b2b);
	memset(c, 0, sizeof(*c));
}

/* Are the runs at positions i and i + lag joined by runs made back to back? */
static bool chained(const struct pt_pool_chain *c, size_t i, size_t lag)
{
	size_t k;

	for (k = i + 1; k <= i + lag; k++)
		if (!c->b2b[k])
			return false;
	return true;
}

void pt_pool_serial_set(struct pt_pool_serial *s, enum pt_pool_serial_mode mode, double rho1)
{
	size_t j;

	memset(s, 0, sizeof(*s));
	s->mode = mode;
	s->rho[0] = 1;
	for (j = 1; mode == PT_POOL_SERIAL_FIXED && j <= PT_POOL_SERIAL_LAGS; j++)
		s->rho[j] = s->rho[j - 1] * rho1;
}

void pt_pool_serial_estimate(struct pt_pool_serial *s, const double *res, size_t nser, size_t nrun,
			     const struct pt_pool_chain *c)
{
	double sum[PT_POOL_SERIAL_LAGS + 1] = { 0 };
	size_t j, i, lag;

	pt_pool_serial_set(s, PT_POOL_SERIAL_AUTO, 0);
	for (i = 0; i + 1 < c->n; i++)
		s->run_pairs += chained(c, i, 1);
	for (j = 0; j < nser; j++) {
		const double *e = res + j * nrun;
		double mean = 0, var = 0;
		size_t m = 0;

		for (i = 0; i < c->n; i++)
			if (!isnan(e[c->run[i]])) {
				mean += e[c->run[i]];
				m++;
			}
		if (m < 3)
			continue;
		mean /= (double)m;
		for (i = 0; i < c->n; i++)
			if (!isnan(e[c->run[i]]))
				var += (e[c->run[i]] - mean) * (e[c->run[i]] - mean);
		var /= (double)m;
		if (!(var > 0))
			continue;
		s->series++;
		/* products of standardised residuals, so no one series' spread weighs more */
		for (lag = 1; lag <= PT_POOL_SERIAL_LAGS; lag++)
			for (i = 0; i + lag < c->n; i++) {
				double a = e[c->run[i]], b = e[c->run[i + lag]];

				if (isnan(a) || isnan(b) || !chained(c, i, lag))
					continue;
				sum[lag] += (a - mean) * (b - mean) / var;
				s->pairs[lag]++;
			}
	}
	/* a negative estimate is noise here, and taken as 0 it never narrows the test */
	for (lag = 1; lag <= PT_POOL_SERIAL_LAGS; lag++)
		if (s->pairs[lag] >= PT_POOL_SERIAL_MIN_PAIRS)
			s->rho[lag] = fmin(PT_POOL_SERIAL_MAX_RHO,
					   fmax(0, sum[lag] / (double)s->pairs[lag]));
}

double pt_pool_serial_sum(const struct pt_pool_serial *s, const struct pt_pool_chain *c)
{
	double sum = (double)c->n;
	size_t i, lag;

	for (lag = 1; lag <= PT_POOL_SERIAL_LAGS; lag++)
		for (i = 0; s->rho[lag] > 0 && i + lag < c->n; i++)
			if (chained(c, i, lag))
				sum += 2 * s->rho[lag];
	return sum;
}
