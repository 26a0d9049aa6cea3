/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A set-associative array of 64-bit keys with LRU (move-to-front) or
 * random replacement: the structure behind the simulated TLBs, walk caches
 * and data caches of unusual associativity or random replacement
 * (cache_aged.h keeps the LRU ones of 4, 8, 12 or 16 ways). Flat arrays,
 * power-of-two sets, no allocation per access. A random array never moves
 * a key: which resident key a random victim is does not depend on where
 * keys sit, so keeping a recency order would cost time and change nothing
 * (a set fills its empty ways in order before it evicts).
 */
#ifndef PTBENCH_MODEL_CACHESIM_SA_H
#define PTBENCH_MODEL_CACHESIM_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cache_aged.h"

#define PT_SA_NARROW 16
#define PT_SA_FILTER 1024 /* buckets per set */
#define PT_SA_FILTER_WAYS 255 /* counters are bytes */
#define PT_SA_FILTER_SETS 64 /* larger arrays go without */

struct pt_sa {
	uint64_t *slot; /* sets * ways; key + 1, 0 = empty; way 0 is MRU (rings: head) */
	/*
	 * Wide sets (more than PT_SA_NARROW ways) of small arrays only: per
	 * set, how many of its keys fall in each of PT_SA_FILTER buckets of a
	 * hash, so that most misses are known without scanning the set. Such
	 * a set is a ring: its MRU way is head[set], the LRU way the one
	 * before it, so an insert over the LRU way moves nothing.
	 */
	uint8_t *filter;
	uint8_t head[PT_SA_FILTER_SETS];
	uint64_t set_mask;
	unsigned ways;
	unsigned idx_shift; /* set = (key >> idx_shift) & set_mask */
	bool random; /* random victim instead of LRU */
	uint64_t rng;
	uint64_t foreign; /* keys inserted by pt_sa_insert_foreign */
};

/*
 * entries / ways must be a power of two. 0, or -1 with a message in err.
 */
int pt_sa_init(struct pt_sa *s, uint64_t entries, unsigned ways, unsigned idx_shift, bool random,
	       char *err, size_t errlen);
void pt_sa_free(struct pt_sa *s);
/*
 * Insert into a random set a key no lookup asks for, as another context
 * sharing the array would (the array's own random generator:
 * reproducible): it displaces an entry by the set's own replacement.
 * Keys the caller looks up must keep bit 63 clear.
 */
void pt_sa_insert_foreign(struct pt_sa *s);
/* Zeroed memory for a tag array, on huge pages when large, line aligned; free() frees it. */
void *pt_sa_alloc(size_t bytes);

static inline uint64_t pt_sa_set_index(const struct pt_sa *s, uint64_t key)
{
	return (key >> s->idx_shift) & s->set_mask;
}

static inline uint64_t *pt_sa_set(const struct pt_sa *s, uint64_t key)
{
	return s->slot + pt_sa_set_index(s, key) * s->ways;
}

/* The filter counter of a slot value (key + 1) in the set of key. */
static inline uint8_t *pt_sa_filter_at(const struct pt_sa *s, uint64_t key, uint64_t t)
{
	return s->filter + pt_sa_set_index(s, key) * PT_SA_FILTER +
	       ((t * 0x9e3779b97f4a7c15ull) >> 54);
}

/*
 * A host prefetch hint. Not __builtin_prefetch: GCC 12's dead-code
 * elimination drops it behind a branch once inlined (it is not a side
 * effect to GCC), which left the simulator's prefetches out silently.
 */
static inline void pt_prefetch(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("prefetcht0 (%0)" : : "r"(p));
#elif defined(__aarch64__)
	__asm__ volatile("prfm pldl1keep, [%0]" : : "r"(p));
#else
	__builtin_prefetch(p);
#endif
}

/*
 * A hint to own the line at p before writing it: a line another CPU read
 * last would otherwise stall the writer's stores for a transfer. x86-64
 * CPUs without PREFETCHW run it as a no-op (it is a hint-NOP encoding).
 */
static inline void pt_prefetch_write(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("prefetchw (%0)" : : "r"(p));
#elif defined(__aarch64__)
	__asm__ volatile("prfm pstl1keep, [%0]" : : "r"(p));
#else
	__builtin_prefetch(p, 1);
#endif
}

/* Hint the host to load the set of key (its first and last ways). */
static inline void pt_sa_prefetch(const struct pt_sa *s, uint64_t key)
{
	const uint64_t *w = pt_sa_set(s, key);

	pt_prefetch(w);
	pt_prefetch(w + s->ways - 1);
}

#define pt_sa_inline inline __attribute__((always_inline))

