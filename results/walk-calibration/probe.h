/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the probes in this directory share: the chase's random numbers
 * (xorshift64, the seed every probe starts from), a monotonic clock in ns
 * and the process's AnonHugePages. Each probe stays one file to build:
 * gcc -O2 NAME.c -o NAME, this header beside it.
 */
#ifndef PROBE_H
#define PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static uint64_t probe_seed = 88172645463325252ull;

static inline uint64_t next(void)
{
	probe_seed ^= probe_seed << 13;
	probe_seed ^= probe_seed >> 7;
	probe_seed ^= probe_seed << 17;
	return probe_seed;
}

static inline double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* perm = a uniformly random order of 0..n-1 (Fisher-Yates, from next()) */
static inline void shuffle(uint32_t *perm, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (i = n - 1; i > 0; i--) {
		size_t j = next() % (i + 1);
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
}

/* s as an even number of MiB, 2 to 2^20; anything else exits 2 naming it */
static inline unsigned long long even_mib(const char *prog, const char *s)
{
	char *end;
	unsigned long long mib = strtoull(s, &end, 10);

	if (*end || end == s || mib < 2 || mib % 2 || mib > (1ull << 20)) {
		fprintf(stderr, "%s: MIB '%s': expected an even number of MiB, 2 to 1048576\n",
			prog, s);
		exit(2);
	}
	return mib;
}

/* len bytes of private anonymous memory at a 2 MiB boundary (len + 2 MiB mapped), NULL if none */
static inline char *map_huge_aligned(size_t len)
{
	size_t huge = 2 << 20;
	char *raw =
		mmap(NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (raw == MAP_FAILED)
		return NULL;
	return (char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
}

/* The timed loads of a cycle of n: max(4n, 2^20), so short cycles still run long enough. */
static inline size_t chase_loads(size_t n)
{
	return n * 4 < (1u << 20) ? (1u << 20) : n * 4;
}

/* ns per load over loads dependent loads from *pp (left where the chase stopped). */
static inline double chase_ns(char **pp, size_t loads)
{
	double t0 = now_ns(), t1;
	char *p = *pp;
	size_t i;

	for (i = 0; i < loads; i++)
		p = *(char **)p;
	t1 = now_ns();
	*pp = p;
	return (t1 - t0) / (double)loads;
}

/* kB of anonymous huge pages the process maps, -1 if it cannot be read */
static inline long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

#endif
