/* SPDX-License-Identifier: GPL-2.0-only */
/* The parts of the thp workload that tests exercise on their own. */
#ifndef PTBENCH_THP_H
#define PTBENCH_THP_H

#include <stddef.h>
#include <stdint.h>

#define THP_SYSFS "/sys/kernel/mm/transparent_hugepage"

/*
 * The mTHP sizes (bytes, ascending) the kernel exposes under THP_SYSFS as
 * hugepages-<N>kB, larger than a page and smaller than the PMD size, whose
 * enabled knob this process may write. Returns how many (at most max).
 */
size_t thp_mthp_sizes(uint64_t page, uint64_t pmd, uint64_t *sizes, size_t max);

/*
 * Share of pages that faults of folio_pages pages each mapped, when the
 * rest fell back to single pages: pages = x * folio_pages + y and
 * faults = x + y. 0 when nothing adds up.
 */
double thp_mthp_fraction(uint64_t pages, uint64_t faults, uint64_t folio_pages);

#endif