/* Two ways, loaded and stored as one host vector. */
typedef uint64_t pt_sa_pair __attribute__((vector_size(16), aligned(8), may_alias));

/* Ways 2k, 2k + 1 of w as one vector, if both are below n. */
#define PT_SA_LOAD(w, n, k) ((n) > 2 * (k) + 1 ? *(const pt_sa_pair *)((w) + 2 * (k)) : zero)
#define PT_SA_STORE(w, n, k, v)                                                                    \
	do {                                                                                       \
		if ((n) > 2 * (k) + 1)                                                             \
			*(pt_sa_pair *)((w) + 1 + 2 * (k)) = (v);                                  \
	} while (0)

/*
 * Shift ways 0 .. n - 1 of w down by one, n a constant up to PT_SA_NARROW
 * where this is inlined: every load before any store, in registers (GCC
 * calls memmove for an overlapping move even of a constant size, and
 * keeps an array of vectors on the stack).
 */
static pt_sa_inline void pt_sa_shift_const(uint64_t *w, unsigned n)
{
	const pt_sa_pair zero = { 0, 0 };
	pt_sa_pair v0 = PT_SA_LOAD(w, n, 0), v1 = PT_SA_LOAD(w, n, 1), v2 = PT_SA_LOAD(w, n, 2),
		   v3 = PT_SA_LOAD(w, n, 3), v4 = PT_SA_LOAD(w, n, 4), v5 = PT_SA_LOAD(w, n, 5),
		   v6 = PT_SA_LOAD(w, n, 6), v7 = PT_SA_LOAD(w, n, 7);
	uint64_t odd = n & 1 ? w[n - 1] : 0;

	PT_SA_STORE(w, n, 0, v0);
	PT_SA_STORE(w, n, 1, v1);
	PT_SA_STORE(w, n, 2, v2);
	PT_SA_STORE(w, n, 3, v3);
	PT_SA_STORE(w, n, 4, v4);
	PT_SA_STORE(w, n, 5, v5);
	PT_SA_STORE(w, n, 6, v6);
	PT_SA_STORE(w, n, 7, v7);
	if (n & 1)
		w[n] = odd;
}

/*
 * Shift ways 0 .. n - 1 of w down by one (way n is overwritten). The usual
 * associativities, and any n known where this is inlined (an unrolled
 * scan), move through registers.
 */
static pt_sa_inline void pt_sa_shift(uint64_t *w, unsigned n)
{
	if (__builtin_constant_p(n) && n <= PT_SA_NARROW) {
		pt_sa_shift_const(w, n);
		return;
	}
	switch (n) {
	case 3:
		pt_sa_shift_const(w, 3);
		break;
	case 7:
		pt_sa_shift_const(w, 7);
		break;
	case 11:
		pt_sa_shift_const(w, 11);
		break;
	case 15:
		pt_sa_shift_const(w, 15);
		break;
	default:
		if (n > 8) {
			__builtin_memmove(w + 1, w, n * sizeof(*w));
		} else {
			for (; n > 0; n--)
				w[n] = w[n - 1];
		}
	}
}

/* Promote way i of set w to MRU. */
static pt_sa_inline void pt_sa_promote(uint64_t *w, unsigned i)
{
	uint64_t t = w[i];

	pt_sa_shift(w, i);
	w[0] = t;
}

/*
 * Way holding t in a wide set, or ways: 16 ways at a time through the
 * aged arrays' compare of the keys' low halves (SSE2 on x86-64, where
 * GCC 12 leaves a plain loop over 64 ways scalar), the rest one by one.
 */
static inline unsigned pt_sa_find_wide(const uint64_t *w, unsigned ways, uint64_t t)
{
	unsigned b, i;

	for (b = 0; b + 16 <= ways; b += 16) {
		i = pt_aged_find(w + b, 16, t);
		if (i < 16)
			return b + i;
	}
	for (i = b; i < ways; i++) {
		if (w[i] == t)
			return i;
	}
	return ways;
}

/*
 * Look t up in set w of n ways; on a hit it becomes MRU. With n a constant
 * the scan unrolls into a compare and branch per way, and each hit way
 * gets its own constant shift.
 */
static pt_sa_inline bool pt_sa_lookup_n(uint64_t *w, unsigned n, uint64_t t)
{
	unsigned i;

#pragma GCC unroll 16
	for (i = 0; i < n; i++) {
		if (w[i] == t) {
			pt_sa_promote(w, i);
			return true;
		}
	}
	return false;
}

/* Put t (key + 1) at the MRU end of set w, dropping its LRU way (LRU arrays only). */
static pt_sa_inline void pt_sa_push(uint64_t *w, unsigned ways, uint64_t t)
{
	pt_sa_shift(w, ways - 1);
	w[0] = t;
}

