// SPDX-License-Identifier: GPL-2.0-only
/*
 * How much of a 4K chase's cost past the L2 TLB is the walk of the first
 * stage (the shadow's tables), and how much the data and the host's
 * entries for it? Two chases with one instruction stream: a load per 4K
 * page of MIB MiB, the pages in a random order read from an index array,
 * each load's address depending on the value the one before it read (0),
 * the line within the page varied as workloads/tlb.c varies it:
 *   distinct  anonymous 4K pages (MADV_NOHUGEPAGE): a page of data, a
 *             first-stage leaf entry and a host translation per page
 *   alias     the same virtual layout, every 16 pages mapped onto one
 *             16-page memfd (MAP_SHARED): as many first-stage leaf
 *             entries and walks, but 64 KiB of data behind 16 host
 *             translations, which stay cached
 * Prints ns per load (one untimed pass, then max(4n, 2^20) timed loads).
 * Exits 1 when a mapping fails or distinct pages come out huge, 2 on bad
 * arguments.
 *   gcc -O2 walk-alias.c -o walk-alias
 *   for r in 1 2 3; do for w in 16 32 64 128 256 512 1024; do
 *     for m in distinct alias; do taskset -c 1 ./walk-alias $w $m; done; done; done
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

#define PAGE 4096
#define ALIAS_PAGES 512

/* n pages of 4K: anonymous, or every ALIAS_PAGES of them one memfd's pages */
static char *map_pages(size_t n, int alias)
{
	size_t len = n * PAGE, o;
	char *b;
	int fd;

	b = mmap(NULL, len, alias ? PROT_NONE : PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (b == MAP_FAILED)
		return NULL;
	if (!alias) {
		madvise(b, len, MADV_NOHUGEPAGE);
		return b;
	}
	fd = memfd_create("walk-alias", 0);
	if (fd < 0 || ftruncate(fd, ALIAS_PAGES * PAGE))
		return NULL;
	for (o = 0; o < len; o += ALIAS_PAGES * PAGE)
		if (mmap(b + o, ALIAS_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			 fd, 0) == MAP_FAILED)
			return NULL;
	close(fd);
	return b;
}

static double chase(const char *b, const uint32_t *perm, size_t n, size_t loads)
{
	uint64_t v = 0;
	double t0 = now_ns(), t1;
	size_t i, k = 0;

	for (i = 0; i < loads; i++) {
		uint32_t pg = perm[k];

		/* v is 0: the address waits for the load before it */
		v = *(const volatile uint64_t *)(b + (size_t)pg * PAGE + pg * 64 % PAGE + v);
		if (++k == n)
			k = 0;
	}
	t1 = now_ns();
	return v ? -1 : (t1 - t0) / (double)loads;
}

int main(int argc, char **argv)
{
	unsigned long long mib;
	size_t n, i, loads;
	uint32_t *perm;
	int alias;
	double ns;
	char *b, *end;

	if (argc != 3 || (strcmp(argv[2], "distinct") && strcmp(argv[2], "alias"))) {
		fprintf(stderr, "usage: %s MIB distinct|alias\n", argv[0]);
		return 2;
	}
	mib = strtoull(argv[1], &end, 10);
	if (*end || end == argv[1] || mib < 1 || mib > (1ull << 16)) {
		fprintf(stderr, "%s: MIB '%s': expected 1 to 65536\n", argv[0], argv[1]);
		return 2;
	}
	alias = !strcmp(argv[2], "alias");
	n = (size_t)mib * (1 << 20) / PAGE;
	b = map_pages(n, alias);
	perm = malloc(n * sizeof(*perm));
	if (!b || !perm) {
		fprintf(stderr, "%s: cannot map %llu MiB as %s\n", argv[0], mib, argv[2]);
		return 1;
	}
	/* every page present and zero: a write faults each in */
	for (i = 0; i < n; i++)
		memset(b + i * PAGE + i * 64 % PAGE, 0, 8);
	/* distinct pages must be 4K ones: a huge page would save the walks measured */
	if (!alias && anon_huge_kb() != 0) {
		fprintf(stderr,
			"%s: distinct over %llu MiB got huge pages (AnonHugePages %ld kB)\n",
			argv[0], mib, anon_huge_kb());
		return 1;
	}
	shuffle(perm, n);
	chase(b, perm, n, n);
	loads = n * 4 < (1u << 20) ? (1u << 20) : n * 4;
	ns = chase(b, perm, n, loads);
	if (ns < 0) {
		fprintf(stderr, "%s: a page read nonzero\n", argv[0]);
		return 1;
	}
	printf("%s ws=%lluM pages=%zu %.1f ns/load\n", argv[2], mib, n, ns);
	return 0;
}
