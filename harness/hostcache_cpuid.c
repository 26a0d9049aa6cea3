// SPDX-License-Identifier: GPL-2.0-only
/*
 * The L1 data and L2 caches from CPUID, for a guest whose sysfs has no
 * cache directory (this project's PVM guests). The LLC is left out: CPUID
 * gives the whole socket's, not what a guest on a shared host gets, and
 * the calibration chooses the effective LLC from the run instead.
 */
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "harness/hostcache.h"

#if defined(__x86_64__) || defined(__i386__)
static void fill(struct pt_host_cache *c, unsigned level, uint64_t bytes, uint64_t ways)
{
	memset(c, 0, sizeof(*c));
	c->level = level;
	snprintf(c->size, sizeof(c->size), "%lluK", (unsigned long long)(bytes >> 10));
	pt_host_cache_size(c, bytes, ways);
}

/* Deterministic cache parameters (Intel leaf 4, AMD 0x8000001d): how many found. */
static size_t deterministic(unsigned leaf, struct pt_host_cache *out, size_t max)
{
	unsigned a, b, c, d, i, max_leaf = __get_cpuid_max(leaf & 0x80000000u, NULL);
	size_t n = 0;

	if (max_leaf < leaf)
		return 0;
	for (i = 0; i < 16 && n < max; i++) {
		unsigned type, level;
		uint64_t ways, bytes;

		__cpuid_count(leaf, i, a, b, c, d);
		type = a & 0x1f;
		level = (a >> 5) & 7;
		if (!type)
			break;
		if (type == 2 || level < 1 || level > 2) /* instruction cache, or the LLC */
			continue;
		ways = (b >> 22) + 1;
		bytes = ways * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) * ((uint64_t)c + 1);
		fill(&out[n++], level, bytes, ways);
	}
	return n;
}

/* AMD's legacy leaves: L1D in 0x80000005 ECX, L2 in 0x80000006 ECX (assoc encoded). */
static size_t amd_legacy(struct pt_host_cache *out, size_t max)
{
	static const unsigned assoc[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, 0 };
	unsigned a, b, c, d;
	size_t n = 0;

	if (__get_cpuid_max(0x80000000u, NULL) < 0x80000006u)
		return 0;
	__cpuid(0x80000005u, a, b, c, d);
	if (c >> 24 && (c >> 16 & 0xff) && (c >> 16 & 0xff) != 0xff && n < max)
		fill(&out[n++], 1, (uint64_t)(c >> 24) << 10, c >> 16 & 0xff);
	__cpuid(0x80000006u, a, b, c, d);
	if (c >> 16 && assoc[c >> 12 & 0xf] && n < max)
		fill(&out[n++], 2, (uint64_t)(c >> 16) << 10, assoc[c >> 12 & 0xf]);
	return n;
}

size_t pt_host_caches_cpuid(struct pt_host_cache *out, size_t max)
{
	size_t n = deterministic(4, out, max);

	if (!n)
		n = deterministic(0x8000001du, out, max);
	if (!n)
		n = amd_legacy(out, max);
	return n;
}
#else
size_t pt_host_caches_cpuid(struct pt_host_cache *out, size_t max)
{
	(void)out;
	(void)max;
	return 0; /* CPUID is x86's; elsewhere sysfs or the defaults */
}
#endif
