// SPDX-License-Identifier: GPL-2.0-only
/* The hypotheses of the walk calibration, each fitted and judged out of sample. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/calibpoints.h"
#include "analysis/walkcalib.h"
#include "model/walk_cost.h"
#include "model/walk_fit.h"
#include "util/stats.h"

#define NOISE_FLOOR 0.05 /* relative spread below which a point's weight stops growing */
#define MAX_REPS 1024

static double median_of(double *v, size_t n)
{
	pt_sort_doubles(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Weight: relative error, less where the repetitions disagree (noisy points). */
static void set_weights(struct pt_walkcalib *c)
{
	double tmp[MAX_REPS];
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		size_t m = c->nreps[i] < MAX_REPS ? c->nreps[i] : MAX_REPS;
		double rd = 0;

		if (m >= 3) {
			for (k = 0; k < m; k++)
				tmp[k] = fabs(c->reps[i][k] - c->y[i]);
			rd = 1.4826 * median_of(tmp, m) / c->y[i];
		}
		c->w[i] = 1.0 / (c->y[i] * sqrt(NOISE_FLOOR * NOISE_FLOOR + rd * rd));
	}
}

/* The repetition numbers of the run's rounds: those of the points' series, ascending. */
static size_t round_numbers(const struct pt_walkcalib *c, const struct pt_rundir *run, int *rep,
			    size_t max)
{
	size_t n = 0, i, k, j;

	for (i = 0; i < c->n; i++) {
		const struct pt_series *s = pt_calib_point_series(run, &c->p[i]);

		for (k = 0; s && s->reps && k < s->n; k++) {
			for (j = 0; j < n && rep[j] != s->reps[k]; j++)
				;
			if (j < n || n == max)
				continue;
			/* insertion keeps rep[] ascending */
			for (j = n++; j > 0 && rep[j - 1] > s->reps[k]; j--)
				rep[j] = rep[j - 1];
			rep[j] = s->reps[k];
		}
	}
	return n;
}

/*
 * c->yr and wr: round r's value of each point in an interleaved run, or
 * the medians as the one round (walkcalib.h).
 */
static int set_rounds(struct pt_walkcalib *c, const struct pt_rundir *run)
{
	size_t nr = 0, r, i, k;

	c->round_rep = malloc(MAX_REPS * sizeof(*c->round_rep));
	if (!c->round_rep)
		return -1;
	if (!strcmp(run->meta.order, "interleaved"))
		nr = round_numbers(c, run, c->round_rep, MAX_REPS);
	if (nr < PT_WALKCALIB_MIN_ROUNDS) {
		nr = 1;
		c->round_rep[0] = -1;
	}
	c->nr = nr;
	c->yr = malloc(nr * c->n * sizeof(*c->yr));
	c->wr = malloc(nr * c->n * sizeof(*c->wr));
	if (!c->yr || !c->wr)
		return -1;
	for (r = 0; r < nr; r++)
		for (i = 0; i < c->n; i++) {
			const struct pt_series *s = pt_calib_point_series(run, &c->p[i]);
			double v = NAN;

			if (c->round_rep[r] < 0)
				v = c->y[i];
			for (k = 0; c->round_rep[r] >= 0 && s && s->reps && k < s->n; k++)
				if (s->reps[k] == c->round_rep[r] && s->values[k] > 0)
					v = s->values[k];
			c->yr[r * c->n + i] = v;
			/* the point's weight, relative to this round's value */
			c->wr[r * c->n + i] = isnan(v) ? 0 : c->w[i] * c->y[i] / v;
		}
	return 0;
}

static void add_hyp(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg, int fmt,
		    unsigned block_h, enum pt_guest_layout layout, bool shadow)
{
	struct pt_walkcalib_hyp *h = &c->h[c->nh++];

	h->base = -1;
	h->cfg = *cfg;
	h->cfg.s2.format = fmt;
	h->cfg.s2.block_h = block_h;
	h->cfg.s2.layout = layout;
	h->cfg.shadow = shadow;
	if (fmt < 0)
		snprintf(h->name, sizeof(h->name), "%s", shadow ? "shadow" : "one-stage");
	else
		snprintf(h->name, sizeof(h->name), "%snested-%s-host-%s-%s",
			 shadow ? "shadow-" : "", fmt ? "d128" : "d64", block_h ? "thp" : "4k",
			 layout ? "linear" : "scatter");
}

/* What a hypothesis holds per point and per round, zeroed. */
static int alloc_hyp(const struct pt_walkcalib *c, struct pt_walkcalib_hyp *h)
{
	h->f = calloc(c->n, sizeof(*h->f));
	h->fc = calloc(c->n, sizeof(*h->fc));
	h->latr = calloc(c->nr, sizeof(*h->latr));
	h->fitted = calloc(c->n, sizeof(*h->fitted));
	h->d128 = calloc(c->n, sizeof(*h->d128));
	return h->f && h->fc && h->latr && h->fitted && h->d128 ? 0 : -1;
}

/*
 * Each structure that passes, searched, again with its data loads filling
 * their 128-byte pair (cache.prefetch.lines = 2): a chase that uses one
 * line of a page then holds half as many lines in the L2 and the LLC as
 * the dense control, which uses both. On this project's PVM guest (AMD
 * EPYC, 2026-12-05) a random cycle over 6-8 MiB of lines, 32 per THP
 * page, cost 49-152 ns with every other line used and 23-111 ns with the
 * same number packed in pairs (results/walk-calibration/lines-per-page.txt);
 * but on ten kept runs held-out error fell with pairs on five and rose on
 * five (results/walk-calibration/NOTES.md), so whether the machine's
 * caches are described better so is decided per run, like everything
 * else. Only structures that pass: on the 2026-12-05 runs the shadow alone
 * and the THP-backed host never did (1.4-3.8 times the best held-out
 * error), and no variant of theirs would have been chosen.
 */
int pt_walkcalib_add_pairs(struct pt_walkcalib *c)
{
	double best = INFINITY;
	size_t k, n = c->nh;

	for (k = 0; k < n; k++)
		best = fmin(best, c->h[k].worse);
	for (k = 0; k < n && c->nh < PT_WALKCALIB_MAX_HYP; k++) {
		struct pt_walkcalib_hyp *h = &c->h[c->nh];
		char name[sizeof(h->name)];

		if (!(c->h[k].worse <= PT_WALKCALIB_PASS * best))
			continue;
		memcpy(name, c->h[k].name, sizeof(name));
		memset(h, 0, sizeof(*h));
		h->base = (int)k;
		h->cfg = c->h[k].cfg;
		h->cfg.prefetch_lines = 2;
		/* the longest structure's name, 34 characters, leaves room for the suffix */
		snprintf(h->name, sizeof(h->name), "%.*s-pairs",
			 (int)(sizeof(name) - sizeof("-pairs")), name);
		c->nh++;
		if (alloc_hyp(c, h))
			return -1;
	}
	return 0;
}

static void choose(struct pt_walkcalib *c)
{
	size_t k;

	c->best = 0;
	for (k = 1; k < c->nh; k++)
		if (c->h[k].worse < c->h[c->best].worse)
			c->best = k;
	for (k = 0; k < c->nh; k++)
		c->h[k].pass = c->h[k].worse <= PT_WALKCALIB_PASS * c->h[c->best].worse;
}

static int hypotheses(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg, bool forced, char *err,
		      size_t errlen)
{
	size_t k;
	unsigned j;

	for (j = 0; j < PT_LAT_N; j++)
		c->base[j] = cfg->lat[j] / cfg->ghz;
	if (forced) {
		add_hyp(c, cfg, cfg->s2.format, cfg->s2.block_h, cfg->s2.layout, cfg->shadow);
	} else if (c->recorded_virt == 0 && !c->all_structures) {
		/* a native host translates in one stage: no nested structure to choose */
		add_hyp(c, cfg, -1, 0, PT_LAYOUT_SCATTER, false);
	} else if (c->recorded_shadow && !c->all_structures) {
		/*
		 * A shadow-paging host (PVM): the hardware walks the shadow, alone
		 * or over its own host's stage 2. On every PVM run searched with
		 * all eight, a shadow structure was chosen, and the other five
		 * take most of the search's time (docs/walk.md).
		 */
		add_hyp(c, cfg, -1, 0, PT_LAYOUT_SCATTER, true);
		add_hyp(c, cfg, PT_D64, 0, PT_LAYOUT_SCATTER, true);
		add_hyp(c, cfg, PT_D64, 1, PT_LAYOUT_SCATTER, true);
		c->structures_restricted = true;
	} else if (c->recorded_nested && !c->all_structures) {
		/*
		 * A two-dimensional walk (KVM's default): host 4K or THP, the
		 * guest's frames scattered or in order. Neither a single stage
		 * nor a shadow describes such a host, and on a KVM guest's
		 * ./run.sh the other four took half of an eight-structure
		 * search that overran the 5-minute budget (docs/walk.md).
		 */
		add_hyp(c, cfg, PT_D64, 0, PT_LAYOUT_SCATTER, false);
		add_hyp(c, cfg, PT_D64, 0, PT_LAYOUT_LINEAR, false);
		add_hyp(c, cfg, PT_D64, 1, PT_LAYOUT_SCATTER, false);
		add_hyp(c, cfg, PT_D64, 1, PT_LAYOUT_LINEAR, false);
		c->structures_restricted = true;
	} else {
		/* the guest's frames as its allocator leaves them: scattered, or in order */
		add_hyp(c, cfg, -1, 0, PT_LAYOUT_SCATTER, false);
		add_hyp(c, cfg, -1, 0, PT_LAYOUT_SCATTER, true);
		add_hyp(c, cfg, PT_D64, 0, PT_LAYOUT_SCATTER, false);
		add_hyp(c, cfg, PT_D64, 0, PT_LAYOUT_LINEAR, false);
		add_hyp(c, cfg, PT_D64, 1, PT_LAYOUT_SCATTER, false);
		add_hyp(c, cfg, PT_D64, 1, PT_LAYOUT_LINEAR, false);
		/* a shadow-paging host that is itself a guest: the shadow over the host's stage 2 */
		add_hyp(c, cfg, PT_D64, 0, PT_LAYOUT_SCATTER, true);
		add_hyp(c, cfg, PT_D64, 1, PT_LAYOUT_SCATTER, true);
	}
	for (k = 0; k < c->nh; k++) {
		if (alloc_hyp(c, &c->h[k])) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	if (pt_walkcalib_search(c, err, errlen))
		return -1;
	choose(c);
	pt_walkcalib_nested(c);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void pt_walkcalib_progress(const struct pt_walkcalib *c, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	if (!c->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one call: lines from the search's threads do not interleave */
	fprintf(c->progress, "ptbench model walk calibrate: %s; %.0f s elapsed\n", line,
		now_s() - c->t0);
	fflush(c->progress);
}

int pt_walkcalib_run(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg,
		     const struct pt_walkcalib_opts *o, struct pt_calib_point *pts, size_t n,
		     const struct pt_rundir *run, char *err, size_t errlen)
{
	size_t k;

	memset(c, 0, sizeof(*c));
	c->tlb_forced = o->tlb_forced;
	c->repl_forced = o->repl_forced;
	c->tlb_repl_forced = o->tlb_repl_forced;
	c->l1tlb_repl_forced = o->l1tlb_repl_forced;
	c->evictions_forced = o->evictions_forced;
	c->ntlb_forced = o->ntlb_forced;
	c->llc_forced = o->llc_forced;
	c->pairs_forced = o->pairs_forced;
	c->progress = o->progress;
	c->stat = o->stat;
	c->drop = o->drop;
	c->t0 = now_s();
	c->p = pts;
	c->n = n;
	c->y = calloc(n, sizeof(*c->y));
	c->w = calloc(n, sizeof(*c->w));
	c->reps = calloc(n, sizeof(*c->reps));
	c->nreps = calloc(n, sizeof(*c->nreps));
	c->lo = calloc(n, sizeof(*c->lo));
	c->hi = calloc(n, sizeof(*c->hi));
	if (!c->y || !c->w || !c->reps || !c->nreps || !c->lo || !c->hi) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (k = 0; k < n; k++) {
		c->y[k] = pts[k].measured_ns;
		if (pt_calib_point_values(run, &pts[k], &c->reps[k], &c->nreps[k]))
			c->nreps[k] = 0;
	}
	set_weights(c);
	if (set_rounds(c, run)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->recorded_shadow = !strcmp(run->meta.paging, "shadow");
	c->recorded_nested = !strcmp(run->meta.paging, "nested");
	c->all_structures = o->all_structures;
	c->recorded_virt = !strcmp(run->meta.virtualized, "true")    ? 1
			   : !strcmp(run->meta.virtualized, "false") ? 0
								     : -1;
	if (hypotheses(c, cfg, o->stage2_forced, err, errlen))
		return -1;
	return pt_walkcalib_ranges(c, err, errlen);
}

static void hyp_free(struct pt_walkcalib_hyp *h)
{
	free(h->f);
	free(h->fc);
	free(h->latr);
	free(h->fitted);
	free(h->d128);
	free(h->cv_huge);
	free(h->cv_ws);
	free(h->cv_cfg);
}

void pt_walkcalib_free(struct pt_walkcalib *c)
{
	size_t k;

	for (k = 0; k < c->nh; k++)
		hyp_free(&c->h[k]);
	free(c->round_rep);
	free(c->yr);
	free(c->wr);
	free(c->y);
	free(c->w);
	free(c->reps);
	free(c->nreps);
	free(c->lo);
	free(c->hi);
	memset(c, 0, sizeof(*c));
}

double pt_walkcalib_fitted(const struct pt_walkcalib *c, size_t i)
{
	return c->h[c->best].fitted[i];
}

const double *pt_walkcalib_features(const struct pt_walkcalib *c, size_t i)
{
	return c->h[c->best].f[i];
}

double pt_walkcalib_d128(const struct pt_walkcalib *c, size_t i, enum pt_d128_at at)
{
	return c->h[c->best].d128[i][at];
}

bool pt_walkcalib_reps_range(const struct pt_walkcalib *c, size_t i, double *lo, double *hi)
{
	size_t k, m = 0;

	for (k = 0; k < c->nreps[i]; k++) {
		double v = c->reps[i][k];

		if (!(v > 0))
			continue;
		if (!m || v < *lo)
			*lo = v;
		if (!m || v > *hi)
			*hi = v;
		m++;
	}
	return m >= 2;
}

bool pt_walkcalib_unsteady(const struct pt_walkcalib *c, size_t i, double *spread)
{
	double lo, hi;

	if (!pt_walkcalib_reps_range(c, i, &lo, &hi))
		return false;
	*spread = hi / lo;
	return *spread > PT_WALKCALIB_UNSTEADY;
}

/*
 * The half-density chase touches 4 of the 8 D64 descriptors in each leaf
 * line, as D128 does at stride 1: predicted from the fit that never saw it.
 */
double pt_walkcalib_check_rms(const struct pt_walkcalib *c, size_t *n)
{
	double sum = 0;
	size_t i;

	*n = 0;
	for (i = 0; i < c->n; i++) {
		double e;

		if (pt_fit_role_of(&c->p[i]) != PT_FIT_CHECK)
			continue;
		e = (pt_walkcalib_fitted(c, i) - c->y[i]) / c->y[i];
		sum += e * e;
		(*n)++;
	}
	return *n ? sqrt(sum / (double)*n) : NAN;
}