/* Look t (key + 1) up in set w of a narrow array; on a hit it becomes MRU. */
static pt_sa_inline bool pt_sa_lookup_narrow(uint64_t *w, unsigned ways, uint64_t t)
{
	unsigned i;

	switch (ways) {
	case 4:
		return pt_sa_lookup_n(w, 4, t);
	case 8:
		return pt_sa_lookup_n(w, 8, t);
	case 16:
		return pt_sa_lookup_n(w, 16, t);
	}
	if (w[0] == t)
		return true;
	for (i = 1; i < ways; i++) {
		if (w[i] == t) {
			pt_sa_promote(w, i);
			return true;
		}
	}
	return false;
}

/* Where logical way i (0: MRU) of set si of a ring (filtered array) is. */
static inline unsigned pt_sa_ring_way(const struct pt_sa *s, uint64_t si, unsigned i)
{
	unsigned p = s->head[si] + i;

	return p >= s->ways ? p - s->ways : p;
}

/* Make the key in way p of set si of a ring its MRU entry. */
void pt_sa_ring_promote(struct pt_sa *s, uint64_t si, unsigned p);

/* Whether set w of a random array holds t: keys never move, so nothing changes on a hit. */
static pt_sa_inline bool pt_sa_lookup_random(const uint64_t *w, unsigned ways, uint64_t t)
{
	switch (ways) {
	case 4:
		return pt_aged_find(w, 4, t) < 4;
	case 8:
		return pt_aged_find(w, 8, t) < 8;
	case 16:
		return pt_aged_find(w, 16, t) < 16;
	}
	return pt_sa_find_wide(w, ways, t) < ways;
}

/* pt_sa_lookup past its first probe: set si, t = key + 1. */
static inline bool pt_sa_lookup_rest(struct pt_sa *s, uint64_t si, uint64_t t)
{
	uint64_t *w = s->slot + si * s->ways;
	unsigned p;

	if (s->random)
		return pt_sa_lookup_random(w, s->ways, t);
	if (s->ways <= PT_SA_NARROW)
		return pt_sa_lookup_narrow(w, s->ways, t);
	p = pt_sa_find_wide(w, s->ways, t);
	if (p == s->ways)
		return false;
	if (s->filter)
		pt_sa_ring_promote(s, si, p);
	else
		pt_sa_promote(w, p);
	return true;
}

/*
 * Look key up; on a hit it becomes most recently used. Inline: the MRU way,
 * and in a filtered array the filter, answer most lookups.
 */
static pt_sa_inline bool pt_sa_lookup(struct pt_sa *s, uint64_t key)
{
	uint64_t si = pt_sa_set_index(s, key), t = key + 1;
	const uint64_t *w = s->slot + si * s->ways;

	if (s->filter) {
		if (w[s->head[si]] == t)
			return true;
		if (!*pt_sa_filter_at(s, key, t))
			return false;
	} else if (w[0] == t) {
		return true;
	}
	return pt_sa_lookup_rest(s, si, t);
}

/* Insert an absent key into a random array: an empty way, else a random victim. */
void pt_sa_insert_random(struct pt_sa *s, uint64_t key);

/* Insert an absent key into a ring over its LRU way, which becomes the head. */
static inline void pt_sa_ring_push(struct pt_sa *s, uint64_t key)
{
	uint64_t si = pt_sa_set_index(s, key), *w = s->slot + si * s->ways, t = key + 1;
	unsigned lru = s->head[si] ? s->head[si] - 1u : s->ways - 1;

	if (w[lru])
		(*pt_sa_filter_at(s, key, w[lru]))--;
	(*pt_sa_filter_at(s, key, t))++;
	w[lru] = t;
	s->head[si] = (uint8_t)lru;
}

/* Insert a key known to be absent, evicting the LRU (or a random) way. */
static inline void pt_sa_insert(struct pt_sa *s, uint64_t key)
{
	/*
	 * Move-to-front keeps empty ways at the tail, so the last way is the
	 * LRU entry or an empty one; random replacement only when the set is full.
	 */
	if (s->random)
		pt_sa_insert_random(s, key);
	else if (s->filter)
		pt_sa_ring_push(s, key);
	else
		pt_sa_push(pt_sa_set(s, key), s->ways, key + 1);
}

/* Lookup, and insert on a miss. Returns whether it hit. */
static inline bool pt_sa_access(struct pt_sa *s, uint64_t key)
{
	if (pt_sa_lookup(s, key))
		return true;
	pt_sa_insert(s, key);
	return false;
}

#endif
