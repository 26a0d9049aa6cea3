/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The leaf and table descriptors of the ptops replicas, arm64 4K granule,
 * bit for bit: D64 as arch/arm64/include/asm/pgtable-hwdef.h has them, D128
 * as the FEAT_D128 series defines them (arm64/mm: enable pgtable
 * descriptor for FEAT_D128). What differs for the loops: in D128 the
 * permission bits (PIIndex: USER 115, WRITE/DBM 116, PXN 117, UXN 118) and
 * the software dirty bit (91) sit in the upper half, the access flag,
 * nDirty (RDONLY) and the output address in the lower one, so a
 * write-protect or a permission change rewrites both halves.
 *
 * The helpers mirror the kernel's pte_wrprotect, pte_mkold, pte_modify and
 * pte_write; the output address of a table entry is the user-space address
 * of the replica's table page (a stand-in for the physical one).
 */
#ifndef PTBENCH_WORKLOADS_PTOPS_DESC_H
#define PTBENCH_WORKLOADS_PTOPS_DESC_H

#include <stdint.h>

#include "workloads/ptops_prim.h"

#define PTOPS_PAGE_SHIFT 12

/* ---- D64 ---- */
#define D64_VALID (1ull << 0)
#define D64_TYPE_PAGE (3ull << 0) /* valid, and page at level 3 */
#define D64_TYPE_TABLE (3ull << 0) /* valid, and table at levels 0-2 */
#define D64_ATTRINDX_MASK (7ull << 2)
#define D64_USER (1ull << 6) /* AP[1] */
#define D64_RDONLY (1ull << 7) /* AP[2]: nDirty */
#define D64_SHARED (3ull << 8)
#define D64_AF (1ull << 10)
#define D64_NG (1ull << 11)
#define D64_ADDR_MASK ((((1ull << 48) - 1) >> PTOPS_PAGE_SHIFT) << PTOPS_PAGE_SHIFT) /* 47:12 */
#define D64_WRITE (1ull << 51) /* DBM */
#define D64_PXN (1ull << 53)
#define D64_UXN (1ull << 54)
#define D64_DIRTY (1ull << 55) /* software dirty */
/* pte_modify's mask: the bits a protection change replaces */
#define D64_PROT_MASK                                                                              \
	(D64_USER | D64_PXN | D64_UXN | D64_RDONLY | D64_VALID | D64_WRITE | D64_ATTRINDX_MASK)
/* An anonymous private page: read-write (PAGE_SHARED) and read-only (PAGE_READONLY). */
#define D64_PROT_RO                                                                                \
	(D64_TYPE_PAGE | D64_AF | D64_SHARED | D64_USER | D64_RDONLY | D64_NG | D64_PXN | D64_UXN)
#define D64_PROT_RW (D64_PROT_RO | D64_WRITE)

/* ---- D128: bits >= 64 live in .hi, at (bit - 64) ---- */
#define D128_VALID (1ull << 0)
#define D128_TYPE_PAGE D128_VALID /* SKL (109:110) = 0 */
#define D128_TYPE_TABLE D128_VALID /* SKL = 0 at the PMD: a table */
#define D128_ATTRINDX_MASK (7ull << 2)
#define D128_RDONLY (1ull << 7) /* nDirty */
#define D128_SHARED (3ull << 8)
#define D128_AF (1ull << 10)
#define D128_NG (1ull << 11)
#define D128_ADDR_MASK ((((1ull << 55) - 1) >> PTOPS_PAGE_SHIFT) << PTOPS_PAGE_SHIFT) /* 54:12 */
#define D128_HI_DIRTY (1ull << (91 - 64)) /* software dirty */
#define D128_HI_USER (1ull << (115 - 64)) /* PIIndex[0] */
#define D128_HI_WRITE (1ull << (116 - 64)) /* PIIndex[1], DBM */
#define D128_HI_PXN (1ull << (117 - 64)) /* PIIndex[2] */
#define D128_HI_UXN (1ull << (118 - 64)) /* PIIndex[3] */
#define D128_PROT_MASK_LO (D128_RDONLY | D128_VALID | D128_ATTRINDX_MASK)
#define D128_PROT_MASK_HI (D128_HI_USER | D128_HI_PXN | D128_HI_UXN | D128_HI_WRITE)
#define D128_PROT_RO_LO (D128_TYPE_PAGE | D128_AF | D128_SHARED | D128_RDONLY | D128_NG)
#define D128_PROT_RO_HI (D128_HI_USER | D128_HI_PXN | D128_HI_UXN)
#define D128_PROT_RW_HI (D128_PROT_RO_HI | D128_HI_WRITE)

