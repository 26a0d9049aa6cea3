// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timed loops of the ptops replicas, one per kernel inner loop and
 * format (ptops_ops.h says which kernel function each stands for). Each
 * keeps the kernel's order of accesses to an entry: the read that decides,
 * then the atomic or plain write; what the kernel does around them (folio
 * reference counts, rmap, locks, the TLB flush) is left out.
 */
#include <string.h>

#include "workloads/ptops_desc.h"
#include "workloads/ptops_ops.h"

/*
 * Run fn(..., AT) with the atomics variant as a constant: on arm64 one copy
 * of the loop per variant, like the kernel's patched alternatives; x86-64
 * has one variant.
 */
#if defined(__aarch64__)
#define PTOPS_VARIANTS(at, fn, ...)                                                                \
	do {                                                                                       \
		if ((at) == PTOPS_AT_LSE128)                                                       \
			fn(__VA_ARGS__, PTOPS_AT_LSE128);                                          \
		else if ((at) == PTOPS_AT_LSE)                                                     \
			fn(__VA_ARGS__, PTOPS_AT_LSE);                                             \
		else                                                                               \
			fn(__VA_ARGS__, PTOPS_AT_BASE);                                            \
	} while (0)
#else
#define PTOPS_VARIANTS(at, fn, ...)                                                                \
	do {                                                                                       \
		(void)(at);                                                                        \
		fn(__VA_ARGS__, PTOPS_AT_BASE);                                                    \
	} while (0)
#endif

#define D64_N (PTOPS_TABLE_BYTES / sizeof(uint64_t))
#define D128_N (PTOPS_TABLE_BYTES / sizeof(struct pt128))

/* The table below parent entry t (pmd_page_vaddr); NULL when the entry is none. */
PTOPS_INLINE uint64_t *d64_table_at(const uint64_t *parent, size_t t)
{
	uint64_t pe = d64_get(&parent[t]);

	return pe ? d64_table_page(pe) : NULL;
}

PTOPS_INLINE struct pt128 *d128_table_at(const struct pt128 *parent, size_t t)
{
	struct pt128 pe = d128_get(&parent[t]);

	return d128_none(pe) ? NULL : d128_table_page(pe);
}

/* ---- copy: copy_pte_range -> copy_present_pte, a COW mapping ---- */

PTOPS_INLINE void copy_d64(const struct ptops_pt *src, struct ptops_pt *dst, enum ptops_atomics at)
{
	uint64_t *sp = src->parent, *dp = dst->parent;
	size_t t, i;

	for (t = 0; t < src->ntables; t++) {
		uint64_t *s = d64_table_at(sp, t), *d = d64_table_at(dp, t);

		if (!s || !d)
			continue;
		for (i = 0; i < D64_N; i++) {
			uint64_t pte = d64_get(&s[i]), old, seen;

			if (!pte)
				continue;
			if (d64_write(pte)) {
				/* ptep_set_wrprotect: a CAS loop on the source */
				for (old = pte;; old = seen) {
					seen = d64_cas(&s[i], old, d64_wrprotect(old), at);
					if (seen == old)
						break;
				}
				pte = d64_wrprotect(old);
			}
			d64_set(&d[i], d64_mkold(pte));
		}
	}
}

PTOPS_INLINE void copy_d128(const struct ptops_pt *src, struct ptops_pt *dst, enum ptops_atomics at)
{
	struct pt128 *sp = src->parent, *dp = dst->parent;
	size_t t, i;

	for (t = 0; t < src->ntables; t++) {
		struct pt128 *s = d128_table_at(sp, t), *d = d128_table_at(dp, t);

		if (!s || !d)
			continue;
		for (i = 0; i < D128_N; i++) {
			struct pt128 pte = d128_get(&s[i]), old, seen;

			if (d128_none(pte))
				continue;
			if (d128_write(pte)) {
				for (old = pte;; old = seen) {
					seen = d128_cas(&s[i], old, d128_wrprotect(old), at);
					if (pt128_eq(seen, old))
						break;
				}
				pte = d128_wrprotect(old);
			}
			d128_set(&d[i], d128_mkold(pte));
		}
	}
}

