// SPDX-License-Identifier: GPL-2.0-only
/*
 * Is a large chase's slow state tied to its allocation or to the time it
 * runs? Maps a working set of 4K pages, chases one random cycle through
 * its pages (one load per page, as the tlb workload's chase-4k does) pass
 * after pass for a while, then unmaps it and starts again with a fresh
 * allocation. One line per pass: seconds since start, allocation, ns per
 * load. An allocation that stays in one state while the next differs means
 * allocation; states that change inside one allocation mean time.
 *
 *   cc -O2 -o phase phase.c && taskset -c 1 ./phase MiB ALLOCS SECONDS
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PAGE 4096
#define LINE 64

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Element i: page i, its line varied so the loads spread over the cache sets. */
static void **elem(char *base, size_t i)
{
	return (void **)(base + i * PAGE + (i * 37 % (PAGE / LINE)) * LINE);
}

/* One random cycle through the n pages (Sattolo's algorithm). */
static void build(char *base, size_t n, uint64_t seed)
{
	size_t *order = malloc(n * sizeof(*order)), i;

	if (!order)
		exit(1);
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		size_t j = xorshift64(&seed) % i, t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++)
		*elem(base, order[i]) = elem(base, order[(i + 1) % n]);
	free(order);
}

int main(int argc, char **argv)
{
	size_t ws, n, i;
	int allocs, a;
	double secs, t0;

	if (argc != 4) {
		fprintf(stderr, "usage: %s MiB ALLOCS SECONDS\n", argv[0]);
		return 2;
	}
	ws = strtoull(argv[1], NULL, 0) << 20;
	allocs = atoi(argv[2]);
	secs = atof(argv[3]);
	n = ws / PAGE;
	if (!n || allocs < 1 || !(secs > 0)) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	t0 = now();
	printf("t_s alloc ns_per_load\n");
	for (a = 0; a < allocs; a++) {
		char *base =
			mmap(NULL, ws, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		void **q;
		double start;

		if (base == MAP_FAILED)
			return 1;
		madvise(base, ws, MADV_NOHUGEPAGE);
		memset(base, 1, ws);
		build(base, n, 0x9e3779b97f4a7c15ull + a);
		q = elem(base, 0);
		for (i = 0; i < n; i++) /* one full cycle: steady state */
			q = *q;
		start = now();
		while (now() - start < secs) {
			double s = now(), e;

			for (i = 0; i < n; i++)
				q = *q;
			e = now();
			printf("%.3f %d %.1f\n", s - t0, a, (e - s) * 1e9 / n);
		}
		if (!q)
			return 1;
		munmap(base, ws);
	}
	return 0;
}
