/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ptbench model walk calibrate, less its options and printing (docs/walk.md,
 * "Calibration"): the machine's structure is not assumed but chosen among
 * discrete hypotheses (one stage; a shadow of the guest's tables with 4K
 * leaves, as a shadow-paging host such as PVM builds; nested with the
 * guest's memory backed by host 4K pages or THP, its frames scattered or in
 * order, with or without such a shadow as the first stage; the effective
 * LLC size; the TLB sizes, which a guest's CPUID and sysfs do not reliably
 * give), each fitted in two stages (model/walk_fit.h) on a run's calibration
 * points (analysis/calibpoints.h) and judged out of sample: fitted on the
 * base-page chases and the dense control it predicts the THP and hugetlb
 * chases, and leaving one working set out it predicts that working set. The
 * hypothesis with the smallest of the worse held-out error is chosen; the
 * D128 ranges span the bootstrap over repetitions and every hypothesis
 * whose held-out error is close to it. walk_model.csv: results/SCHEMA.md.
 */
#ifndef PTBENCH_ANALYSIS_WALKCALIB_H
#define PTBENCH_ANALYSIS_WALKCALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/calibpoints.h"
#include "analysis/rundir.h"
#include "model/calib.h"
#include "model/walk_cfg.h"

#define PT_WALKCALIB_MAX_HYP 16 /* eight structures, each with data lines single or in pairs */
#define PT_WALKCALIB_MAX_LLC 20 /* the sizes, with LRU and with random replacement */
#define PT_WALKCALIB_MAX_TLB 20
#define PT_WALKCALIB_MAX_LLC_WAYS 64 /* the most ways an LLC size searched is given */
/* A hypothesis, LLC or TLB size within 25% of the best held-out error passes: its ranges count. */
#define PT_WALKCALIB_PASS 1.25
/*
 * After every structure's first steps (its LLC sizes, then its TLB sizes),
 * one whose held-out error is more than this times the smallest is searched
 * no further: the best only falls, so it cannot pass. On the eight KVM runs
 * of 2026-12-06 calibrated with --stat gmean, the THP-backed hosts ended at
 * 3.2-5.1 times the best held-out error and took about 45 s of one thread
 * each, which put ./run.sh past its 5 minutes once
 * (results/walk-calibration/drop-2026-12-07).
 */
#define PT_WALKCALIB_DROP 2.0
/*
 * At most this many configurations widen the D128 ranges: every passing
 * hypothesis' own, then their passing LLC and TLB alternatives by held-out
 * error. Where every fit is poor nearly all pass (34 on one run of this
 * project's PVM guest, whose D128 simulations alone took 110 s and put
 * ./run.sh past its 5 minutes); the most any run of 2026-12-05 had
 * otherwise was 6.
 */
#define PT_WALKCALIB_MAX_RANGE_CONFIGS 8
#define PT_WALKCALIB_MAX_NESTED 32 /* working sets whose nested choice is listed */
/* Fewer rounds than this and the medians are fitted as one round. */
#define PT_WALKCALIB_MIN_ROUNDS 3

/* One TLB size tried: entries and ways of the L1 and L2 TLBs. */
struct pt_walkcalib_tlb {
	uint64_t l1, l2;
	unsigned l1_ways, l2_ways;
	double worse; /* held-out error with it */
	bool random; /* the L2's replacement random, not LRU */
	bool l1_random; /* the L1's */
	double evictions; /* L2 entries evicted by others per lookup */
	uint64_t nested; /* nested TLB (stage2.tlb) entries; unused with one stage */
	unsigned nested_ways;
};

/* Where D128 is used: the guest's tables, the host's, or both. */
enum pt_d128_at { PT_D128_GUEST, PT_D128_HOST, PT_D128_BOTH, PT_D128_AT_N };