void ptops_copy(const struct ptops_pt *src, struct ptops_pt *dst, enum ptops_atomics at)
{
	if (src->fmt == PTOPS_D64)
		PTOPS_VARIANTS(at, copy_d64, src, dst);
	else
		PTOPS_VARIANTS(at, copy_d128, src, dst);
}

/* ---- chprot: change_pte_range, to read-only ---- */

PTOPS_INLINE void chprot_d64(struct ptops_pt *pt, enum ptops_atomics at)
{
	uint64_t *pp = pt->parent;
	size_t t, i;

	for (t = 0; t < pt->ntables; t++) {
		uint64_t *p = d64_table_at(pp, t);

		if (!p)
			continue;
		for (i = 0; i < D64_N; i++) {
			uint64_t old = d64_get(&p[i]);

			if (!(old & D64_VALID))
				continue;
			old = d64_xchg(&p[i], 0, at); /* ptep_modify_prot_start */
			d64_set(&p[i], d64_modify(old, D64_PROT_RO)); /* ..._commit */
		}
	}
}

PTOPS_INLINE void chprot_d128(struct ptops_pt *pt, enum ptops_atomics at)
{
	const struct pt128 zero = { 0, 0 }, ro = { D128_PROT_RO_LO, D128_PROT_RO_HI };
	struct pt128 *pp = pt->parent;
	size_t t, i;

	for (t = 0; t < pt->ntables; t++) {
		struct pt128 *p = d128_table_at(pp, t);

		if (!p)
			continue;
		for (i = 0; i < D128_N; i++) {
			struct pt128 old = d128_get(&p[i]);

			if (!(old.lo & D128_VALID))
				continue;
			old = d128_xchg(&p[i], zero, at);
			d128_set(&p[i], d128_modify(old, ro));
		}
	}
}

void ptops_chprot(struct ptops_pt *pt, enum ptops_atomics at)
{
	if (pt->fmt == PTOPS_D64)
		PTOPS_VARIANTS(at, chprot_d64, pt);
	else
		PTOPS_VARIANTS(at, chprot_d128, pt);
}

/* ---- zap: zap_pte_range, pages into an mmu_gather batch ---- */

/* tlb_flush_mmu's free of a full batch: here, each page counted as freed. */
static void gather_drain(struct ptops_gather *g)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		uint64_t k = g->batch[i] - g->base_pfn;

		if (g->batch[i] >= g->base_pfn && k < g->npages)
			g->seen[k]++;
		else
			g->stray++;
	}
	g->n = 0;
	g->drains++;
}

PTOPS_INLINE void gather_add(struct ptops_gather *g, uint64_t pfn)
{
	g->batch[g->n++] = pfn;
	if (g->n == PTOPS_BATCH)
		gather_drain(g);
}

PTOPS_INLINE void zap_d64(struct ptops_pt *pt, struct ptops_gather *g, enum ptops_atomics at)
{
	uint64_t *pp = pt->parent;
	size_t t, i;

	for (t = 0; t < pt->ntables; t++) {
		uint64_t *p = d64_table_at(pp, t);

		if (!p)
			continue;
		for (i = 0; i < D64_N; i++) {
			uint64_t pte = d64_get(&p[i]);

			if (!pte)
				continue;
			pte = d64_xchg(&p[i], 0, at); /* ptep_get_and_clear_full */
			gather_add(g, d64_pfn(pte));
		}
	}
}

PTOPS_INLINE void zap_d128(struct ptops_pt *pt, struct ptops_gather *g, enum ptops_atomics at)
{
	const struct pt128 zero = { 0, 0 };
	struct pt128 *pp = pt->parent;
	size_t t, i;

	for (t = 0; t < pt->ntables; t++) {
		struct pt128 *p = d128_table_at(pp, t);

		if (!p)
			continue;
		for (i = 0; i < D128_N; i++) {
			struct pt128 pte = d128_get(&p[i]);

			if (d128_none(pte))
				continue;
			pte = d128_xchg(&p[i], zero, at);
			gather_add(g, d128_pfn(pte));
		}
	}
}

