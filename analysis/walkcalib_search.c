// SPDX-License-Identifier: GPL-2.0-only
/*
 * The walk calibration's search (walkcalib.h): for each hypothesis, the
 * effective LLC, its replacement and the TLB sizes with the lowest
 * held-out error, the hypotheses shared among one thread per CPU.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/parallel.h"
#include "analysis/walkcalib.h"
#include "model/walk_cost.h"
#include "model/walk_fit.h"

static int simulate(struct pt_walkcalib *c, const struct pt_walk_cfg *cfg, double (*f)[PT_LAT_N],
		    char *err, size_t errlen)
{
	char why[256];
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (pt_fit_features(&c->p[i], cfg, PT_D64, f[i], why, sizeof(why))) {
			snprintf(err, errlen, "case %s: %s", c->p[i].cs, why);
			return -1;
		}
	}
	return 0;
}

unsigned pt_walkcalib_llc_ways(uint64_t size, unsigned ways)
{
	uint64_t lines = size / 64, w, odd, best = 0;

	if (!lines || size % 64 || !ways)
		return 0;
	if (ways && lines % ways == 0 && !((lines / ways) & (lines / ways - 1)))
		return ways;
	/* ways = the odd part of the line count times a power of two */
	odd = lines >> __builtin_ctzll(lines);
	for (w = odd; w <= PT_WALKCALIB_MAX_LLC_WAYS && w <= lines; w *= 2)
		if (!best ||
		    (w > ways ? w - ways : ways - w) < (best > ways ? best - ways : ways - best))
			best = w;
	return (unsigned)best;
}

static void llc_candidates(const struct pt_walkcalib *c, const struct pt_walk_cfg *cfg,
			   uint64_t *llc, size_t *n)
{
	uint64_t v, sys = cfg->cache[2].size_bytes;
	bool have_sys = false;

	*n = 0;
	/* the user's size is the only one (its replacement may still be searched) */
	if (c->llc_forced) {
		llc[(*n)++] = sys;
		return;
	}
	/*
	 * From 1M up, even at or below the L2's size: a guest on a shared host
	 * may effectively get no LLC at all (an LLC no larger than the L2 only
	 * holds the L2's recent victims).
	 */
	for (v = 1ull << 20; v <= 32ull << 20 && *n < PT_WALKCALIB_MAX_LLC - 1; v *= 2) {
		llc[(*n)++] = v;
		have_sys |= v == sys;
	}
	if (!have_sys)
		llc[(*n)++] = sys;
}

/*
 * Simulate and judge h's structure with cfg (features into the scratch f);
 * h keeps whichever configuration has the lower held-out error. *worse:
 * this one's held-out error.
 */
static int try_cfg(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N],
		   const struct pt_walk_cfg *cfg, double *worse)
{
	struct pt_walkcalib_hyp t = *h;
	size_t n = c->n;
	double *cv_huge, *cv_ws;
	struct pt_walk_cfg *cv_cfg;
	int r = -1;

	t.cfg = *cfg;
	t.f = f;
	t.latr = malloc(c->nr * sizeof(*t.latr));
	t.fitted = malloc(n * sizeof(*t.fitted));
	/* this configuration's held-out predictions go straight into h's list */
	cv_huge = realloc(h->cv_huge, (h->ncv + 1) * n * sizeof(*cv_huge));
	if (cv_huge)
		h->cv_huge = cv_huge;
	cv_ws = realloc(h->cv_ws, (h->ncv + 1) * n * sizeof(*cv_ws));
	if (cv_ws)
		h->cv_ws = cv_ws;
	cv_cfg = realloc(h->cv_cfg, (h->ncv + 1) * sizeof(*cv_cfg));
	if (cv_cfg)
		h->cv_cfg = cv_cfg;
	if (!t.latr || !t.fitted || !cv_huge || !cv_ws || !cv_cfg) {
		snprintf(h->err, sizeof(h->err), "out of memory");
		goto out;
	}
	t.pred_huge = h->cv_huge + h->ncv * n;
	t.pred_ws = h->cv_ws + h->ncv * n;
	if (simulate(c, cfg, f, h->err, sizeof(h->err)) ||
	    pt_walkcalib_judge(c, &t, h->err, sizeof(h->err)))
		goto out;
	h->cv_cfg[h->ncv++] = *cfg;
	*worse = t.worse;
	if (t.worse < h->worse) {
		memcpy(h->f, f, c->n * sizeof(*f));
		memcpy(h->latr, t.latr, c->nr * sizeof(*t.latr));
		memcpy(h->fitted, t.fitted, c->n * sizeof(*t.fitted));
		h->cfg = *cfg;
		memcpy(h->lat, t.lat, sizeof(h->lat));
		h->fit = t.fit;
		h->huge = t.huge;
		h->lowo = t.lowo;
		h->worse = t.worse;
	}
	r = 0;
out:
	free(t.latr);
	free(t.fitted);
	return r;
}

/*
 * The effective LLC of h, at its current TLB sizes and with replacement
 * random or not: each size judged by held-out error, added to h's list.
 */
static int sweep_llc(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N],
		     bool random)
{
	struct pt_walk_cfg cfg = h->cfg;
	uint64_t llc[PT_WALKCALIB_MAX_LLC];
	unsigned ways = cfg.cache[2].ways;
	size_t nl, k;

	llc_candidates(c, &cfg, llc, &nl);
	cfg.cache[2].random = random;
	for (k = 0; k < nl && h->nllc < PT_WALKCALIB_MAX_LLC; k++) {
		unsigned w = pt_walkcalib_llc_ways(llc[k], ways);
		size_t at;

		if (!w) {
			snprintf(h->err, sizeof(h->err),
				 "LLC cache: %llu bytes in cache.llc.ways = %u: no way count up to "
				 "%d gives a power-of-two number of sets",
				 (unsigned long long)llc[k], ways, PT_WALKCALIB_MAX_LLC_WAYS);
			return -1;
		}
		at = h->nllc++;
		cfg.cache[2].size_bytes = llc[k];
		cfg.cache[2].ways = w;
		h->llc_ways[at] = w;
		h->llc[at] = llc[k];
		h->llc_random[at] = random;
		h->llc_final[at] = true;
		if (try_cfg(c, h, f, &cfg, &h->llc_worse[at]))
			return -1;
	}
	return 0;
}

/*
 * TLB sizes seen on recent x86-64 and arm64 cores (L2: 1024 to 4096
 * entries; L1: 32 to 96). A guest's CPUID may say something else (this
 * project's PVM guest reports a 128-entry L2 DTLB in leaf 0x80000006),
 * so the sizes are chosen like the LLC:
 * the L2 first at the L1 it has, then the L1 at the chosen L2.
 */
static const struct {
	uint64_t l2;
	unsigned l2_ways;
} l2_sizes[] = { { 1024, 8 }, { 1536, 12 }, { 2048, 8 }, { 3072, 12 }, { 4096, 8 } };
static const uint64_t l1_sizes[] = { 32, 64, 96 };

static int try_tlb(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N],
		   struct pt_walk_cfg *cfg)
{
	struct pt_walkcalib_tlb *t = &h->tlb[h->ntlb];

	*t = (struct pt_walkcalib_tlb){ .l1 = cfg->l1tlb_entries,
					.l2 = cfg->l2tlb_entries,
					.l1_ways = cfg->l1tlb_ways,
					.l2_ways = cfg->l2tlb_ways,
					.worse = NAN,
					.random = cfg->tlb_random,
					.l1_random = cfg->l1tlb_random,
					.evictions = cfg->l2tlb_evictions,
					.nested = cfg->s2.tlb_entries,
					.nested_ways = cfg->s2.tlb_ways };
	if (try_cfg(c, h, f, cfg, &t->worse))
		return -1;
	h->ntlb++;
	return 0;
}

