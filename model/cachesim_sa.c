// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/cachesim_sa.h"

#define PT_SA_HUGE (2ull << 20)
#define PT_SA_LINE 64ull

/*
 * Large tag arrays are touched at random by random patterns: back them
 * with huge pages where the kernel allows, so the simulator itself does
 * not spend its time in host TLB misses. Smaller ones start on a host
 * cache line, so that a set of up to 8 ways is one line. Zeroed.
 */
void *pt_sa_alloc(size_t bytes)
{
	bool huge = bytes >= PT_SA_HUGE;
	size_t align = huge ? PT_SA_HUGE : PT_SA_LINE;
	void *p;

	bytes = (bytes + align - 1) & ~(align - 1);
	p = aligned_alloc(align, bytes);
	if (!p)
		return NULL;
	if (huge)
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
	s->slot = pt_sa_alloc(entries * sizeof(*s->slot));
	if (!s->slot) {
		snprintf(err, errlen, "out of memory for %llu entries",
			 (unsigned long long)entries);
		return -1;
	}
	/* a filter for small wide arrays (fully associative TLBs), not for caches */
	if (ways > PT_SA_NARROW && ways <= PT_SA_FILTER_WAYS && sets <= PT_SA_FILTER_SETS) {
		s->filter = calloc(sets, PT_SA_FILTER);
		if (!s->filter) {
			pt_sa_free(s);
			snprintf(err, errlen, "out of memory for %llu entries",
				 (unsigned long long)entries);
			return -1;
		}
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
	free(s->filter);
	s->slot = NULL;
	s->filter = NULL;
}

/*
 * The next of the array's random numbers: xorshift64* (a fixed seed keeps
 * runs reproducible), its high half. Not the plain xorshift state: the low
 * bits of consecutive states are linearly related, so the way a foreign
 * key evicted was tied to the set it was put in: with keys that never
 * move, half of each set's ways were never displaced by others' entries
 * (tests/test_walk.c's L2 evictions; a move-to-front order had hidden it).
 */
static uint32_t next_random(struct pt_sa *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return (uint32_t)((s->rng * 0x2545f4914f6cdd1dull) >> 32);
}

static unsigned random_way(struct pt_sa *s)
{
	return (unsigned)(((uint64_t)next_random(s) * s->ways) >> 32);
}

void pt_sa_insert_foreign(struct pt_sa *s)
{
	unsigned set_bits = (unsigned)__builtin_popcountll(s->set_mask),
		 shift = s->idx_shift + set_bits;
	uint64_t set, key;

	set = next_random(s);
	set = (set << 32 | next_random(s)) & s->set_mask; /* two statements: a fixed order */
	/* bit 63 and a count above the set bits: a new key each time, never a lookup's */
	key = 1ull << 63 | (++s->foreign & ((1ull << (62 - shift)) - 1)) << shift |
	      set << s->idx_shift;
	pt_sa_insert(s, key);
}

/* Ring promote of the way i after the head: ways head .. p - 1 move up one. */
static void ring_shift_up(uint64_t *w, unsigned n, unsigned h, unsigned p)
{
	uint64_t t = w[p];
	unsigned q, prev;

	for (q = p; q != h; q = prev) {
		prev = q ? q - 1 : n - 1;
		w[q] = w[prev];
	}
	w[h] = t;
}

/*
 * Ring promote of a way in the older half: ways p + 1 .. LRU move down one
 * and p's key takes the LRU way, which becomes the head. Returns the head.
 */
static unsigned ring_shift_down(uint64_t *w, unsigned n, unsigned h, unsigned p)
{
	uint64_t t = w[p];
	unsigned last = h ? h - 1 : n - 1, q, next;

	for (q = p; q != last; q = next) {
		next = q + 1 == n ? 0 : q + 1;
		w[q] = w[next];
	}
	w[last] = t;
	return last;
}

void pt_sa_ring_promote(struct pt_sa *s, uint64_t si, unsigned p)
{
	uint64_t *w = s->slot + si * s->ways;
	unsigned n = s->ways, h = s->head[si], i = p >= h ? p - h : p + n - h;

	/* move whichever side of p is shorter: the order is the same */
	if (2 * i <= n)
		ring_shift_up(w, n, h, p);
	else
		s->head[si] = (uint8_t)ring_shift_down(w, n, h, p);
}

/*
 * A random array's victim in set w: its first empty way (keys never move,
 * so the empty ones are the last), else a random one.
 */
static unsigned random_victim(struct pt_sa *s, const uint64_t *w)
{
	unsigned j;

	if (w[s->ways - 1])
		return random_way(s);
	for (j = 0; w[j]; j++)
		;
	return j;
}

void pt_sa_insert_random(struct pt_sa *s, uint64_t key)
{
	uint64_t *w = pt_sa_set(s, key), t = key + 1;
	unsigned victim = random_victim(s, w);

	if (s->filter) {
		if (w[victim])
			(*pt_sa_filter_at(s, key, w[victim]))--;
		(*pt_sa_filter_at(s, key, t))++;
	}
	w[victim] = t;
}
