// SPDX-License-Identifier: GPL-2.0-only
/*
 * Does spatial prefetching make the dense control cheap? A random cycle over
 * L bytes of distinct 64-byte lines, taken every k-th line of a region of
 * k*L bytes (k = 1, 2, 4, 8, 64): the same distinct lines, the same loads;
 * only the neighbours of each line differ. Usage: pf ROUNDS
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t xs(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double run(size_t lines_bytes, size_t k)
{
	size_t n = lines_bytes / 64, region = lines_bytes * k, i;
	char *b = mmap(NULL, region, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t *perm = malloc(n * sizeof(*perm));
	double best = 1e30;
	int rep;

	if (b == MAP_FAILED || !perm) {
		perror("mmap");
		exit(1);
	}
	madvise(b, region, MADV_HUGEPAGE);
	memset(b, 1, region);
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		size_t j = xs() % (i + 1);
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++)
		*(void **)(b + (size_t)perm[i] * 64 * k) = b + (size_t)perm[(i + 1) % n] * 64 * k;
	for (rep = 0; rep < 5; rep++) {
		void **p = (void **)(b + (size_t)perm[0] * 64 * k);
		double t0 = now(), dt;

		for (i = 0; i < 4 * n; i++)
			p = *p;
		dt = (now() - t0) / (4 * n) * 1e9;
		if (!p)
			exit(3);
		if (dt < best)
			best = dt;
	}
	munmap(b, region);
	free(perm);
	return best;
}

int main(int argc, char **argv)
{
	static const size_t L[] = { 1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20 };
	static const size_t K[] = { 1, 2, 4, 8, 64 };
	int rounds = argc > 1 ? atoi(argv[1]) : 3, r;
	size_t a, b;

	if (rounds < 1 || rounds > 20) {
		fprintf(stderr, "pf: ROUNDS must be 1-20\n");
		return 2;
	}
	printf("round lines_MiB k region_MiB ns_per_load\n");
	for (r = 0; r < rounds; r++)
		for (a = 0; a < sizeof(L) / sizeof(L[0]); a++)
			for (b = 0; b < sizeof(K) / sizeof(K[0]); b++) {
				if (L[a] * K[b] > (1ull << 30))
					continue;
				printf("%d %zu %zu %zu %.2f\n", r, L[a] >> 20, K[b],
				       (L[a] * K[b]) >> 20, run(L[a], K[b]));
				fflush(stdout);
			}
	return 0;
}
