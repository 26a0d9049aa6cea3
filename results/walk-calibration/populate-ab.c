// SPDX-License-Identifier: GPL-2.0-only
/*
 * Does the way the tlb workload populates its region change the chase it
 * times? memset (before c4ce4be) against MADV_POPULATE_WRITE and a write to
 * each page (since), alternated 8 times per working set in one process,
 * the same chase as workloads/tlb.c (a random cycle, one load per 4K page,
 * one full cycle before max(4n, 2^20) timed loads). Prints ns per load.
 *   gcc -O2 populate-ab.c -o populate-ab && taskset -c 1 ./populate-ab
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
static double one(size_t len, int mode, uint64_t seed)
{
	size_t page = 4096, n = len / page;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	madvise(p, len, MADV_NOHUGEPAGE);
	if (mode == 0)
		memset(p, 0, len);
	else {
		madvise(p, len, MADV_POPULATE_WRITE);
		for (size_t o = 0; o < len; o += page)
			((volatile char *)p)[o] = 0;
	}
	uint32_t *ord = malloc(n * 4);
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	uint64_t x = seed | 1;
	for (size_t i = n - 1; i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t j = x % i;
		uint32_t t = ord[i];
		ord[i] = ord[j];
		ord[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(p + (size_t)ord[i] * page + (ord[i] % 64) * 64) =
			p + (size_t)ord[(i + 1) % n] * page + (ord[(i + 1) % n] % 64) * 64;
	void **q = (void **)(p + (size_t)ord[0] * page + (ord[0] % 64) * 64);
	free(ord);
	for (size_t i = 0; i < n; i++)
		q = *q;
	size_t loads = 4 * n < (1u << 20) ? (1u << 20) : 4 * n;
	double t0 = now();
	for (size_t i = 0; i < loads; i++)
		q = *q;
	double t1 = now();
	void *volatile s = q;
	(void)s;
	munmap(p, len);
	return (t1 - t0) / loads * 1e9;
}
int main(void)
{
	size_t sizes[] = { 64ul << 20, 128ul << 20, 256ul << 20, 1ul << 30 };
	for (int s = 0; s < 4; s++) {
		double a[8], b[8];
		for (int r = 0; r < 8; r++) {
			a[r] = one(sizes[s], r % 2, r + 1);
			b[r] = one(sizes[s], 1 - r % 2, r + 1);
		}
		printf("%4zuM memset:", sizes[s] >> 20);
		for (int r = 0; r < 8; r++)
			printf(" %.0f", r % 2 ? b[r] : a[r]);
		printf("\n      populate:");
		for (int r = 0; r < 8; r++)
			printf(" %.0f", r % 2 ? a[r] : b[r]);
		printf("\n");
	}
}
