// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which pages does the L2 TLB lose under a stride? A dependent chase over
 * N pages, one load per page, the pages s apart, for several N and s,
 * interleaved over rounds; median ns per load of each (N, s).
 * Usage: stride ROUNDS
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PAGE 4096UL
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double chase(size_t n, size_t s)
{
	size_t span = n * s * PAGE;
	char *b = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t *perm = malloc(n * sizeof(*perm));
	void **p;
	double t0, t1;
	long i, loads;

	if (b == MAP_FAILED || !perm) {
		fprintf(stderr, "stride: cannot map %zu pages\n", n * s);
		exit(1);
	}
	madvise(b, span, MADV_NOHUGEPAGE);
	for (i = 0; i < (long)n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		long j = random() % (i + 1);
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < (long)n; i++) {
		size_t a = (size_t)perm[i] * s * PAGE + (perm[i] * 37 % 64) * 64;
		size_t c =
			(size_t)perm[(i + 1) % n] * s * PAGE + (perm[(i + 1) % n] * 37 % 64) * 64;

		*(void **)(b + a) = b + c;
	}
	p = (void **)(b + (size_t)perm[0] * s * PAGE + (perm[0] * 37 % 64) * 64);
	for (i = 0; i < (long)n * 4; i++)
		p = *p;
	loads = 4000000;
	t0 = now();
	for (i = 0; i < loads; i++)
		p = *p;
	t1 = now();
	if (!p)
		exit(1);
	munmap(b, span);
	free(perm);
	return (t1 - t0) * 1e9 / loads;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const size_t ns[] = { 1024, 2048, 3072, 4096, 6144, 8192 };
	static const size_t ss[] = { 1, 2, 3, 4, 5, 8, 16 };
	enum { NN = sizeof(ns) / sizeof(ns[0]), NS = sizeof(ss) / sizeof(ss[0]) };
	int rounds = argc > 1 ? atoi(argv[1]) : 5, r, a, c;
	static double v[NN][NS][32];

	if (rounds < 1 || rounds > 32) {
		fprintf(stderr, "usage: stride [ROUNDS]: ROUNDS '%s' is not 1 to 32\n", argv[1]);
		return 2;
	}
	srandom(1);
	for (r = 0; r < rounds; r++)
		for (a = 0; a < NN; a++)
			for (c = 0; c < NS; c++)
				v[a][c][r] = chase(ns[a], ss[c]);
	printf("pages");
	for (c = 0; c < NS; c++)
		printf("  stride%-3zu", ss[c]);
	printf("\n");
	for (a = 0; a < NN; a++) {
		printf("%5zu", ns[a]);
		for (c = 0; c < NS; c++) {
			qsort(v[a][c], rounds, sizeof(double), cmp);
			printf("  %6.2f[%5.1f-%5.1f]", v[a][c][rounds / 2], v[a][c][0],
			       v[a][c][rounds - 1]);
		}
		printf("\n");
	}
	return 0;
}
