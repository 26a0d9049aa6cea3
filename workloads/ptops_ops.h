/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ptops replicas: user-space copies of the kernel's inner page-table
 * loops run over a replica table of either format, and the checks that a
 * pass left the replica as the kernel's loop would have.
 *
 * A replica is one parent (PMD) level whose entries point at leaf tables
 * of 4 KiB: 512 D64 or 256 D128 entries each, so the same range needs
 * twice the D128 tables. The loops walk it as the kernel does: read the
 * parent entry, then the entries of its table.
 */
#ifndef PTBENCH_WORKLOADS_PTOPS_OPS_H
#define PTBENCH_WORKLOADS_PTOPS_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/ptops_prim.h"

#define PTOPS_TABLE_BYTES 4096u
/* mmu_gather's batch: one 4K page of page pointers less the batch header. */
#define PTOPS_BATCH 510

enum ptops_fmt { PTOPS_D64 = 0, PTOPS_D128, PTOPS_NFMT };
enum ptops_op { PTOPS_COPY = 0, PTOPS_CHPROT, PTOPS_ZAP, PTOPS_SET, PTOPS_ALLOC, PTOPS_NOPS };

const char *ptops_fmt_name(enum ptops_fmt f);
const char *ptops_op_name(enum ptops_op op);
/* Entries per 4K table: 512 (D64) or 256 (D128). */
size_t ptops_per_table(enum ptops_fmt f);

struct ptops_pt {
	enum ptops_fmt fmt;
	size_t ntables;
	void *parent; /* ntables parent entries (uint64_t or struct pt128) */
	unsigned char *pages; /* ntables table pages, 4K each */
	size_t map_len;
};

/* Map a replica: parent entries empty, tables zero. 0, or -1 (errno). */
int ptops_pt_map(struct ptops_pt *pt, enum ptops_fmt f, size_t ntables);
void ptops_pt_unmap(struct ptops_pt *pt);
size_t ptops_pt_entries(const struct ptops_pt *pt);
/* Set-up, untimed: parent entry t points at table page t. */
void ptops_pt_link(struct ptops_pt *pt);
/*
 * Set-up, untimed: entry i is a present page of pfn base + i, read-write
 * and dirty; mixed: every third one read-only instead (the tests).
 */
void ptops_pt_fill(struct ptops_pt *pt, uint64_t base_pfn, bool mixed);
/* Set-up, untimed: every leaf entry empty. */
void ptops_pt_clear(struct ptops_pt *pt);

/* The pages zap gathered, counted when a full batch is drained. */
struct ptops_gather {
	uint64_t batch[PTOPS_BATCH];
	size_t n;
	uint64_t base_pfn;
	size_t npages;
	uint8_t *seen; /* per page of the range: times freed */
	size_t drains;
	size_t stray; /* pfns outside the range */
};

int ptops_gather_init(struct ptops_gather *g, uint64_t base_pfn, size_t npages);
void ptops_gather_reset(struct ptops_gather *g);
void ptops_gather_free(struct ptops_gather *g);

/* Free table pages, taken and returned last-in first-out (a per-CPU list). */
struct ptops_pool {
	unsigned char *pages;
	size_t npages;
	unsigned char **free;
	size_t nfree;
};

/* The pool of all of pt's table pages. 0, or -1 (errno). */
int ptops_pool_init(struct ptops_pool *pool, const struct ptops_pt *pt);
void ptops_pool_free(struct ptops_pool *pool);
/* Untimed: every pool page full of old data, as a freed page is. */
void ptops_pool_dirty(struct ptops_pool *pool);

/*
 * The timed loops; at: the atomics variant of ptops_caps.
 * copy (copy_pte_range/copy_present_pte): each present source entry
 *   copied to dst's table, old; a writable one write-protected first in the
 *   source by a CAS loop (ptep_set_wrprotect).
 * chprot (change_pte_range to read-only): ptep_modify_prot_start (exchange
 *   with 0), pte_modify, ptep_modify_prot_commit (store).
 * zap (zap_pte_range): exchange with 0, the page gathered; a full batch is
 *   drained (its pages freed: counted), and what is left at the end.
 * set (set_pte_at on a fault): the slot read, if empty a new read-write
 *   dirty entry stored; returns the slots found occupied.
 * alloc (pte_alloc/pmd_install): per empty parent entry a pool page taken,
 *   zeroed, ordered (smp_wmb), installed; returns tables installed.
 * free (free_pgtables): per installed table the parent entry cleared and
 *   the page returned; returns tables freed.
 */
void ptops_copy(const struct ptops_pt *src, struct ptops_pt *dst, enum ptops_atomics at);
void ptops_chprot(struct ptops_pt *pt, enum ptops_atomics at);
void ptops_zap(struct ptops_pt *pt, struct ptops_gather *g, enum ptops_atomics at);
size_t ptops_set(struct ptops_pt *pt, uint64_t base_pfn, enum ptops_atomics at);
size_t ptops_alloc(struct ptops_pool *pool, struct ptops_pt *pt);
size_t ptops_free(struct ptops_pool *pool, struct ptops_pt *pt);

/*
 * The end states, each 0 or -1 with the first difference in msg.
 * copy: src write-protected where it was writable (else unchanged), dst =
 *   src made old. chprot: every entry read-only with its address. zap:
 *   every entry empty, every page gathered once. set: every entry the new
 *   one. freed (after alloc and free): every parent entry empty, every
 *   table page back in the pool once and zero.
 */
int ptops_check_copy(const struct ptops_pt *src, const struct ptops_pt *dst, uint64_t base_pfn,
		     bool mixed, char *msg, size_t len);
int ptops_check_chprot(const struct ptops_pt *pt, uint64_t base_pfn, bool mixed, char *msg,
		       size_t len);
int ptops_check_zap(const struct ptops_pt *pt, const struct ptops_gather *g, char *msg, size_t len);
int ptops_check_set(const struct ptops_pt *pt, uint64_t base_pfn, char *msg, size_t len);
int ptops_check_freed(const struct ptops_pool *pool, const struct ptops_pt *pt, char *msg,
		      size_t len);

#endif
