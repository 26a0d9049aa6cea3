// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model walk calibrate's printed report (cmd_walk_calibrate.c runs
 * the calibration): what meta.json recorded, the hypotheses searched, the
 * chosen configuration, its fit, held-out and half-density errors, the
 * floor and noise beside them, each point's D128 ranges, the counters and
 * the rounds.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/calibpoints.h"
#include "analysis/walkcalib.h"
#include "analysis/walkcounters.h"
#include "cli/cmd_walk.h"
#include "model/walk_fit.h"

#define MAX_ROUNDS 256

/* What the run's meta.json says of virtualization, when it says, and what that decided. */
static void print_recorded(const struct pt_rundir *run, const struct pt_walkcalib *c, bool forced)
{
	const char *h = run->meta.hypervisor;
	bool named = *h && strcmp(h, "null");

	if (c->recorded_virt < 0)
		return;
	printf("# %s/meta.json: env.virtualization.virtualized = %s%s%s%s\n", run->path,
	       run->meta.virtualized, named ? " (" : "", named ? h : "", named ? ")" : "");
	if (forced)
		return;
	if (c->recorded_virt == 0 && !c->all_structures)
		printf("# recorded as native: one stage only (--structures all: every structure)\n");
	else if (c->recorded_shadow && !c->all_structures)
		printf("# recorded paging: shadow: the three structures with a shadow only "
		       "(--structures all: every structure)\n");
	else if (c->recorded_shadow) /* chosen from the timings alone: does it match? */
		printf("# recorded paging: shadow; the chosen structure %s a shadow first stage\n",
		       c->h[c->best].cfg.shadow ? "has" : "does not have");
	else if (c->recorded_nested && !c->all_structures)
		printf("# recorded paging: nested (assumed from the hypervisor): the four nested "
		       "structures without a shadow (--structures all: every structure)\n");
	else if (c->recorded_nested)
		printf("# recorded paging: nested (assumed); the chosen structure %s nested "
		       "without a shadow\n",
		       c->h[c->best].cfg.s2.format >= 0 && !c->h[c->best].cfg.shadow ? "is"
										     : "is not");
}

static void print_hyps(const struct pt_walkcalib *c)
{
	size_t k, l;

	const char *what = c->stat == PT_CALIB_GMEAN ? "geometric mean" : "median";

	if (c->nr > 1)
		printf("# %zu rounds of an interleaved run fitted one by one; each point's "
		       "prediction is the %s of its rounds', its measurement the %s of its "
		       "repetitions (--stat %s)\n",
		       c->nr, what, what, pt_calib_stat_name(c->stat));
	else
		printf("# the %s fitted as one round (a sequential run, or fewer than %d rounds; "
		       "--stat %s)\n",
		       c->stat == PT_CALIB_GMEAN ? "geometric means" : "medians",
		       PT_WALKCALIB_MIN_ROUNDS, pt_calib_stat_name(c->stat));
	printf("# per hypothesis: the LLC sizes with LRU and (/r) random replacement (* judged at "
	       "its final TLB sizes, the others at the TLB before the TLB search), then the TLB "
	       "sizes and (/r) random replacement at the best, and (+n) last with two stages the "
	       "nested TLB's sizes, by held-out error; a -pairs variant (of a structure that "
	       "passes): the LLC's size alone, at its structure's TLBs and replacement\n");
	for (k = 0; k < c->nh; k++) {
		const struct pt_walkcalib_hyp *h = &c->h[k];

		printf("# %s: effective LLC by held-out rms_rel_err:", h->name);
		for (l = 0; l < h->nllc; l++)
			printf(" %gM%s=%.3f%s", h->llc[l] / 1048576.0, h->llc_random[l] ? "/r" : "",
			       h->llc_worse[l], h->llc_final[l] ? "*" : "");
		printf("\n");
		if (!h->ntlb)
			continue;
		printf("# %s: TLB L1/L2 entries (r: random replacement; +eN: N L2 entries "
		       "evicted by others per lookup; +nN: a nested TLB of N entries) by held-out "
		       "rms_rel_err:",
		       h->name);
		for (l = 0; l < h->ntlb; l++) {
			printf(" %llu%s/%llu%s", (unsigned long long)h->tlb[l].l1,
			       h->tlb[l].l1_random ? "r" : "", (unsigned long long)h->tlb[l].l2,
			       h->tlb[l].random ? "r" : "");
			if (h->tlb[l].evictions > 0)
				printf("+e%g", h->tlb[l].evictions);
			/* the first try is at the nested TLB the search started from */
			if (h->tlb[l].nested != h->tlb[0].nested)
				printf("+n%llu", (unsigned long long)h->tlb[l].nested);
			printf("=%.3f", h->tlb[l].worse);
		}
		printf("\n");
	}
	printf("# hypotheses (rms_rel_err): in-sample fit, held-out thp+hugetlb from 4k+dense, "
	       "held-out leave-one-ws-out, effective LLC\n");
	for (k = 0; k < c->nh; k++) {
		const struct pt_walkcalib_hyp *h = &c->h[k];

		printf("#   %-40s fit=%.3f heldout_huge=%.3f heldout_ws=%.3f llc=%gM%s "
		       "tlb=%llu%s/%llu%s",
		       h->name, h->fit, h->huge, h->lowo, h->cfg.cache[2].size_bytes / 1048576.0,
		       h->cfg.cache[2].random ? "/r" : "", (unsigned long long)h->cfg.l1tlb_entries,
		       h->cfg.l1tlb_random ? "r" : "", (unsigned long long)h->cfg.l2tlb_entries,
		       h->cfg.tlb_random ? "r" : "");
		if (h->cfg.l2tlb_evictions > 0)
			printf("+e%g", h->cfg.l2tlb_evictions);
		if (h->cfg.s2.format >= 0)
			printf("+n%llu", (unsigned long long)h->cfg.s2.tlb_entries);
		printf("%s%s", k == c->best ? "  <- chosen" : "",
		       h->pass && k != c->best ? "  (passes)" : "");
		if (h->dropped)
			printf("  (dropped after its TLB sizes: %.2f times the best)",
			       h->drop_ratio);
		printf("\n");
	}
}

