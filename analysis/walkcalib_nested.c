// SPDX-License-Identifier: GPL-2.0-only
/*
 * The held-out error of the calibration's choice, with the choice made out
 * of sample too. The chosen configuration is the one with the smallest
 * held-out error of all those judged, so its own held-out error is the
 * smallest of many and flatters it. Here each working set in turn is left
 * out of the choice: among every configuration judged, the one with the
 * smallest worse-of-the-two held-out error over the other working sets'
 * cases predicts the left-out cases (its held-out predictions of them).
 * The search's path, which configurations were judged at all, still saw
 * every case; that much of the bias stays.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analysis/walkcalib.h"
#include "model/walk_fit.h"

/* RMS relative error of pred against y over the points not at ws (NAN predictions skipped). */
static double rms_without(const struct pt_walkcalib *c, const double *pred, uint64_t ws)
{
	double sum = 0;
	size_t i, m = 0;

	for (i = 0; i < c->n; i++) {
		double e;

		if (c->p[i].ws == ws || isnan(pred[i]))
			continue;
		e = (pred[i] - c->y[i]) / c->y[i];
		sum += e * e;
		m++;
	}
	return m ? sqrt(sum / (double)m) : NAN;
}

/* As pt_walkcalib_judge's worse: the larger of the two, or the one there is. */
static double worse_of(double huge, double ws)
{
	if (isnan(huge))
		return ws;
	if (isnan(ws))
		return huge;
	return fmax(huge, ws);
}

/* The configuration chosen without the cases at ws: its predictions, or NULL if none. */
static void choose_without(const struct pt_walkcalib *c, uint64_t ws, const double **huge,
			   const double **lowo)
{
	double best = INFINITY;
	size_t k, j, n = c->n;

	*huge = *lowo = NULL;
	for (k = 0; k < c->nh; k++) {
		const struct pt_walkcalib_hyp *h = &c->h[k];

		for (j = 0; j < h->ncv; j++) {
			const double *ph = h->cv_huge + j * n, *pw = h->cv_ws + j * n;
			double e = worse_of(rms_without(c, ph, ws), rms_without(c, pw, ws));

			if (e < best) {
				best = e;
				*huge = ph;
				*lowo = pw;
			}
		}
	}
}

void pt_walkcalib_nested(struct pt_walkcalib *c)
{
	double *huge = malloc(c->n * sizeof(*huge)), *lowo = malloc(c->n * sizeof(*lowo));
	bool *done = calloc(c->n, sizeof(*done));
	size_t i, k;

	c->nested_huge = c->nested_ws = c->nested_worse = NAN;
	if (!huge || !lowo || !done)
		goto out;
	for (i = 0; i < c->n; i++) {
		const double *ph, *pw;

		if (done[i])
			continue; /* its working set's cases have their predictions */
		choose_without(c, c->p[i].ws, &ph, &pw);
		if (!ph)
			goto out;
		for (k = i; k < c->n; k++) {
			if (c->p[k].ws != c->p[i].ws)
				continue;
			huge[k] = ph[k];
			lowo[k] = pw[k];
			done[k] = true;
		}
	}
	c->nested_huge = pt_fit_rms_pred(c->y, huge, c->n);
	c->nested_ws = pt_fit_rms_pred(c->y, lowo, c->n);
	c->nested_worse = worse_of(c->nested_huge, c->nested_ws);
out:
	free(huge);
	free(lowo);
	free(done);
}
