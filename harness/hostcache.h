/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This machine's data caches as sysfs describes cpu0's, for the walk
 * model's cache simulation (ptbench model walk calibrate).
 */
#ifndef PTBENCH_HARNESS_HOSTCACHE_H
#define PTBENCH_HARNESS_HOSTCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "model/walk_cfg.h"

struct pt_host_cache {
	unsigned level; /* 1 .. PT_CACHE_LEVELS */
	char size[32]; /* as sysfs writes it, e.g. "491520K" */
	uint64_t ways;
	uint64_t sets; /* as reported: size / (64 * ways) */
	/*
	 * The simulator indexes sets by address bits, so their number must be
	 * a power of two; a hypervisor may report any size (480 MiB, 16-way:
	 * 491520 sets). sim_sets is the largest power of two not above sets
	 * (sets itself when it is one), bytes the size that gives.
	 */
	uint64_t sim_sets;
	uint64_t bytes;
};

/* Set c's ways, sets and the power-of-two sets the simulator uses, from bytes and ways. */
void pt_host_cache_size(struct pt_host_cache *c, uint64_t bytes, uint64_t ways);
/* cpu0's data and unified caches, in sysfs index order; how many (at most max). */
size_t pt_host_caches_read(struct pt_host_cache *out, size_t max);
/*
 * The L1 data and L2 caches from CPUID (x86: leaf 4, 0x8000001d, or AMD's
 * 0x80000005/6), for when sysfs has none; never the LLC. How many; 0
 * elsewhere. harness/hostcache_cpuid.c.
 */
size_t pt_host_caches_cpuid(struct pt_host_cache *out, size_t max);
/* Give cfg the sizes and ways of these caches. */
void pt_host_caches_apply(const struct pt_host_cache *c, size_t n, struct pt_walk_cfg *cfg);

#endif