static int sweep_tlb(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N])
{
	struct pt_walk_cfg cfg = h->cfg;
	size_t k;

	for (k = 0; k < sizeof(l2_sizes) / sizeof(l2_sizes[0]); k++) {
		cfg.l2tlb_entries = l2_sizes[k].l2;
		cfg.l2tlb_ways = l2_sizes[k].l2_ways;
		if (try_tlb(c, h, f, &cfg))
			return -1;
	}
	cfg = h->cfg;
	for (k = 0; k < sizeof(l1_sizes) / sizeof(l1_sizes[0]); k++) {
		if (l1_sizes[k] == h->cfg.l1tlb_entries)
			continue;
		cfg.l1tlb_entries = l1_sizes[k];
		cfg.l1tlb_ways = (unsigned)l1_sizes[k]; /* fully associative */
		if (try_tlb(c, h, f, &cfg))
			return -1;
	}
	return 0;
}

/*
 * The TLBs' replacement flipped at the chosen sizes: both (l1_only false;
 * the L1's only if the user did not choose it), or then the L1's alone.
 * A chase visits its pages in the same order every pass: LRU over a
 * working set a little larger than a set's ways misses on every access,
 * where the pseudo-LRU or random policies of real TLBs keep a share; which
 * describes this machine's TLBs is decided like the sizes. The L1 on its
 * own: on this project's PVM guest 128 pages cost what 256 do (3.1 ns
 * against 1.1 at 64), as LRU gives, where the L2's misses past its size
 * look random.
 */
static int flip_tlb_replacement(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h,
				double (*f)[PT_LAT_N], bool l1_only)
{
	struct pt_walk_cfg cfg = h->cfg;

	if (h->ntlb == PT_WALKCALIB_MAX_TLB)
		return 0;
	if (!l1_only)
		cfg.tlb_random = !cfg.tlb_random;
	if (!c->l1tlb_repl_forced)
		cfg.l1tlb_random = l1_only ? !cfg.l1tlb_random : cfg.tlb_random;
	return try_tlb(c, h, f, &cfg);
}

/*
 * Then evictions by others: on a shared host the L2 TLB loses entries to
 * an SMT sibling, the hypervisor and other tenants, so a chase's misses
 * grow with its page count well inside the TLB's size (this project's PVM
 * guest, 2026-12-05: 4.7 ns at 512 pages, 10.5 at 2048, 16.3 at 4096 in
 * one run; 3.1, 6.3 and 7.8 in another) where the TLB alone gives a step.
 * Per lookup: 1/64, 1/16 and 1/4 L2 entries, tried once the LLC and the
 * TLBs are chosen (an eviction rate tried earlier steers the LLC's search)
 * and kept like every step only if held-out error falls.
 */
static const double l2_evictions[] = { 1.0 / 64, 1.0 / 16, 1.0 / 4 };

static int sweep_evictions(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h,
			   double (*f)[PT_LAT_N])
{
	struct pt_walk_cfg cfg = h->cfg;
	size_t k;

	for (k = 0; k < sizeof(l2_evictions) / sizeof(l2_evictions[0]); k++) {
		if (h->ntlb == PT_WALKCALIB_MAX_TLB || l2_evictions[k] == h->cfg.l2tlb_evictions)
			continue;
		cfg.l2tlb_evictions = l2_evictions[k];
		if (try_tlb(c, h, f, &cfg))
			return -1;
	}
	return 0;
}

/*
 * With two stages, last, the nested TLB's size (IPA -> PA of the guest's
 * descriptors and data) at the final configuration, so that it changes
 * the choice only where it lowers that one's held-out error (tried
 * earlier, a size that won at its step steered the later ones to a
 * worse end on one run of 2026-12-05: held-out 0.161 against 0.154;
 * tried right after the TLBs', 4096 entries lost at an LLC that was not
 * yet final on another): its default of 32 entries makes
 * nearly every TLB miss past a few MiB walk the host's table too. On this
 * project's PVM guest (AMD EPYC host, 2026-12-05) chases with 16 pages per
 * L2 TLB set cost 19.4 ns over 1024 pages 8 apart and 56.1 ns over 8192
 * adjacent ones (26.3 over 4096 pages 2 apart): the same share of TLB
 * misses costs more the more pages there are, as a nested TLB of a few
 * thousand entries gives (results/walk-calibration/stride-2026-12-05).
 * The sizes are judged like every step, by held-out error.
 */
