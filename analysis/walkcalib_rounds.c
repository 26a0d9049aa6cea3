// SPDX-License-Identifier: GPL-2.0-only
/*
 * How the host moved during a run, round by round (walkcalib.h): a fit
 * with one effective LLC and one set of latencies describes one state of
 * the host, and the medians it is fitted to mix every state the rounds saw.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/calibpoints.h"
#include "analysis/walkcalib.h"

/* Points from this working set up feel the host's caches and translation. */
#define ROUND_MIN_WS (16ull << 20)

static int rep_slot(const int *rep, size_t n, int r)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (rep[k] == r)
			return (int)k;
	return -1;
}

size_t pt_walkcalib_rounds(const struct pt_walkcalib *c, const struct pt_rundir *run, int *rep,
			   double *ratio, size_t max)
{
	double *sum = calloc(max, sizeof(*sum));
	size_t *cnt = calloc(max, sizeof(*cnt)), n = 0, i, k, out = 0;

	if (!sum || !cnt)
		goto done;
	for (i = 0; i < c->n; i++) {
		const struct pt_series *s = pt_calib_point_series(run, &c->p[i]);

		if (!s || !s->reps || c->p[i].ws < ROUND_MIN_WS || !(c->y[i] > 0))
			continue;
		for (k = 0; k < s->n; k++) {
			int at = rep_slot(rep, n, s->reps[k]);

			if (!(s->values[k] > 0))
				continue;
			if (at < 0) {
				if (n == max)
					continue;
				at = (int)n;
				rep[n++] = s->reps[k];
			}
			sum[at] += log(s->values[k] / c->y[i]);
			cnt[at]++;
		}
	}
	/* in repetition order, each the geometric mean of its points over their measured values */
	for (k = 0; k < n; k++) {
		size_t best = k, j;

		for (j = k + 1; j < n; j++)
			if (rep[j] < rep[best])
				best = j;
		if (best != k) {
			int tr = rep[k];
			double ts = sum[k];
			size_t tc = cnt[k];

			rep[k] = rep[best];
			sum[k] = sum[best];
			cnt[k] = cnt[best];
			rep[best] = tr;
			sum[best] = ts;
			cnt[best] = tc;
		}
		ratio[k] = cnt[k] ? exp(sum[k] / (double)cnt[k]) : NAN;
	}
	out = n;
done:
	free(sum);
	free(cnt);
	return out;
}
