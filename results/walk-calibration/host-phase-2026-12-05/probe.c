// SPDX-License-Identifier: GPL-2.0-only
/*
 * Could a short chase beside each repetition tell the host's state? A
 * fixed 256M probe region of 4K pages is chased for 32768 loads right
 * before and right after each repetition of a case (a fresh allocation,
 * one full cycle, then 2^20 timed loads, as the tlb workload does), the
 * cases taken in turn. cold: the probe chased as it is, after the case
 * displaced it from the caches; warm: one full cycle of the probe first.
 * One line per repetition: seconds, case, probe before, case, probe after
 * (ns per load).
 *
 *   cc -O2 -o probe probe.c && taskset -c 1 ./probe cold|warm SECONDS
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
#define PROBE_LOADS 32768
#define CASE_LOADS (1u << 20)

struct region {
	char *base;
	size_t len, n, stride;
	void **q;
};

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

static void **elem(const struct region *r, size_t i)
{
	return (void **)(r->base + i * r->stride + (i * 37 % (PAGE / LINE)) * LINE);
}

/* Map len bytes of 4K pages and chain one load per stride through them at random. */
static void map_chain(struct region *r, size_t len, size_t stride, uint64_t seed)
{
	size_t *order, i;

	r->len = len;
	r->stride = stride;
	r->n = len / stride;
	r->base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	order = malloc(r->n * sizeof(*order));
	if (r->base == MAP_FAILED || !order)
		exit(1);
	madvise(r->base, len, MADV_NOHUGEPAGE);
	memset(r->base, 1, len);
	for (i = 0; i < r->n; i++)
		order[i] = i;
	for (i = r->n - 1; i > 0; i--) { /* Sattolo: one cycle */
		size_t j = xorshift64(&seed) % i, t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < r->n; i++)
		*elem(r, order[i]) = elem(r, order[(i + 1) % r->n]);
	free(order);
	r->q = elem(r, 0);
}

/* ns per load over loads dependent loads. */
static double chase(struct region *r, size_t loads)
{
	double s = now();
	size_t i;

	for (i = 0; i < loads; i++)
		r->q = *r->q;
	return (now() - s) * 1e9 / loads;
}

static double probe(struct region *p, int warm)
{
	if (warm)
		chase(p, p->n);
	return chase(p, PROBE_LOADS);
}

int main(int argc, char **argv)
{
	static const struct {
		size_t mib, pages_per_load;
		const char *name;
	} cases[] = { { 128, 1, "chase-4k-128M" },
		      { 256, 2, "chase-half-256M" },
		      { 256, 1, "chase-4k-256M" },
		      { 64, 1, "chase-4k-64M" },
		      { 1024, 1, "chase-4k-1G" } };
	struct region p, c;
	double secs, t0;
	int warm, k = 0;

	if (argc != 3 || (strcmp(argv[1], "cold") && strcmp(argv[1], "warm")) ||
	    !(atof(argv[2]) > 0)) {
		fprintf(stderr, "usage: %s cold|warm SECONDS\n", argv[0]);
		return 2;
	}
	warm = !strcmp(argv[1], "warm");
	secs = atof(argv[2]);
	map_chain(&p, 256u << 20, PAGE, 1);
	chase(&p, p.n);
	printf("t_s case probe_before_ns case_ns probe_after_ns\n");
	for (t0 = now(); now() - t0 < secs; k = (k + 1) % 5) {
		double t = now() - t0, before, ns, after;

		map_chain(&c, cases[k].mib << 20, cases[k].pages_per_load * PAGE, 1000 + k);
		before = probe(&p, warm);
		chase(&c, c.n);
		ns = chase(&c, CASE_LOADS);
		after = probe(&p, warm);
		printf("%.2f %s %.1f %.1f %.1f\n", t, cases[k].name, before, ns, after);
		fflush(stdout);
		munmap(c.base, c.len);
	}
	return !p.q || !c.q;
}
