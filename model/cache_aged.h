/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An LRU set-associative array of 4, 8, 12 or 16 ways whose keys stay where
 * they were put, with an age per way (0: most recently used): a hit or a
 * fill rewrites the set's 16 ages, never moves keys. The data caches use it
 * for their usual associativities: where a hit lands in the set decides no
 * branch and costs no shift, and on x86-64 the ways are compared and the ages
 * updated with SSE2. It answers exactly as the move-to-front array of
 * cachesim_sa.h does (an LRU order is an LRU order), which the tests check.
 */
#ifndef PTBENCH_MODEL_CACHE_AGED_H
#define PTBENCH_MODEL_CACHE_AGED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define PT_AGED_LANES 16 /* ages per set: one host vector */
#define PT_AGED_UNUSED 0x7f /* the age of a lane beyond the ways: never younger, never oldest */

struct pt_aged {
	uint64_t *key; /* sets * ways; key + 1, 0 = empty */
	uint8_t *age; /* sets * PT_AGED_LANES, 16-byte aligned */
	uint64_t set_mask;
	unsigned ways; /* 4, 8, 12 or 16 */
};

/* Whether an array of entries in ways can be kept aged. */
bool pt_aged_fits(uint64_t entries, unsigned ways);
/* 0, or -1 out of memory. Empty ways are filled before any key is evicted. */
int pt_aged_init(struct pt_aged *a, uint64_t entries, unsigned ways);
void pt_aged_free(struct pt_aged *a);

#define pt_aged_inline inline __attribute__((always_inline))

/* Bit j set where way j may hold t: the low 32 bits match (exact without SSE2). */
static pt_aged_inline unsigned pt_aged_candidates(const uint64_t *w, unsigned n, uint64_t t)
{
	unsigned m = 0, q;
#ifdef __SSE2__
	const __m128i lo = _mm_set1_epi32((int)(uint32_t)t);

#pragma GCC unroll 4
	for (q = 0; q < n / 4; q++) {
		__m128 a = _mm_loadu_ps((const float *)(w + 4 * q));
		__m128 b = _mm_loadu_ps((const float *)(w + 4 * q + 2));
		__m128i l = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));

		m |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(l, lo))) << (4 * q);
	}
#else
#pragma GCC unroll 16
	for (q = 0; q < n; q++)
		m |= (unsigned)(w[q] == t) << q;
#endif
	return m;
}

/* The way holding t in set w of n ways, or n. */
static pt_aged_inline unsigned pt_aged_find(const uint64_t *w, unsigned n, uint64_t t)
{
	unsigned m = pt_aged_candidates(w, n, t);

	while (m) {
		unsigned j = (unsigned)__builtin_ctz(m);

		if (w[j] == t)
			return j;
		m &= m - 1;
	}
	return n;
}

#ifdef __SSE2__
extern const uint8_t pt_aged_lane[PT_AGED_LANES][PT_AGED_LANES];

/* Way j, of age aj, becomes the youngest; the ways younger than it age by one. */
static pt_aged_inline void pt_aged_touch(uint8_t *age, unsigned j, unsigned aj)
{
	__m128i a = _mm_load_si128((const __m128i *)age);
	__m128i younger = _mm_cmpgt_epi8(_mm_set1_epi8((char)aj), a);

	a = _mm_sub_epi8(a, younger);
	a = _mm_andnot_si128(_mm_load_si128((const __m128i *)pt_aged_lane[j]), a);
	_mm_store_si128((__m128i *)age, a);
}

/* The way of age n - 1: the least recently used, or the next empty one. */
static pt_aged_inline unsigned pt_aged_oldest(const uint8_t *age, unsigned n)
{
	__m128i a = _mm_load_si128((const __m128i *)age);

	return (unsigned)__builtin_ctz(
		(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, _mm_set1_epi8((char)(n - 1)))));
}
#else
static pt_aged_inline void pt_aged_touch(uint8_t *age, unsigned j, unsigned aj)
{
	unsigned k;

	for (k = 0; k < PT_AGED_LANES; k++)
		age[k] += age[k] < aj;
	age[j] = 0;
}

static pt_aged_inline unsigned pt_aged_oldest(const uint8_t *age, unsigned n)
{
	unsigned k;

	for (k = 0; age[k] != n - 1; k++)
		;
	return k;
}
#endif

/* Access t in set si of n ways: a hit becomes MRU; a miss replaces the LRU way. */
static pt_aged_inline bool pt_aged_access_n(struct pt_aged *a, uint64_t si, unsigned n, uint64_t t)
{
	uint64_t *w = a->key + si * n;
	uint8_t *age = a->age + si * PT_AGED_LANES;
	unsigned j = pt_aged_find(w, n, t);
	bool hit = j < n;

	if (hit) {
		pt_aged_touch(age, j, age[j]);
		return true;
	}
	/* the oldest way is of age n - 1: a constant to compare with */
	j = pt_aged_oldest(age, n);
	w[j] = t;
	pt_aged_touch(age, j, n - 1);
	return false;
}

/* Access key; returns whether it was there. */
static pt_aged_inline bool pt_aged_access(struct pt_aged *a, uint64_t key)
{
	uint64_t si = key & a->set_mask;

	switch (a->ways) {
	case 4:
		return pt_aged_access_n(a, si, 4, key + 1);
	case 8:
		return pt_aged_access_n(a, si, 8, key + 1);
	case 12:
		return pt_aged_access_n(a, si, 12, key + 1);
	default:
		return pt_aged_access_n(a, si, 16, key + 1);
	}
}

#endif
