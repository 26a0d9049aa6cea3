/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two-stage (nested) translation: a guest page table maps VA to guest
 * physical (IPA), a host page table maps IPA to host physical (PA). A miss
 * in the TLB (which holds VA -> PA at the smaller of the two page sizes)
 * walks the guest table; every guest descriptor sits at an IPA, so each one
 * first needs that IPA translated (nested TLB, else a host walk), and so
 * does the final data IPA. Data, guest descriptors and host descriptors all
 * go through one cache hierarchy, at host-physical addresses.
 *
 * This is its own access path, not branches in walk_sim.c: the one-stage
 * path keeps its speed, and --stage2 none is the one-stage model unchanged.
 */
#ifndef PTBENCH_MODEL_WALK_NESTED_H
#define PTBENCH_MODEL_WALK_NESTED_H

#include "model/walk_pattern.h"
#include "model/walk_sim.h"

/* What the one-stage stats do not hold: the host's share of the work. */
struct pt_nest_extra {
	uint64_t ntlb_lookups, ntlb_hits; /* nested TLB (IPA -> PA) */
	uint64_t host_steps[PT_MAX_LEVELS][PT_STEP_N]; /* host descriptor fetches */
	uint64_t guest_steps[PT_MAX_LEVELS][PT_STEP_N]; /* guest descriptor fetches */
};

struct pt_nestsim {
	struct pt_walk_cfg cfg;
	struct pt_pagetable gpt, hpt; /* guest (VA -> IPA), host (IPA -> PA) */
	struct pt_tlbsim tlb; /* VA -> PA */
	struct pt_sa ntlb; /* IPA page numbers at the host's page size */
	struct pt_cachesim dc;
	struct pt_walkcache gpwc, hpwc; /* VA-tagged, by VA and by IPA */
	unsigned block_h; /* guest leaf height of huge mappings, 0: none */
	uint64_t block_lo, block_hi;
	unsigned host_h, host_shift; /* host leaf height and its page shift */
	unsigned tlb_class[2]; /* TLB size class for guest leaf height 0 and block_h */
	unsigned ram_bits; /* log2 of guest data memory */
	uint64_t va_limit;
	struct pt_walk_stats st; /* steps: guest and host together */
	struct pt_nest_extra x;
};

/* The host's share of the work, per access or walk (the stage-2 CSV columns). */
enum pt_nest_metric {
	PT_NM_HOST_LEVELS,
	PT_NM_NTLB_HIT_RATE,
	PT_NM_HOST_WALKS_PER_KILO,
	PT_NM_GUEST_FETCHES_PER_WALK,
	PT_NM_HOST_FETCHES_PER_WALK,
	PT_NM_N
};

/*
 * g: the guest geometry (cfg->granule and VA); the host geometry comes from
 * cfg->s2. block_h as pt_walksim_init. 0, or -1 with a message.
 */
int pt_nestsim_init(struct pt_nestsim *s, const struct pt_geometry *g,
		    const struct pt_walk_cfg *cfg, unsigned block_h, uint64_t block_lo,
		    uint64_t block_hi, char *err, size_t errlen);
void pt_nestsim_free(struct pt_nestsim *s);
void pt_nestsim_access(struct pt_nestsim *s, uint64_t va);
void pt_nestsim_reset_stats(struct pt_nestsim *s);
/* Guest-physical address of va's data, and of a guest table's descriptor. */
uint64_t pt_nestsim_data_ipa(const struct pt_nestsim *s, uint64_t va);
/* warmup accesses of the pattern, then the counts start, then accesses more. */
void pt_nest_run_pattern(struct pt_nestsim *s, struct pt_pattern *p, uint64_t warmup,
			 uint64_t accesses);

const char *pt_nest_metric_name(enum pt_nest_metric m);
/* Fill out[PT_NM_N]; NaN where a metric has no denominator. */
void pt_nest_metrics(const struct pt_nestsim *s, double out[PT_NM_N]);

#endif