static const struct {
	uint64_t entries;
	unsigned ways;
} nested_sizes[] = { { 1024, 8 }, { 2048, 8 }, { 4096, 8 }, { 8192, 8 } };

static int sweep_nested(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N])
{
	struct pt_walk_cfg cfg = h->cfg;
	size_t k;

	if (cfg.s2.format < 0)
		return 0;
	for (k = 0; k < sizeof(nested_sizes) / sizeof(nested_sizes[0]); k++) {
		if (h->ntlb == PT_WALKCALIB_MAX_TLB ||
		    nested_sizes[k].entries == h->cfg.s2.tlb_entries)
			continue;
		cfg.s2.tlb_entries = nested_sizes[k].entries;
		cfg.s2.tlb_ways = nested_sizes[k].ways;
		if (try_tlb(c, h, f, &cfg))
			return -1;
	}
	return 0;
}

static bool same_tlb(const struct pt_walk_cfg *a, const struct pt_walk_cfg *b)
{
	return a->l1tlb_entries == b->l1tlb_entries && a->l1tlb_ways == b->l1tlb_ways &&
	       a->l2tlb_entries == b->l2tlb_entries && a->l2tlb_ways == b->l2tlb_ways &&
	       a->tlb_random == b->tlb_random && a->l1tlb_random == b->l1tlb_random &&
	       a->l2tlb_evictions == b->l2tlb_evictions && a->s2.tlb_entries == b->s2.tlb_entries &&
	       a->s2.tlb_ways == b->s2.tlb_ways;
}

/* After the TLB moved: the LLC sizes either side of the chosen one, at the new TLB. */
static int refine_llc(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N])
{
	struct pt_walk_cfg cfg = h->cfg;
	uint64_t at = h->cfg.cache[2].size_bytes;
	size_t k;

	for (k = 0; k < h->nllc; k++) {
		h->llc_final[k] = h->llc[k] == at / 2 || h->llc[k] == at * 2 || h->llc[k] == at;
		if (!h->llc_final[k])
			continue;
		cfg.cache[2].size_bytes = h->llc[k];
		cfg.cache[2].ways = h->llc_ways[k];
		cfg.cache[2].random = h->llc_random[k];
		if (try_cfg(c, h, f, &cfg, &h->llc_worse[k]))
			return -1;
	}
	return 0;
}

/*
 * Last: the sizes between the chosen one and its neighbours (3/4 and 3/2 of
 * it), at its replacement and TLB. The sweep's 2x steps are coarse where
 * a chase's cost turns on how much of its page tables the LLC holds: on
 * this project's PVM guest the held-out error rose from 0.18 at 4M to 0.25
 * at 8M and 0.42 at 2M. Kept, like every step, only if held-out error falls.
 */
static int between_llc(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N])
{
	struct pt_walk_cfg cfg = h->cfg;
	uint64_t at = h->cfg.cache[2].size_bytes, sz[2] = { at / 4 * 3, at / 2 * 3 };
	size_t j, k;

	for (j = 0; j < 2; j++) {
		unsigned w = pt_walkcalib_llc_ways(sz[j], h->cfg.cache[2].ways);
		bool seen = sz[j] < (1ull << 20) || !w;

		for (k = 0; k < h->nllc && !seen; k++)
			seen = h->llc[k] == sz[j] && h->llc_random[k] == cfg.cache[2].random;
		if (seen || h->nllc >= PT_WALKCALIB_MAX_LLC)
			continue;
		k = h->nllc++;
		cfg.cache[2].size_bytes = sz[j];
		cfg.cache[2].ways = w;
		h->llc[k] = sz[j];
		h->llc_ways[k] = w;
		h->llc_random[k] = cfg.cache[2].random;
		h->llc_final[k] = true;
		if (try_cfg(c, h, f, &cfg, &h->llc_worse[k]))
			return -1;
	}
	return 0;
}