struct pt_walkcalib_hyp {
	char name[48]; /* one-stage, shadow, nested-d64-host-4k-scatter, ... */
	/* a -pairs variant: the hypothesis it varies, searched first; else -1 */
	int base;
	struct pt_walk_cfg cfg; /* its structure and chosen effective LLC */
	double (*f)[PT_LAT_N]; /* D64 at both stages, per point */
	double (*fc)[PT_D128_AT_N][PT_LAT_N]; /* D128 where pt_d128_at says */
	double lat[PT_LAT_N]; /* fitted, ns: each term's median over the rounds' fits */
	double (*latr)
		[PT_LAT_N]; /* per round: fitted on that round's points; NAN when it could not be */
	double *fitted; /* per point: the median over the rounds of its fitted (check: predicted) cost */
	double (*d128)[PT_D128_AT_N]; /* per point: the same with D128 (passing hypotheses) */
	double fit, huge, lowo, worse; /* in-sample, held-out huge, ws, worse */
	bool pass; /* held-out error close to the best: its ranges count */
	struct pt_walk_cfg before; /* its configuration before the TLB search */
	/* searched no further after its first steps (pt_walkcalib.drop); its error over the best's */
	bool dropped;
	double drop_ratio;
	uint64_t llc[PT_WALKCALIB_MAX_LLC]; /* effective LLC sizes tried */
	double llc_worse[PT_WALKCALIB_MAX_LLC]; /* and the held-out error of each */
	bool llc_final[PT_WALKCALIB_MAX_LLC]; /* that error is at the chosen TLB sizes */
	bool llc_random[PT_WALKCALIB_MAX_LLC]; /* tried with random replacement, not LRU */
	unsigned llc_ways[PT_WALKCALIB_MAX_LLC]; /* its ways (a power-of-two set count) */
	size_t nllc;
	struct pt_walkcalib_tlb tlb[PT_WALKCALIB_MAX_TLB]; /* TLB sizes tried */
	size_t ntlb;
	/*
	 * Every configuration judged (walkcalib_search.c's try_cfg), ncv of
	 * them: per point, its held-out predictions (NAN where none), for the
	 * nested estimate (walkcalib_nested.c). pred_huge, pred_ws: where
	 * pt_walkcalib_judge puts one configuration's, when set.
	 */
	double *cv_huge, *cv_ws; /* ncv x n */
	struct pt_walk_cfg *cv_cfg; /* ncv: each one's configuration */
	size_t ncv;
	double *pred_huge, *pred_ws;
	char err[512]; /* why its search failed, when it did */
};

struct pt_walkcalib {
	struct pt_calib_point *p;
	size_t n;
	double *y, *w; /* measured ns per access, row weights */
	/*
	 * The rounds of an interleaved run: round r measured repetition r of
	 * every point within seconds, under one state of the host, so each round
	 * is fitted on its own and a point's prediction is the median of its
	 * rounds' (walkcalib_judge.c). yr, wr: nr x n, round r's value of point
	 * i (NAN when missing) and its weight. A sequential run, or one of
	 * fewer than PT_WALKCALIB_MIN_ROUNDS, has one round: the medians.
	 */
	size_t nr;
	int *round_rep; /* the repetition number of each round; -1 for the medians */
	double *yr, *wr;
	const double **reps; /* each point's repetitions (bootstrap) */
	size_t *nreps;
	double base[PT_LAT_N]; /* ns: start point and the fixed terms */
	struct pt_walkcalib_hyp h[PT_WALKCALIB_MAX_HYP];
	size_t nh, best;
	/*
	 * The held-out errors with the choice among every configuration judged
	 * made without each working set in turn, that working set's cases then
	 * predicted by the configuration so chosen (walkcalib_nested.c): what
	 * the chosen one's held-out error would be had the choice not seen the
	 * cases it is judged on. NAN when it could not be formed.
	 */
	double nested_huge, nested_ws, nested_worse;
	/*
	 * The working sets whose nested choice was not the chosen
	 * configuration, and what it was: "ws=hypothesis llc=... tlb=..." each.
	 */
	size_t nested_other;
	char nested_choice[PT_WALKCALIB_MAX_NESTED][96];
	double (*lo)[PT_D128_AT_N], (*hi)[PT_D128_AT_N]; /* per point: D128/D64 range */
	/* configurations that passed, and how many of them widened the ranges */
	size_t range_passing, range_configs;
	/* what the run's meta.json recorded: 1 a guest, 0 native (one stage only), -1 not */
	int recorded_virt;
	/* meta.json recorded shadow paging (env.virtualization.paging, PVM) */
	bool recorded_shadow;
	/* meta.json recorded two-dimensional paging (KVM's default, assumed) */
	bool recorded_nested;
	/* the structures searched: the recorded environment's, or all eight */
	bool all_structures;
	/*
	 * A guest's structures limited to those of the paging meta.json
	 * records (shadow or nested): the record is an inference from the
	 * hypervisor, unlike a native host's, so the others may still fit.
	 */
	bool structures_restricted;
	/* the TLB sizes came from the user (--set tlb.*): no TLB size is searched */
	bool tlb_forced;
	/* the user chose the LLC's replacement (--set cache.llc.replacement): not searched */
	bool repl_forced;
	/* the same for the TLBs' (--set tlb.replacement) */
	bool tlb_repl_forced;
	/* the same for the L1 TLB's alone (tlb.replacement or tlb.l1.replacement) */
	bool l1tlb_repl_forced;
	/* the user gave the L2 TLB's evictions by others (tlb.l2.evictions) */
	bool evictions_forced;
	/* the user gave the nested TLB's size (stage2.tlb.*): not searched */
	bool ntlb_forced;
	/* the user gave the LLC's size (cache.llc.size): the only size tried */
	bool llc_forced;
	/* the user gave cache.prefetch.lines: no structure is tried with the other */
	bool pairs_forced;
	/* each point's statistic over its repetitions, and over its rounds' predictions */
	enum pt_calib_stat stat;
	/* PT_WALKCALIB_DROP or the user's (--drop); 0: every structure searched whole */
	double drop;
	FILE *progress; /* a line per step that takes seconds; NULL: silent */
	double t0; /* when the calibration started (CLOCK_MONOTONIC, s) */
};