/* The half-density chase, predicted from a fit that never saw it. */
static void print_checks(const struct pt_walkcalib *c)
{
	double rms, lo, hi, spread;
	size_t i, n, unsteady = 0;

	for (i = 0; i < c->n; i++) {
		double pred = pt_walkcalib_fitted(c, i);

		if (pt_fit_role_of(&c->p[i]) != PT_FIT_CHECK)
			continue;
		printf("half: case=%s predicted_ns=%.3f measured_ns=%.3f rel_err=%+.4f", c->p[i].cs,
		       pred, c->y[i], (pred - c->y[i]) / c->y[i]);
		if (pt_walkcalib_reps_range(c, i, &lo, &hi)) {
			bool u = pt_walkcalib_unsteady(c, i, &spread);

			printf(" reps_min_ns=%.3f reps_max_ns=%.3f%s", lo, hi,
			       u ? " unsteady" : "");
			unsteady += u;
		}
		printf("\n");
	}
	rms = pt_walkcalib_check_rms(c, &n);
	if (n)
		printf("half: rms_rel_err=%.4f over %zu cases (never fitted), %zu unsteady\n", rms,
		       n, unsteady);
}

/* Below it a relative error of walks per access says nothing (0.001 against 0.002). */
#define COUNTER_FLOOR 0.05

/*
 * The simulated TLB misses against the hardware's counts, where the run
 * recorded counters with a fixed meaning (analysis/walkcounters.h).
 */
static void print_counters(const struct pt_walkcalib *c, const struct pt_rundir *run)
{
	static double meas[PT_CALIB_MAX_POINTS], sim[PT_CALIB_MAX_POINTS];
	const struct pt_walkcount_measure *m;
	size_t nm = pt_walkcount_measures(&m), k, i, n, used;
	bool any = false;
	double rms;

	for (k = 0; k < nm; k++) {
		for (i = 0, n = 0; i < c->n; i++) {
			if (pt_walkcount_measured(run, c->p[i].cs, &m[k], &meas[n]))
				continue;
			sim[n] = pt_walkcalib_features(c, i)[m[k].feature];
			if (!n)
				printf("# %s per access, %s%s: case, measured, simulated (the chosen model, D64)\n",
				       m[k].what, m[k].events[0], m[k].events[1] ? " + ..." : "");
			printf("#   %-20s %8.4f %8.4f\n", c->p[i].cs, meas[n], sim[n]);
			n++;
		}
		if (!n)
			continue;
		any = true;
		rms = pt_walkcount_rms(meas, sim, n, COUNTER_FLOOR, &used);
		printf("counters: %s_per_access rms_rel_err=%.4f over %zu of %zu cases (at least "
		       "%.2f per access either way) event=%s\n",
		       m[k].what, rms, used, n, COUNTER_FLOOR, m[k].events[0]);
	}
	if (!any)
		printf("counters: none recorded: the simulated TLB misses are not checked against "
		       "the hardware (no PMU, or no walk counter this CPU is known for)\n");
}

/*
 * How far the rounds of the run were apart: the host moves during a run,
 * and one fitted host state is fitted to medians over all its states.
 */
static void print_rounds(const struct pt_walkcalib *c, const struct pt_rundir *run)
{
	static int rep[MAX_ROUNDS];
	static double ratio[MAX_ROUNDS];
	size_t n = pt_walkcalib_rounds(c, run, rep, ratio, MAX_ROUNDS), k;
	double sum = 0, sq = 0;

	if (n < 2)
		return;
	printf("# per round, its tlb cases from 16M against their measured values (--stat %s; "
	       "geometric mean over the cases):",
	       pt_calib_stat_name(c->stat));
	for (k = 0; k < n; k++) {
		printf(" %d=%.2f", rep[k], ratio[k]);
		sum += log(ratio[k]);
		sq += log(ratio[k]) * log(ratio[k]);
	}
	printf("\nrounds: n=%zu sd_ln=%.3f\n", n,
	       sqrt(fmax(0, (sq - sum * sum / (double)n) / (double)(n - 1))));
}

void walk_calibrate_print(const struct pt_rundir *run, const struct pt_walkcalib *c, bool forced)
{
	print_recorded(run, c, forced);
	print_hyps(c);
	walk_calibrate_print_result(c);
	print_checks(c);
	print_counters(c, run);
	print_rounds(c, run);
}