void ptops_zap(struct ptops_pt *pt, struct ptops_gather *g, enum ptops_atomics at)
{
	if (pt->fmt == PTOPS_D64)
		PTOPS_VARIANTS(at, zap_d64, pt, g);
	else
		PTOPS_VARIANTS(at, zap_d128, pt, g);
	if (g->n) /* tlb_finish_mmu: what is left */
		gather_drain(g);
}

/* ---- set: the fault path's pte_none check and set_pte_at ---- */

static size_t set_d64(struct ptops_pt *pt, uint64_t base_pfn)
{
	uint64_t *pp = pt->parent, pfn = base_pfn;
	size_t t, i, busy = 0;

	for (t = 0; t < pt->ntables; t++) {
		uint64_t *p = d64_table_at(pp, t);

		if (!p)
			continue;
		for (i = 0; i < D64_N; i++, pfn++) {
			if (d64_get(&p[i])) {
				busy++; /* someone else's fault won the race */
				continue;
			}
			d64_set(&p[i], d64_mk(pfn, true));
		}
	}
	return busy;
}

static size_t set_d128(struct ptops_pt *pt, uint64_t base_pfn)
{
	struct pt128 *pp = pt->parent;
	uint64_t pfn = base_pfn;
	size_t t, i, busy = 0;

	for (t = 0; t < pt->ntables; t++) {
		struct pt128 *p = d128_table_at(pp, t);

		if (!p)
			continue;
		for (i = 0; i < D128_N; i++, pfn++) {
			if (!d128_none(d128_get(&p[i]))) {
				busy++;
				continue;
			}
			d128_set(&p[i], d128_mk(pfn, true));
		}
	}
	return busy;
}

size_t ptops_set(struct ptops_pt *pt, uint64_t base_pfn, enum ptops_atomics at)
{
	(void)at; /* loads and stores only */
	return pt->fmt == PTOPS_D64 ? set_d64(pt, base_pfn) : set_d128(pt, base_pfn);
}

/* ---- alloc and free: pte_alloc (pmd_install), free_pgtables ---- */

static unsigned char *pool_take(struct ptops_pool *pool)
{
	return pool->nfree ? pool->free[--pool->nfree] : NULL;
}

static void pool_put(struct ptops_pool *pool, unsigned char *page)
{
	pool->free[pool->nfree++] = page;
}

size_t ptops_alloc(struct ptops_pool *pool, struct ptops_pt *pt)
{
	uint64_t *p64 = pt->parent;
	struct pt128 *p128 = pt->parent;
	size_t t, n = 0;

	for (t = 0; t < pt->ntables; t++) {
		unsigned char *page;

		/* pmd_install installs only into an empty entry */
		if (pt->fmt == PTOPS_D64 ? d64_get(&p64[t]) != 0 : !d128_none(d128_get(&p128[t])))
			continue;
		page = pool_take(pool);
		if (!page)
			break;
		memset(page, 0, PTOPS_TABLE_BYTES); /* clear_page */
		ptops_wmb();
		if (pt->fmt == PTOPS_D64)
			d64_set(&p64[t], d64_table(page));
		else
			d128_set(&p128[t], d128_table(page));
		n++;
	}
	return n;
}

size_t ptops_free(struct ptops_pool *pool, struct ptops_pt *pt)
{
	const struct pt128 zero = { 0, 0 };
	uint64_t *p64 = pt->parent;
	struct pt128 *p128 = pt->parent;
	size_t t, n = 0;

	for (t = 0; t < pt->ntables; t++) {
		unsigned char *page;

		if (pt->fmt == PTOPS_D64) {
			uint64_t e = d64_get(&p64[t]);

			if (!e)
				continue;
			d64_set(&p64[t], 0); /* pmd_clear */
			page = d64_table_page(e);
		} else {
			struct pt128 e = d128_get(&p128[t]);

			if (d128_none(e))
				continue;
			d128_set(&p128[t], zero);
			page = d128_table_page(e);
		}
		pool_put(pool, page); /* pte_free */
		n++;
	}
	return n;
}
