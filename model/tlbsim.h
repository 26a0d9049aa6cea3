/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two-level data TLB: an L1 DTLB and a unified L2 TLB. Both hold every
 * page size; an entry's key is its virtual page number at its own size
 * plus a size class, and a lookup probes each size class in use.
 */
#ifndef PTBENCH_MODEL_TLBSIM_H
#define PTBENCH_MODEL_TLBSIM_H

#include "model/cachesim_sa.h"

#define PT_TLB_CLASSES 4 /* leaf height 0 (page), 1 (PMD block), 2, 3 */

enum pt_tlb_result { PT_TLB_L1_HIT = 0, PT_TLB_L2_HIT = 1, PT_TLB_MISS = 2 };

struct pt_tlbsim {
	struct pt_sa l1, l2;
	unsigned class_shift[PT_TLB_CLASSES]; /* page shift of each class */
	unsigned classes_used; /* bit mask of classes inserted so far */
	/*
	 * Entries others insert into the L2 per lookup (tlb.l2.evictions): a
	 * TLB shared with an SMT sibling, the host or other tenants loses
	 * entries the chase did not displace. owed: the fraction not yet
	 * inserted. (TLB keys are page numbers << 2: bit 63 stays clear.)
	 */
	double evictions, owed;
};

/* Each level with LRU or (l1_random, l2_random) random victims. 0, or -1 with the reason. */
int pt_tlbsim_init(struct pt_tlbsim *t, uint64_t l1_entries, unsigned l1_ways, uint64_t l2_entries,
		   unsigned l2_ways, bool l1_random, bool l2_random, char *err, size_t errlen);
void pt_tlbsim_free(struct pt_tlbsim *t);
/* Page shift of leaf height h (set once from the geometry). */
void pt_tlbsim_set_class(struct pt_tlbsim *t, unsigned h, unsigned shift);
/* Insert the foreign L2 entries that t->evictions per lookup add up to. */
void pt_tlbsim_evict_others(struct pt_tlbsim *t);

static inline uint64_t pt_tlb_key(const struct pt_tlbsim *t, uint64_t va, unsigned h)
{
	return (va >> t->class_shift[h]) << 2 | h;
}

static inline bool pt_tlb_probe(struct pt_sa *s, const struct pt_tlbsim *t, uint64_t va)
{
	unsigned m = t->classes_used, h;

	for (h = 0; m; h++, m >>= 1)
		if ((m & 1) && pt_sa_lookup(s, pt_tlb_key(t, va, h)))
			return true;
	return false;
}

/* Translate va; an L2 hit refills the L1. */
static inline enum pt_tlb_result pt_tlbsim_lookup(struct pt_tlbsim *t, uint64_t va)
{
	unsigned h;

	if (t->evictions > 0)
		pt_tlbsim_evict_others(t);
	if (pt_tlb_probe(&t->l1, t, va))
		return PT_TLB_L1_HIT;
	if (!pt_tlb_probe(&t->l2, t, va))
		return PT_TLB_MISS;
	/* find the class that hit to refill L1 with it */
	for (h = 0; h < PT_TLB_CLASSES; h++) {
		if ((t->classes_used >> h & 1) && pt_sa_lookup(&t->l2, pt_tlb_key(t, va, h))) {
			pt_sa_insert(&t->l1, pt_tlb_key(t, va, h));
			break;
		}
	}
	return PT_TLB_L2_HIT;
}

/* Install the translation of va (leaf at height h) after a walk. */
static inline void pt_tlbsim_fill(struct pt_tlbsim *t, uint64_t va, unsigned h)
{
	uint64_t key;

	t->classes_used |= 1u << h;
	key = pt_tlb_key(t, va, h);
	pt_sa_insert(&t->l2, key);
	pt_sa_insert(&t->l1, key);
}

#endif
