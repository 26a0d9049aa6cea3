// SPDX-License-Identifier: GPL-2.0-only
/*
 * The same data, spread over more pages: a random cycle over DATA MiB of
 * 64-byte lines, K lines used in each 4K page (so DATA/64/K pages), the
 * pages 4K (MADV_NOHUGEPAGE) or THP. K = 64 on THP is the tlb workload's
 * dense control; K = 1 on 4K is its chase (with DATA/64 times the span).
 * Each page's K lines are spread evenly over its 64, rotated by page. If
 * the cost at a given DATA rose with 1/K only as the model's extra walks
 * and host entries do, the two ends would agree with one effective LLC.
 * Packed instead puts a page's K lines in a row, so a line's 128-byte pair
 * partner is used too: at equal lines, pages and walks, a machine that
 * fills lines in pairs holds twice the spread layout's lines packed.
 * Prints ns per load (one untimed cycle, then max(4 lines, 2^20) loads).
 * Exits 1 when the mapping is not what the backing says, 2 on bad input.
 *   gcc -O2 lines-per-page.c -o lines-per-page
 *   for r in 1 2 3; do for d in 2 4 8 16; do for k in 64 16 4 1; do
 *     taskset -c 1 ./lines-per-page $d $k 4k; done;
 *     taskset -c 1 ./lines-per-page $d 64 thp; done; done
 *   for r in 1 2 3; do for d in 2 4 6 8 12; do for l in spread packed; do
 *     taskset -c 1 ./lines-per-page $d 32 thp $l; done; done; done
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "probe.h"

#define PAGE 4096
#define LINE 64

static unsigned long parse(const char *s, unsigned long lo, unsigned long hi, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*end || end == s || v < lo || v > hi) {
		fprintf(stderr, "lines-per-page: %s '%s': expected %lu to %lu\n", what, s, lo, hi);
		exit(2);
	}
	return v;
}

static int packed;

/*
 * Line j of the page's k: spread evenly over its 64 slots, rotated by the
 * page (no two in one 128-byte pair while k <= 32), or packed: k slots in
 * a row from slot (page * k) % 64 (whole 128-byte pairs for even k).
 */
static char *line_at(char *b, size_t l, unsigned k)
{
	size_t p = l / k, j = l % k, gap = PAGE / LINE / k;

	if (packed)
		return b + p * PAGE + (p * k + j) % (PAGE / LINE) * LINE;
	return b + p * PAGE + (j * gap + p % gap) * LINE;
}

int main(int argc, char **argv)
{
	size_t huge = 2 << 20, lines, pages, len, i;
	unsigned long data, k;
	uint32_t *perm;
	char *b, *p;
	double ns;
	long hk;
	int thp;

	if ((argc != 4 && argc != 5) || (strcmp(argv[3], "4k") && strcmp(argv[3], "thp")) ||
	    (argc == 5 && strcmp(argv[4], "spread") && strcmp(argv[4], "packed"))) {
		fprintf(stderr,
			"usage: %s DATA_MIB K 4k|thp [spread|packed] (K: 1, 2, 4, ..., 64)\n",
			argv[0]);
		return 2;
	}
	packed = argc == 5 && !strcmp(argv[4], "packed");
	data = parse(argv[1], 1, 4096, "DATA_MIB");
	k = parse(argv[2], 1, 64, "K");
	if (k & (k - 1)) {
		fprintf(stderr, "%s: K '%s': expected a power of two\n", argv[0], argv[2]);
		return 2;
	}
	thp = !strcmp(argv[3], "thp");
	lines = (data << 20) / LINE;
	pages = lines / k;
	len = (pages * PAGE + huge - 1) / huge * huge;
	b = map_huge_aligned(len);
	perm = malloc(lines * sizeof(*perm));
	if (!b || !perm) {
		fprintf(stderr, "%s: cannot allocate\n", argv[0]);
		return 1;
	}
	madvise(b, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(b, 0, len);
	hk = anon_huge_kb();
	if (thp ? hk < (long)(len >> 10) : hk != 0) {
		fprintf(stderr, "%s: %s: AnonHugePages %ld kB for %zu kB\n", argv[0], argv[3], hk,
			len >> 10);
		return 1;
	}
	for (i = 0; i < lines; i++)
		perm[i] = (uint32_t)i;
	/* Sattolo: one cycle through every line */
	for (i = lines - 1; i > 0; i--) {
		size_t j = next() % i;
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < lines; i++)
		*(char **)line_at(b, i, (unsigned)k) = line_at(b, perm[i], (unsigned)k);
	p = line_at(b, 0, (unsigned)k);
	for (i = 0; i < lines; i++)
		p = *(char **)p;
	ns = chase_ns(&p, chase_loads(lines));
	printf("%s %s data=%luM k=%lu pages=%zu span=%zuM %.1f ns/load%s\n", argv[3],
	       packed ? "packed" : "spread", data, k, pages, pages * PAGE >> 20, ns,
	       p ? "" : " (null)");
	return 0;
}
