// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where does a chase's time go past 128M: every access a little slower
 * (cache and memory), or a few accesses very slow (a VM exit, a fault, a
 * host event)? The chase of workloads/tlb.c (a random cycle, one load per
 * 4K page, the line varied) or its dense control (as many loads, packed one
 * per line into THP) is timed twice: plain, as the workload times it, then
 * each load alone between two TSC reads, into a histogram of 4 ns buckets
 * up to 4 us. Prints the plain ns per load, the timed loads' mean, median,
 * p90, p99 and p99.9, the share of loads and of time above 1 us, and the
 * probe's own overhead (the same timing of a chase that stays in the L1).
 * Exits 1 when the mapping is not what the mode says, 2 on bad arguments.
 *   gcc -O2 access-hist.c -o access-hist
 *   for r in 1 2; do for w in 64 128 256 512 1024; do
 *     for m in chase dense; do taskset -c 1 ./access-hist $w $m; done; done; done
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <x86intrin.h>

#include "probe.h"

#define BUCKET_NS 4
#define NBUCKETS 1000 /* 4 us */

static uint64_t hist[NBUCKETS + 1];
static double over_ns; /* time in the loads past the last bucket */

/* TSC ticks per ns, against CLOCK_MONOTONIC over 200 ms */
static double tsc_per_ns(void)
{
	double t0 = now_ns(), t1;
	uint64_t c0 = __rdtsc(), c1;

	do
		t1 = now_ns();
	while (t1 - t0 < 2e8);
	c1 = __rdtsc();
	return (double)(c1 - c0) / (t1 - t0);
}

/* a random cycle over n slots, each slot's address from at() */
static char *link_cycle(char *b, size_t n, size_t stride, uint32_t *perm)
{
	size_t i;

	shuffle(perm, n);
	/* a chase varies the line in each page; a dense slot is its line */
	for (i = 0; i < n; i++) {
		char *from = b + perm[i] * stride + (stride > 64 ? perm[i] * 64 % stride : 0);
		char *to = b + perm[(i + 1) % n] * stride +
			   (stride > 64 ? perm[(i + 1) % n] * 64 % stride : 0);

		*(char **)from = to;
	}
	return b + perm[0] * stride + (stride > 64 ? perm[0] * 64 % stride : 0);
}

static double timed(char **pp, size_t loads, double per_ns)
{
	char *p = *pp;
	double sum = 0;
	size_t i;

	memset(hist, 0, sizeof(hist));
	over_ns = 0;
	for (i = 0; i < loads; i++) {
		uint64_t c0, c1;
		double ns;
		size_t k;

		_mm_lfence();
		c0 = __rdtsc();
		_mm_lfence();
		p = *(char **)p;
		/* the next TSC read waits for the load (lfence: earlier loads done) */
		_mm_lfence();
		c1 = __rdtsc();
		ns = (double)(c1 - c0) / per_ns;
		sum += ns;
		k = (size_t)(ns / BUCKET_NS);
		if (k >= NBUCKETS) {
			k = NBUCKETS;
			over_ns += ns;
		}
		hist[k]++;
	}
	*pp = p;
	return sum / (double)loads;
}

static double pct(size_t loads, double q)
{
	uint64_t want = (uint64_t)(q * (double)loads), acc = 0;
	size_t k;

	for (k = 0; k <= NBUCKETS; k++) {
		acc += hist[k];
		if (acc > want)
			return (k + 0.5) * BUCKET_NS;
	}
	return NBUCKETS * BUCKET_NS;
}

static void above(size_t loads, double mean, double ns, double *frac_loads, double *frac_time)
{
	size_t k, from = (size_t)(ns / BUCKET_NS);
	double cnt = 0, t = 0;

	for (k = from; k < NBUCKETS; k++) {
		cnt += (double)hist[k];
		t += (double)hist[k] * (k + 0.5) * BUCKET_NS;
	}
	cnt += (double)hist[NBUCKETS];
	t += over_ns;
	*frac_loads = cnt / (double)loads;
	*frac_time = t / (mean * (double)loads);
}

int main(int argc, char **argv)
{
	size_t ws, n, len, stride, loads, page = 4096, huge = 2 << 20;
	double per_ns, base_ns, ns_plain, mean, fl, ft, fl5, ft5;
	unsigned long long mib;
	bool dense;
	uint32_t *perm;
	char *b, *p;
	long hk;
	size_t o;

	if (argc != 3 || (strcmp(argv[2], "chase") && strcmp(argv[2], "dense"))) {
		fprintf(stderr, "usage: %s MIB chase|dense\n", argv[0]);
		return 2;
	}
	mib = even_mib(argv[0], argv[1]);
	dense = !strcmp(argv[2], "dense");
	ws = (size_t)mib << 20;
	n = ws / page;
	stride = dense ? 64 : page;
	len = dense ? (n * 64 + huge - 1) / huge * huge : ws;
	b = map_huge_aligned(len);
	perm = malloc(n * sizeof(*perm));
	if (!b || !perm) {
		fprintf(stderr, "%s: cannot allocate %llu MiB\n", argv[0], mib);
		return 1;
	}
	madvise(b, len, dense ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (o = 0; o < len; o += page)
		b[o] = 1;
	hk = anon_huge_kb();
	if (dense ? hk < (long)(len >> 10) : hk != 0) {
		fprintf(stderr, "%s: %s over %llu MiB: AnonHugePages %ld kB\n", argv[0], argv[2],
			mib, hk);
		return 1;
	}
	per_ns = tsc_per_ns();

	/* the probe's overhead: the same timing over 64 lines that stay in the L1 */
	p = link_cycle(b, 64, 64, perm);
	timed(&p, 1u << 16, per_ns);
	base_ns = pct(1u << 16, 0.5);

	p = link_cycle(b, n, stride, perm);
	chase_ns(&p, n); /* one full cycle: TLB, caches and the host's mappings warm */
	loads = chase_loads(n);
	ns_plain = chase_ns(&p, loads);
	mean = timed(&p, loads, per_ns);
	above(loads, mean, 1000, &fl, &ft);
	above(loads, mean, 500, &fl5, &ft5);
	printf("%s ws=%lluM loads=%zu plain=%.1f ns timed: mean=%.1f p50=%.0f p90=%.0f p99=%.0f "
	       "p99.9=%.0f >500ns: %.4f of loads %.3f of time >1us: %.5f of loads %.3f of time "
	       "(probe overhead p50 %.0f ns; tsc %.3f/ns)%s\n",
	       argv[2], mib, loads, ns_plain, mean, pct(loads, 0.5), pct(loads, 0.9),
	       pct(loads, 0.99), pct(loads, 0.999), fl5, ft5, fl, ft, base_ns, per_ns,
	       p ? "" : " (null)");
	return 0;
}