/* A page entry: read-write written (dirty: nDirty clear) or read-only. */
PTOPS_INLINE uint64_t d64_mk(uint64_t pfn, bool rw)
{
	uint64_t e = (pfn << PTOPS_PAGE_SHIFT) & D64_ADDR_MASK;

	return rw ? (e | D64_PROT_RW | D64_DIRTY) & ~D64_RDONLY : e | D64_PROT_RO;
}

PTOPS_INLINE uint64_t d64_pfn(uint64_t e)
{
	return (e & D64_ADDR_MASK) >> PTOPS_PAGE_SHIFT;
}

PTOPS_INLINE bool d64_write(uint64_t e)
{
	return e & D64_WRITE;
}

PTOPS_INLINE uint64_t d64_wrprotect(uint64_t e)
{
	if ((e & D64_WRITE) && !(e & D64_RDONLY)) /* hardware dirty: keep it */
		e |= D64_DIRTY;
	return (e & ~D64_WRITE) | D64_RDONLY;
}

PTOPS_INLINE uint64_t d64_mkold(uint64_t e)
{
	return e & ~D64_AF;
}

PTOPS_INLINE uint64_t d64_modify(uint64_t e, uint64_t prot)
{
	if ((e & D64_WRITE) && !(e & D64_RDONLY))
		e |= D64_DIRTY;
	return (e & ~D64_PROT_MASK) | (prot & D64_PROT_MASK);
}

PTOPS_INLINE uint64_t d64_table(const void *page)
{
	return ((uint64_t)(uintptr_t)page & D64_ADDR_MASK) | D64_TYPE_TABLE;
}

PTOPS_INLINE void *d64_table_page(uint64_t e)
{
	return (void *)(uintptr_t)(e & D64_ADDR_MASK);
}

PTOPS_INLINE struct pt128 d128_mk(uint64_t pfn, bool rw)
{
	uint64_t a = (pfn << PTOPS_PAGE_SHIFT) & D128_ADDR_MASK;

	if (rw)
		return (struct pt128){ a | (D128_PROT_RO_LO & ~D128_RDONLY),
				       D128_PROT_RW_HI | D128_HI_DIRTY };
	return (struct pt128){ a | D128_PROT_RO_LO, D128_PROT_RO_HI };
}

PTOPS_INLINE uint64_t d128_pfn(struct pt128 e)
{
	return (e.lo & D128_ADDR_MASK) >> PTOPS_PAGE_SHIFT;
}

PTOPS_INLINE bool d128_none(struct pt128 e)
{
	return !(e.lo | e.hi);
}

PTOPS_INLINE bool d128_write(struct pt128 e)
{
	return e.hi & D128_HI_WRITE;
}

PTOPS_INLINE struct pt128 d128_wrprotect(struct pt128 e)
{
	if ((e.hi & D128_HI_WRITE) && !(e.lo & D128_RDONLY))
		e.hi |= D128_HI_DIRTY;
	e.hi &= ~D128_HI_WRITE;
	e.lo |= D128_RDONLY;
	return e;
}

PTOPS_INLINE struct pt128 d128_mkold(struct pt128 e)
{
	e.lo &= ~D128_AF;
	return e;
}

PTOPS_INLINE struct pt128 d128_modify(struct pt128 e, struct pt128 prot)
{
	if ((e.hi & D128_HI_WRITE) && !(e.lo & D128_RDONLY))
		e.hi |= D128_HI_DIRTY;
	e.lo = (e.lo & ~D128_PROT_MASK_LO) | (prot.lo & D128_PROT_MASK_LO);
	e.hi = (e.hi & ~D128_PROT_MASK_HI) | (prot.hi & D128_PROT_MASK_HI);
	return e;
}

PTOPS_INLINE struct pt128 d128_table(const void *page)
{
	return (struct pt128){ ((uint64_t)(uintptr_t)page & D128_ADDR_MASK) | D128_TYPE_TABLE, 0 };
}

PTOPS_INLINE void *d128_table_page(struct pt128 e)
{
	return (void *)(uintptr_t)(e.lo & D128_ADDR_MASK);
}

#endif
