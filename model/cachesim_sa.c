// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/cachesim_sa.h"

#define PT_SA_HUGE (2ull << 20)

/*
 * Large tag arrays are touched at random by random patterns: back them
 * with huge pages where the kernel allows, so the simulator itself does
 * not spend its time in host TLB misses.
 */
static uint64_t *alloc_slots(uint64_t n)
{
	size_t bytes = n * sizeof(uint64_t);
	void *p;

	if (bytes < PT_SA_HUGE)
		return calloc(n, sizeof(uint64_t));
	bytes = (bytes + PT_SA_HUGE - 1) & ~(PT_SA_HUGE - 1);
	p = aligned_alloc(PT_SA_HUGE, bytes);
	if (!p)
		return NULL;
	madvise(p, bytes, MADV_HUGEPAGE);
	memset(p, 0, bytes);
	return p;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int pt_sa_init(struct pt_sa *s, uint64_t entries, unsigned ways, unsigned idx_shift, bool random,
	       char *err, size_t errlen)
{
	uint64_t sets;

	memset(s, 0, sizeof(*s));
	if (!ways || !entries || entries % ways || !is_pow2(entries / ways)) {
		snprintf(err, errlen,
			 "%llu entries in %u ways: the number of sets must be a power of two",
			 (unsigned long long)entries, ways);
		return -1;
	}
	sets = entries / ways;
	s->slot = alloc_slots(entries);
	if (!s->slot) {
		snprintf(err, errlen, "out of memory for %llu entries",
			 (unsigned long long)entries);
		return -1;
	}
	s->set_mask = sets - 1;
	s->ways = ways;
	s->idx_shift = idx_shift;
	s->random = random;
	s->rng = 0x9e3779b97f4a7c15ull;
	return 0;
}

void pt_sa_free(struct pt_sa *s)
{
	free(s->slot);
	s->slot = NULL;
}

void pt_sa_clear(struct pt_sa *s)
{
	memset(s->slot, 0, (s->set_mask + 1) * s->ways * sizeof(*s->slot));
}

static unsigned random_way(struct pt_sa *s)
{
	/* xorshift64: a fixed seed keeps runs reproducible */
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return (unsigned)(s->rng % s->ways);
}

void pt_sa_insert(struct pt_sa *s, uint64_t key)
{
	uint64_t *w = pt_sa_set(s, key);
	unsigned victim = s->ways - 1;

	/*
	 * Move-to-front keeps empty ways at the tail, so the last way is the
	 * LRU entry or an empty one; random replacement only when the set is full.
	 */
	if (s->random && w[victim])
		victim = random_way(s);
	w[victim] = key + 1;
	pt_sa_promote(w, victim);
}
