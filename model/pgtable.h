/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-table memory from a set of populated extents: how many tables each
 * level of a geometry needs to map them and what they cost in bytes, with
 * the Linux rules that matter (docs/model.md):
 *  - a PMD-mapped THP deposits a pre-allocated PTE table
 *    (pgtable_trans_huge_deposit), so THP regions still cost leaf tables;
 *  - a THP or hugetlb page larger than the geometry's block becomes several
 *    blocks (a 2M D64 THP is two 1M blocks under 4K D128);
 *  - the kernel's own figure (VmPTE = mm_pgtables_bytes) counts PTE, PMD
 *    and PUD tables (mm_inc_nr_ptes/pmds/puds), never the PGD or a P4D.
 * Pure computation: no I/O.
 */
#ifndef PTBENCH_MODEL_PGTABLE_H
#define PTBENCH_MODEL_PGTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/geometry.h"

enum pt_map_kind {
	PT_MAP_BASE = 0, /* base pages mapped by PTEs */
	PT_MAP_THP = 1, /* a PMD-mapped transparent huge page (deposit) */
	PT_MAP_HUGETLB = 2, /* hugetlbfs pages of 2^huge_shift bytes */
	/*
	 * A PMD-mapped file or shmem THP: no PTE table is deposited under it
	 * (only anonymous THP deposits, unless arch_needs_pgtable_deposit()).
	 */
	PT_MAP_THP_FILE = 3,
};
#define PT_MAP_KINDS 4

/* A run of populated virtual memory mapped one way. */
struct pt_extent {
	uint64_t start; /* virtual address, bytes */
	uint64_t len; /* bytes */
	uint8_t kind; /* enum pt_map_kind */
	uint8_t huge_shift; /* THP/hugetlb page size, log2 bytes; 0 for base pages */
};

#define PT_LAYOUT_THP_KNOWN 0x1u /* THP and hugetlb pages were located */
#define PT_LAYOUT_FLAGS_ALL PT_LAYOUT_THP_KNOWN
#define PT_COMM_LEN 16

/* The populated memory of one process: extents sorted, not overlapping. */
struct pt_layout {
	unsigned page_shift; /* base page of the source system */
	unsigned va_bits; /* VA size of the source, 0 when unknown */
	unsigned flags; /* PT_LAYOUT_* */
	uint32_t pid; /* the source process, 0 when not a process */
	char comm[PT_COMM_LEN + 1];
	size_t n, cap;
	struct pt_extent *ext;
};

void pt_layout_init(struct pt_layout *l, unsigned page_shift);
void pt_layout_free(struct pt_layout *l);
/*
 * Append an extent above the last one; merged with it when adjacent and
 * mapped the same way. -1 when out of order, empty or out of memory.
 */
int pt_layout_add(struct pt_layout *l, uint64_t start, uint64_t len, enum pt_map_kind kind,
		  unsigned huge_shift);
/* 0 when sorted, disjoint, page aligned and well formed; else -1 and err. */
int pt_layout_check(const struct pt_layout *l, char *err, size_t errlen);
uint64_t pt_layout_bytes(const struct pt_layout *l); /* populated bytes */
uint64_t pt_layout_bytes_of(const struct pt_layout *l, enum pt_map_kind kind);

struct pt_pgtable_level {
	uint64_t tables; /* tables of this walk level */
	uint64_t bytes; /* tables * table bytes */
	uint64_t blocks; /* block (huge) entries at this level */
	bool kernel_counted; /* in mm_pgtables_bytes (VmPTE) */
};

struct pt_pgtable {
	unsigned nlevels; /* as the geometry's */
	struct pt_pgtable_level level[PT_MAX_LEVELS];
	uint64_t bytes_all; /* every level, the start table included */
	uint64_t bytes_kernel; /* the levels VmPTE counts */
	uint64_t mapped_bytes; /* populated bytes rounded out to the granule */
	bool kernel_comparable; /* false for SKL what-ifs (Linux has no SKL) */
};

/*
 * Does the kernel count walk level h (by height) in VmPTE? PTE, PMD and PUD
 * tables are counted when they are not the start (PGD) table; a P4D never.
 */
bool pt_pgtable_kernel_counts(const struct pt_geometry *g, unsigned h);
/*
 * Model the tables a geometry needs for the layout. thp_deposit: follow
 * Linux and keep a leaf table under every PMD-mapped THP. Extents are
 * rounded out to the geometry's granule. -1 with err when the layout is
 * malformed or does not fit the geometry's VA size.
 */
int pt_pgtable_model(const struct pt_geometry *g, const struct pt_layout *l, bool thp_deposit,
		     struct pt_pgtable *out, char *err, size_t errlen);

#endif