/*
 * One hypothesis, in two parts with every structure's first part done
 * before any second (pt_walkcalib_search drops the hopeless in between).
 * First its effective LLC, then (unless the user gave them) its TLB sizes;
 * then the TLBs' replacement at those sizes (both, then the L1's), the LLC
 * again around the chosen one if the TLB changed, then (unless the user
 * chose it) every LLC size again with random replacement at the final TLB
 * sizes, then the L2 TLB's evictions by others, the LLC sizes between the
 * steps, last with two stages the nested TLB's size. A guest's share of a
 * host's LLC is evicted by other tenants as well as by itself, which LRU
 * over a fixed size does not describe: whether random victims describe it
 * better is decided per run like the size. Every step keeps the
 * configuration with the lowest held-out error, never the best in-sample.
 */
static int search_first(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N])
{
	h->worse = INFINITY;
	h->nllc = 0;
	if (sweep_llc(c, h, f, h->cfg.cache[2].random))
		return -1;
	h->before = h->cfg;
	return c->tlb_forced ? 0 : sweep_tlb(c, h, f);
}

static int search_rest(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N])
{
	bool base = h->before.cache[2].random;

	if (!c->tlb_repl_forced && flip_tlb_replacement(c, h, f, false))
		return -1;
	if (!c->l1tlb_repl_forced && flip_tlb_replacement(c, h, f, true))
		return -1;
	if (!same_tlb(&h->before, &h->cfg) && refine_llc(c, h, f))
		return -1;
	if (!c->repl_forced && sweep_llc(c, h, f, !base))
		return -1;
	if (!c->evictions_forced && sweep_evictions(c, h, f))
		return -1;
	if (!c->llc_forced && between_llc(c, h, f))
		return -1;
	return c->ntlb_forced ? 0 : sweep_nested(c, h, f);
}

/*
 * A -pairs variant (pt_walkcalib_add_pairs): its structure's final TLBs
 * and LLC replacement, the LLC's size searched again with the sizes
 * between: data lines filled in pairs change how much the caches hold,
 * not what the TLBs do. With all six of a PVM guest searched whole,
 * calibrate took 125-153 s on 2026-12-05 where the three took 61-86, and
 * with both replacements and every structure's variant up to 144 s, which
 * took ./run.sh to 296 of its 300 s. On the runs of that day the variant
 * kept its structure's replacement wherever it was chosen.
 */
static int search_pairs(struct pt_walkcalib *c, struct pt_walkcalib_hyp *h, double (*f)[PT_LAT_N])
{
	const struct pt_walkcalib_hyp *b = &c->h[h->base];

	h->cfg = b->cfg;
	h->cfg.prefetch_lines = 2;
	h->worse = INFINITY;
	h->nllc = 0;
	if (sweep_llc(c, h, f, b->cfg.cache[2].random))
		return -1;
	return c->llc_forced ? 0 : between_llc(c, h, f);
}

/* The search's phases: the structures' first steps, their rest, the -pairs variants. */
enum phase { PHASE_FIRST, PHASE_REST, PHASE_PAIRS };

struct searches {
	struct pt_walkcalib *c;
	enum phase phase;
	size_t *job, njob; /* the hypotheses of this phase */
	atomic_size_t done;
};

/* Hypotheses are independent within a phase: one job each, with its own scratch features. */
static int search_job(void *arg, size_t j)
{
	struct searches *s = arg;
	struct pt_walkcalib *c = s->c;
	struct pt_walkcalib_hyp *h = &c->h[s->job[j]];
	double(*f)[PT_LAT_N] = calloc(c->n, sizeof(*f));
	int r = -1;

	if (!f) {
		snprintf(h->err, sizeof(h->err), "out of memory");
		return -1;
	}
	if (!(s->phase == PHASE_FIRST  ? search_first(c, h, f)
	      : s->phase == PHASE_REST ? search_rest(c, h, f)
				       : search_pairs(c, h, f))) {
		pt_walkcalib_progress(c, "structure %zu/%zu%s searched (%s)",
				      atomic_fetch_add(&s->done, 1) + 1, s->njob,
				      s->phase == PHASE_FIRST ? ": LLC and TLB sizes" : "",
				      h->name);
		r = 0;
	}
	free(f);
	return r;
}

