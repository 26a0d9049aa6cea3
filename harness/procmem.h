/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory of the running process and the machine, as the kernel reports it,
 * and the mappings workloads measure on. All reads go through sysfs.h.
 */
#ifndef PTBENCH_PROCMEM_H
#define PTBENCH_PROCMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/case.h"

struct pt_smaps_info {
	uint64_t rss_bytes;
	uint64_t anon_huge_bytes; /* AnonHugePages */
	uint64_t file_pmd_bytes; /* FilePmdMapped + ShmemPmdMapped */
	unsigned vmas; /* VMAs overlapping the range */
};

struct pt_pagemap_info {
	uint64_t pages; /* base pages in the range */
	uint64_t present; /* present in RAM */
	uint64_t thp_pages; /* base pages of a THP (kpageflags, root) */
	bool thp_known; /* false when kpageflags could not be read */
};

long pt_vmpte_kb(void); /* VmPTE of this process, -1 */
long pt_meminfo_kb(const char *key); /* e.g. "PageTables", -1 */
uint64_t pt_mem_available(void); /* MemAvailable in bytes, 0 */
int pt_smaps_range(const void *addr, size_t len, struct pt_smaps_info *s);
int pt_pagemap_range(const void *addr, size_t len, struct pt_pagemap_info *p);
/*
 * The memory guard: 0 when bytes fits within frac of MemAvailable,
 * otherwise -1 with the reason in msg.
 */
int pt_memory_guard(uint64_t bytes, double frac, char *msg, size_t len);
/*
 * An anonymous private mapping of len bytes whose start is aligned to
 * align (a PMD size for THP), advised for the backing: 4K gets
 * MADV_NOHUGEPAGE, THP and mTHP MADV_HUGEPAGE. NULL on failure.
 */
void *pt_map_anon(size_t len, size_t align, enum pt_backing b);
void pt_unmap(void *addr, size_t len);
/* Touch one byte per page for writing (populate). */
void pt_touch_pages(void *addr, size_t len, size_t page);
uint64_t pt_page_size(void);
uint64_t pt_pmd_size(void); /* hpage_pmd_size, or the page size * 512 */

#endif