struct pt_walkcalib_opts {
	bool stage2_forced; /* the user chose the structure (below) */
	bool tlb_forced; /* the user set the TLB sizes: none is searched */
	bool repl_forced; /* the user set the LLC's replacement: cfg's is kept */
	bool tlb_repl_forced; /* the user set the TLBs' replacement: cfg's is kept */
	bool l1tlb_repl_forced; /* the user set the L1 TLB's (either key): cfg's is kept */
	bool evictions_forced; /* the user set tlb.l2.evictions: cfg's is kept */
	bool ntlb_forced; /* the user set stage2.tlb.entries or .ways: cfg's are kept */
	bool llc_forced; /* the user set cache.llc.size: the only size tried */
	bool pairs_forced; /* the user set cache.prefetch.lines: cfg's is kept */
	bool all_structures; /* all eight, whatever meta.json records of the host */
	enum pt_calib_stat stat; /* the points' statistic: the one their measured_ns is */
	double drop; /* pt_walkcalib.drop: 0, or at least PT_WALKCALIB_PASS */
	FILE *progress; /* where progress lines go, NULL none */
};

/*
 * Calibrate on n points of run. cfg: the base configuration (host caches
 * already applied). o->stage2_forced: the user chose the structure (cfg->s2:
 * none, or that host format, backing and layout, and cfg->shadow);
 * otherwise a run whose meta.json records a native host
 * (env.virtualization) has one stage only, one that records shadow paging
 * the three with a shadow (shadow, shadow over a 4K- or THP-backed stage
 * 2), one that records nested paging the four nested without a shadow,
 * and any other run, or any with o->all_structures, the eight (one stage,
 * shadow, four nested, two shadow-over-nested) as the hypotheses.
 * 0, or -1 with the reason in err; c is to be freed either way.
 */
int pt_walkcalib_run(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg,
		     const struct pt_walkcalib_opts *o, struct pt_calib_point *pts, size_t n,
		     const struct pt_rundir *run, char *err, size_t errlen);
