/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small fixed-sequence generator (xorshift64) for the analyses'
 * bootstraps: the same seed gives the same resamples, so a run's printed
 * ranges and noise figures are the same each time they are computed.
 * Not for anything that needs statistical quality beyond resampling.
 */
#ifndef PTBENCH_UTIL_RNG_H
#define PTBENCH_UTIL_RNG_H

#include <stdint.h>

/* The next value of *s (a nonzero state). */
static inline uint64_t pt_rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif
