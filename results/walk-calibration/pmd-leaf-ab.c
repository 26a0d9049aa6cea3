// SPDX-License-Identifier: GPL-2.0-only
/*
 * Is a guest THP chase cheaper than a 4K one because of the guest's PMD
 * leaf or because of the THP's physical contiguity? One chase (as
 * workloads/tlb.c: a random cycle, one load per 4K page, the line varied,
 * one full cycle before max(4n, 2^20) timed loads) over a region mapped
 * three ways, one process per region:
 *   4k      MADV_NOHUGEPAGE: PTE leaves, frames wherever the allocator put them
 *   thp     MADV_HUGEPAGE, 2M-aligned: PMD leaves
 *   ptethp  as thp, then the PMD mapping of each 2M block split by an
 *           mprotect of its first page and back: PTE leaves over the same
 *           physically contiguous huge pages (AnonHugePages drops to 0)
 * Prints ns per load and AnonHugePages before and after the split, and
 * exits 1 without a figure when the mapping is not what the mode says (4k
 * with huge pages, thp short of them, ptethp still PMD-mapped); bad
 * arguments exit 2.
 *   gcc -O2 pmd-leaf-ab.c -o pmd-leaf-ab
 *   for r in 1 2 3 4; do for w in 16 32 64 128 256 1024; do
 *     for m in 4k thp ptethp; do taskset -c 1 ./pmd-leaf-ab $w $m; done; done; done
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "probe.h"

static char *slot(char *base, size_t i)
{
	return base + i * 4096 + (i * 64) % 4096;
}

int main(int argc, char **argv)
{
	size_t ws, n, i, o, huge = 2 << 20, page = 4096;
	const char *mode;
	long before, after;
	uint32_t *perm;
	char *b, *p;
	unsigned long long mib;
	double ns;

	if (argc != 3 ||
	    (strcmp(argv[2], "4k") && strcmp(argv[2], "thp") && strcmp(argv[2], "ptethp"))) {
		fprintf(stderr, "usage: %s MIB 4k|thp|ptethp\n", argv[0]);
		return 2;
	}
	mib = even_mib(argv[0], argv[1]);
	ws = (size_t)mib << 20;
	mode = argv[2];
	n = ws / page;
	b = map_huge_aligned(ws);
	perm = malloc(n * sizeof(*perm));
	if (!b || !perm) {
		fprintf(stderr, "%s: cannot allocate %llu MiB\n", argv[0], mib);
		return 1;
	}
	madvise(b, ws, strcmp(mode, "4k") ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (o = 0; o < ws; o += page)
		b[o] = 1;
	before = anon_huge_kb();
	if (!strcmp(mode, "ptethp")) {
		for (o = 0; o < ws; o += huge)
			mprotect(b + o, page, PROT_READ);
		for (o = 0; o < ws; o += huge)
			mprotect(b + o, page, PROT_READ | PROT_WRITE);
	}
	after = anon_huge_kb();
	/* the mapping the mode claims, or no figure */
	if (!strcmp(mode, "4k")	   ? before != 0 || after != 0
	    : !strcmp(mode, "thp") ? before < (long)(ws >> 10) || after < (long)(ws >> 10)
				   : before < (long)(ws >> 10) || after != 0) {
		fprintf(stderr, "%s: %s over %llu MiB: AnonHugePages %ld kB before, %ld after\n",
			argv[0], mode, mib, before, after);
		return 1;
	}
	shuffle(perm, n);
	for (i = 0; i < n; i++)
		*(char **)slot(b, perm[i]) = slot(b, perm[(i + 1) % n]);
	p = slot(b, perm[0]);
	for (i = 0; i < n; i++)
		p = *(char **)p;
	ns = chase_ns(&p, chase_loads(n));
	printf("%s ws=%zuM %.1f ns/access (AnonHugePages kB before %ld after %ld)%s\n", mode,
	       ws >> 20, ns, before, after, p ? "" : " (null)");
	return 0;
}