static bool in_phase(const struct pt_walkcalib_hyp *h, enum phase phase)
{
	if (phase == PHASE_PAIRS)
		return h->base >= 0;
	return h->base < 0 && (phase == PHASE_FIRST || !h->dropped);
}

/* One phase's hypotheses, one thread per CPU. */
static int run_phase(struct searches *s, enum phase phase)
{
	struct pt_walkcalib *c = s->c;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t k;

	s->phase = phase;
	for (s->njob = 0, k = 0; k < c->nh; k++)
		if (in_phase(&c->h[k], phase))
			s->job[s->njob++] = k;
	if (!s->njob)
		return 0;
	atomic_init(&s->done, 0);
	if (phase == PHASE_FIRST)
		pt_walkcalib_progress(c,
				      "searching %zu structures, one thread per CPU (%ld online)",
				      s->njob, cpus > 1 ? cpus : 1);
	else if (phase == PHASE_REST)
		pt_walkcalib_progress(c, "searching the %zu kept further", s->njob);
	else
		pt_walkcalib_progress(c, "searching the %zu that pass again, data lines in pairs",
				      s->njob);
	return pt_parallel_for(s->njob, search_job, s);
}

/*
 * Between the phases: a structure more than c->drop times the best held-out
 * error so far is searched no further. Its error is final and the best's
 * can only fall, so with c->drop >= PT_WALKCALIB_PASS it cannot pass. What
 * it gives up is the chance that its later steps would have brought it
 * within PT_WALKCALIB_PASS of the best: none did on the six kept KVM runs
 * searched both ways (results/walk-calibration/drop-2026-12-07, and
 * results/walk-calibration/NOTES.md).
 */
static void drop_hopeless(struct pt_walkcalib *c)
{
	double best = INFINITY;
	size_t k;

	for (k = 0; k < c->nh; k++)
		if (c->h[k].base < 0)
			best = fmin(best, c->h[k].worse);
	if (!(c->drop > 0) || !isfinite(best))
		return;
	for (k = 0; k < c->nh; k++) {
		struct pt_walkcalib_hyp *h = &c->h[k];

		if (h->base >= 0 || !(h->worse > c->drop * best))
			continue;
		h->dropped = true;
		h->drop_ratio = h->worse / best;
		pt_walkcalib_progress(c,
				      "%s searched no further: held-out %.3f, %.2f times the "
				      "best (--drop %g)",
				      h->name, h->worse, h->drop_ratio, c->drop);
	}
}

int pt_walkcalib_search(struct pt_walkcalib *c, char *err, size_t errlen)
{
	size_t job[PT_WALKCALIB_MAX_HYP], k;
	struct searches s = { .c = c, .job = job };
	int r;

	/*
	 * The structures' first steps, the hopeless dropped, the rest of the
	 * others, then the -pairs variants of those that pass, which start
	 * from them.
	 */
	r = run_phase(&s, PHASE_FIRST);
	if (r >= 0) {
		drop_hopeless(c);
		r = run_phase(&s, PHASE_REST);
	}
	if (r >= 0 && !c->pairs_forced) {
		if (pt_walkcalib_add_pairs(c)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		r = run_phase(&s, PHASE_PAIRS);
	}
	for (k = 0; k < c->nh; k++)
		if (c->h[k].err[0] || (r >= 0 && !isfinite(c->h[k].worse))) {
			snprintf(err, errlen, "%s: %s", c->h[k].name,
				 c->h[k].err[0] ? c->h[k].err : "no configuration could be fitted");
			return -1;
		}
	if (r < 0) {
		snprintf(err, errlen, "the search failed");
		return -1;
	}
	return 0;
}
