/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A set-associative array of 64-bit keys with LRU (move-to-front) or
 * random replacement: the one structure behind the simulated caches, TLBs
 * and walk caches. Flat arrays, power-of-two sets, no allocation per access.
 */
#ifndef PTBENCH_MODEL_CACHESIM_SA_H
#define PTBENCH_MODEL_CACHESIM_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_sa {
	uint64_t *slot; /* sets * ways; key + 1, 0 = empty; way 0 is MRU */
	uint64_t set_mask;
	unsigned ways;
	unsigned idx_shift; /* set = (key >> idx_shift) & set_mask */
	bool random; /* random victim instead of LRU */
	uint64_t rng;
};

/*
 * entries / ways must be a power of two. 0, or -1 with a message in err.
 */
int pt_sa_init(struct pt_sa *s, uint64_t entries, unsigned ways, unsigned idx_shift, bool random,
	       char *err, size_t errlen);
void pt_sa_free(struct pt_sa *s);
void pt_sa_clear(struct pt_sa *s);

static inline uint64_t *pt_sa_set(const struct pt_sa *s, uint64_t key)
{
	return s->slot + ((key >> s->idx_shift) & s->set_mask) * s->ways;
}

/* Promote way i of set w to MRU. */
static inline void pt_sa_promote(uint64_t *w, unsigned i)
{
	uint64_t t = w[i];

	if (i > 8) {
		__builtin_memmove(w + 1, w, i * sizeof(*w));
	} else {
		for (; i > 0; i--)
			w[i] = w[i - 1];
	}
	w[0] = t;
}

/* Way holding t in a wide set, or ways: a loop without early exit vectorises. */
static inline unsigned pt_sa_find_wide(const uint64_t *w, unsigned ways, uint64_t t)
{
	unsigned i, at = ways;

	for (i = 0; i < ways; i++)
		at = w[i] == t ? i : at;
	return at;
}

/* Look key up; on a hit it becomes most recently used. */
static inline bool pt_sa_lookup(struct pt_sa *s, uint64_t key)
{
	uint64_t *w = pt_sa_set(s, key), t = key + 1;
	unsigned i;

	if (w[0] == t)
		return true;
	if (s->ways > 16) {
		i = pt_sa_find_wide(w, s->ways, t);
		if (i == s->ways)
			return false;
		pt_sa_promote(w, i);
		return true;
	}
	for (i = 1; i < s->ways; i++) {
		if (w[i] == t) {
			pt_sa_promote(w, i);
			return true;
		}
	}
	return false;
}

/* Insert a key known to be absent, evicting the LRU (or a random) way. */
void pt_sa_insert(struct pt_sa *s, uint64_t key);

/* Lookup, and insert on a miss. Returns whether it hit. */
static inline bool pt_sa_access(struct pt_sa *s, uint64_t key)
{
	if (pt_sa_lookup(s, key))
		return true;
	pt_sa_insert(s, key);
	return false;
}

#endif
