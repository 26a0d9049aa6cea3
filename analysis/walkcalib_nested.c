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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The configuration chosen without the cases at ws: hypothesis *hk's *jk-th; false if none. */
static bool choose_without(const struct pt_walkcalib *c, uint64_t ws, size_t *hk, size_t *jk)
{
	double best = INFINITY;
	size_t k, j, n = c->n;

	for (k = 0; k < c->nh; k++) {
		const struct pt_walkcalib_hyp *h = &c->h[k];

		for (j = 0; j < h->ncv; j++) {
			double e = pt_walkcalib_worse(rms_without(c, h->cv_huge + j * n, ws),
						      rms_without(c, h->cv_ws + j * n, ws));

			if (e < best) {
				best = e;
				*hk = k;
				*jk = j;
			}
		}
	}
	return best < INFINITY;
}

void pt_walkcalib_cfg_label(const struct pt_walkcalib_hyp *h, const struct pt_walk_cfg *cfg,
			    char *buf, size_t len)
{
	char nested[32] = "", evict[32] = "";

	if (cfg->l2tlb_evictions > 0)
		snprintf(evict, sizeof(evict), "+e%g", cfg->l2tlb_evictions);
	if (cfg->s2.format >= 0)
		snprintf(nested, sizeof(nested), "+n%llu", (unsigned long long)cfg->s2.tlb_entries);
	snprintf(buf, len, "%s llc=%gM%s tlb=%llu%s/%llu%s%s%s", h->name,
		 cfg->cache[2].size_bytes / 1048576.0, cfg->cache[2].random ? "/r" : "",
		 (unsigned long long)cfg->l1tlb_entries, cfg->l1tlb_random ? "r" : "",
		 (unsigned long long)cfg->l2tlb_entries, cfg->tlb_random ? "r" : "", evict, nested);
}

/* Note the working set ws's choice when it is not the chosen configuration. */
static void note_choice(struct pt_walkcalib *c, uint64_t ws, size_t hk, size_t jk)
{
	const struct pt_walkcalib_hyp *best = &c->h[c->best], *h = &c->h[hk];
	char label[80], chosen[80];

	pt_walkcalib_cfg_label(h, &h->cv_cfg[jk], label, sizeof(label));
	pt_walkcalib_cfg_label(best, &best->cfg, chosen, sizeof(chosen));
	if (!strcmp(label, chosen))
		return;
	if (c->nested_other < PT_WALKCALIB_MAX_NESTED)
		snprintf(c->nested_choice[c->nested_other], sizeof(c->nested_choice[0]), "%gM=%s",
			 ws / 1048576.0, label);
	c->nested_other++;
}

void pt_walkcalib_nested(struct pt_walkcalib *c)
{
	double *huge = malloc(c->n * sizeof(*huge)), *lowo = malloc(c->n * sizeof(*lowo));
	bool *done = calloc(c->n, sizeof(*done));
	size_t i, k;

	c->nested_huge = c->nested_ws = c->nested_worse = NAN;
	c->nested_other = 0;
	if (!huge || !lowo || !done)
		goto out;
	for (i = 0; i < c->n; i++) {
		const double *ph, *pw;
		size_t hk = 0, jk = 0;

		if (done[i])
			continue; /* its working set's cases have their predictions */
		if (!choose_without(c, c->p[i].ws, &hk, &jk))
			goto out;
		note_choice(c, c->p[i].ws, hk, jk);
		ph = c->h[hk].cv_huge + jk * c->n;
		pw = c->h[hk].cv_ws + jk * c->n;
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
	c->nested_worse = pt_walkcalib_worse(c->nested_huge, c->nested_ws);
out:
	free(huge);
	free(lowo);
	free(done);
}