/* A progress line ("ptbench model walk calibrate: ...", seconds so far), when asked for. */
void pt_walkcalib_progress(const struct pt_walkcalib *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pt_walkcalib_free(struct pt_walkcalib *c);
/*
 * After the structures' search: a -pairs variant (data loads filling their
 * 128-byte pair) of each that passes, appended to c->h (walkcalib.c). 0,
 * or -1 out of memory.
 */
int pt_walkcalib_add_pairs(struct pt_walkcalib *c);
/*
 * Ways for an LLC of size bytes that make its set count a power of two (the
 * simulator indexes sets by bit mask): ways itself where they do, else the
 * nearest to it of the line count's odd part times a power of two (16 for
 * a 1M LLC given 20 ways, 12 for 6M given 16). 0 when ways is 0 or no
 * count of at most PT_WALKCALIB_MAX_LLC_WAYS ways does.
 */
unsigned pt_walkcalib_llc_ways(uint64_t size, unsigned ways);

/* The chosen hypothesis' fitted ns per access at point i, and D128 there. */
double pt_walkcalib_fitted(const struct pt_walkcalib *c, size_t i);
/* The chosen model's D64 events per access of point i (PT_LAT_N of them). */
const double *pt_walkcalib_features(const struct pt_walkcalib *c, size_t i);
double pt_walkcalib_d128(const struct pt_walkcalib *c, size_t i, enum pt_d128_at at);
/*
 * The smallest and largest of point i's repetitions (ns per access): false
 * when it has fewer than two.
 */
bool pt_walkcalib_reps_range(const struct pt_walkcalib *c, size_t i, double *lo, double *hi);
/*
 * A point is unsteady when its largest repetition is more than this times
 * its smallest. On this project's PVM guest the host's cache share changes
 * over seconds inside one allocation (results/walk-calibration/NOTES.md,
 * 2026-12-05): a 256M chase went from 290 to 99 ns and back within 0.3 s,
 * so repetitions a round apart can differ by 3x. No model of a
 * fixed machine predicts both; the output names such points beside their
 * errors rather than hiding or dropping them.
 */
#define PT_WALKCALIB_UNSTEADY 1.5
/* Point i is unsteady; *spread: its largest repetition over its smallest. */
bool pt_walkcalib_unsteady(const struct pt_walkcalib *c, size_t i, double *spread);
/*
 * RMS relative error of the chosen fit's prediction over the check points
 * (model/walk_fit.h: PT_FIT_CHECK, never fitted), their count in *n; NAN
 * when there are none.
 */
double pt_walkcalib_check_rms(const struct pt_walkcalib *c, size_t *n);

/*
 * Search every hypothesis in c->h: its LLC and TLB sizes, fitted and
 * judged held out (walkcalib_search.c). 0, or -1 with the reason in err.
 */
int pt_walkcalib_search(struct pt_walkcalib *c, char *err, size_t errlen);
/*
 * Per repetition (round) of the run, the geometric mean over the points
 * from 16M up of its value over the point's measured value (c->stat): 1
 * for a round like the measured values; rounds far apart mean the host
 * changed during the run.
 * rep[] and ratio[] in repetition order; how many (at most max).
 * walkcalib_rounds.c.
 */
size_t pt_walkcalib_rounds(const struct pt_walkcalib *c, const struct pt_rundir *run, int *rep,
			   double *ratio, size_t max);
/*
 * Fit every round of c on features f (walkcalib_judge.c): latr[r], a NAN
 * first term when round r could not be fitted. 0, or -1 out of memory.
 */
int pt_walkcalib_fit_rounds(const struct pt_walkcalib *c, const double (*f)[PT_LAT_N],
			    double (*latr)[PT_LAT_N]);
/*
 * Fit and judge h (its f, latr and fitted set up, n and nr long): each
 * round fitted in sample, on 4K chases + dense (predicting the THP and
 * hugetlb chases), and leaving each working set out; each point's
 * predictions summarised as their median over the rounds and compared with
 * its measured median: h->fit, huge, lowo, worse, lat, latr, fitted.
 * 0, or -1 with the reason in err.
 */
int pt_walkcalib_judge(const struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, char *err,
		       size_t errlen);
/*
 * The smallest in-sample error (fit:) the chosen structure can reach on c's
 * data: the cases it simulates alike (equal D64 features) get one cost
 * whatever the latencies, so their measured disagreement stays. RMS over
 * the fitted cases; *groups: how many sets of two or more alike cases,
 * *grouped: the cases in them. NAN when nothing is fitted or out of memory.
 * walkcalib_floor.c.
 */
double pt_walkcalib_fit_floor(const struct pt_walkcalib *c, size_t *groups, size_t *grouped);
/*
 * The fit error the measurements' sampling noise alone leaves: the RMS over
 * the fitted points (check: the check points instead) of each point's
 * relative standard error, c->stat over a bootstrap of its repetitions;
 * *n: how many points. NAN when none has two repetitions.
 * walkcalib_noise.c.
 */
double pt_walkcalib_noise(const struct pt_walkcalib *c, bool check, size_t *n);
/* The held-out error a choice is made by: the worse of the two, or the one there is. */
double pt_walkcalib_worse(double huge, double lowo);
/*
 * c->nested_*: for each working set W, the configuration (of every
 * hypothesis) with the smallest worse-of-the-two held-out error over the
 * cases of the other working sets; W's cases take its held-out predictions.
 */
void pt_walkcalib_nested(struct pt_walkcalib *c);
/* A configuration of h in a few words: "name llc=8M/r tlb=96/4096r+e0.0156+n2048". */
void pt_walkcalib_cfg_label(const struct pt_walkcalib_hyp *h, const struct pt_walk_cfg *cfg,
			    char *buf, size_t len);
/* c->stat over the rounds where point i was measured of v[r * n + i]; NAN if none. */
double pt_walkcalib_round_stat(const struct pt_walkcalib *c, const double *v, size_t i);
/* Simulate the passing hypotheses with D128 and bootstrap their ranges (walkcalib_range.c). */
int pt_walkcalib_ranges(struct pt_walkcalib *c, char *err, size_t errlen);
/* walk_model.csv: measured, fitted-d64 and the three predicted-d128 rows of every point. */
void pt_walkcalib_csv(FILE *f, const struct pt_walkcalib *c);

#endif
