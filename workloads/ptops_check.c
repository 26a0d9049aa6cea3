// SPDX-License-Identifier: GPL-2.0-only
/*
 * The end state each ptops pass must leave, checked entry by entry after
 * the timed region: a replica that did less (or other) work than its
 * kernel loop would time something else.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "workloads/ptops_desc.h"
#include "workloads/ptops_ops.h"

/* Entry i of the leaf tables, D64 in .lo. */
static struct pt128 entry(const struct ptops_pt *pt, size_t i)
{
	if (pt->fmt == PTOPS_D64)
		return (struct pt128){ ((const uint64_t *)pt->pages)[i], 0 };
	return ((const struct pt128 *)pt->pages)[i];
}

static struct pt128 parent(const struct ptops_pt *pt, size_t t)
{
	if (pt->fmt == PTOPS_D64)
		return (struct pt128){ ((const uint64_t *)pt->parent)[t], 0 };
	return ((const struct pt128 *)pt->parent)[t];
}

/* What ptops_pt_fill wrote at entry i. */
static struct pt128 filled(enum ptops_fmt f, uint64_t base_pfn, bool mixed, size_t i)
{
	bool rw = !mixed || i % 3;

	if (f == PTOPS_D64)
		return (struct pt128){ d64_mk(base_pfn + i, rw), 0 };
	return d128_mk(base_pfn + i, rw);
}

static bool is_write(enum ptops_fmt f, struct pt128 e)
{
	return f == PTOPS_D64 ? d64_write(e.lo) : d128_write(e);
}

static struct pt128 wrprotect(enum ptops_fmt f, struct pt128 e)
{
	return f == PTOPS_D64 ? (struct pt128){ d64_wrprotect(e.lo), 0 } : d128_wrprotect(e);
}

static struct pt128 mkold(enum ptops_fmt f, struct pt128 e)
{
	return f == PTOPS_D64 ? (struct pt128){ d64_mkold(e.lo), 0 } : d128_mkold(e);
}

static struct pt128 readonly(enum ptops_fmt f, struct pt128 e)
{
	const struct pt128 ro = { D128_PROT_RO_LO, D128_PROT_RO_HI };

	return f == PTOPS_D64 ? (struct pt128){ d64_modify(e.lo, D64_PROT_RO), 0 }
			      : d128_modify(e, ro);
}

static int differs(const char *what, enum ptops_fmt f, size_t i, struct pt128 got,
		   struct pt128 want, char *msg, size_t len)
{
	if (pt128_eq(got, want))
		return 0;
	if (f == PTOPS_D64)
		snprintf(msg, len, "%s entry %zu is %#" PRIx64 ", expected %#" PRIx64, what, i,
			 got.lo, want.lo);
	else
		snprintf(msg, len,
			 "%s entry %zu is %#" PRIx64 ":%016" PRIx64 ", expected %#" PRIx64
			 ":%016" PRIx64,
			 what, i, got.hi, got.lo, want.hi, want.lo);
	return -1;
}

int ptops_check_copy(const struct ptops_pt *src, const struct ptops_pt *dst, uint64_t base_pfn,
		     bool mixed, char *msg, size_t len)
{
	size_t i, n = ptops_pt_entries(src);

	for (i = 0; i < n; i++) {
		struct pt128 s = filled(src->fmt, base_pfn, mixed, i);

		if (is_write(src->fmt, s))
			s = wrprotect(src->fmt, s);
		if (differs("source", src->fmt, i, entry(src, i), s, msg, len) ||
		    differs("destination", src->fmt, i, entry(dst, i), mkold(src->fmt, s), msg,
			    len))
			return -1;
	}
	return 0;
}

int ptops_check_chprot(const struct ptops_pt *pt, uint64_t base_pfn, bool mixed, char *msg,
		       size_t len)
{
	size_t i, n = ptops_pt_entries(pt);

	for (i = 0; i < n; i++) {
		struct pt128 want = readonly(pt->fmt, filled(pt->fmt, base_pfn, mixed, i));

		if (differs("changed", pt->fmt, i, entry(pt, i), want, msg, len))
			return -1;
	}
	return 0;
}

int ptops_check_zap(const struct ptops_pt *pt, const struct ptops_gather *g, char *msg, size_t len)
{
	const struct pt128 zero = { 0, 0 };
	size_t i, n = ptops_pt_entries(pt);

	for (i = 0; i < n; i++)
		if (differs("zapped", pt->fmt, i, entry(pt, i), zero, msg, len))
			return -1;
	for (i = 0; i < g->npages; i++) {
		if (g->seen[i] != 1) {
			snprintf(msg, len, "page %zu of %zu gathered %u times, not once", i,
				 g->npages, g->seen[i]);
			return -1;
		}
	}
	if (g->stray || g->n || g->drains != (g->npages + PTOPS_BATCH - 1) / PTOPS_BATCH) {
		snprintf(msg, len, "gather: %zu pages outside the range, %zu left, %zu drains",
			 g->stray, g->n, g->drains);
		return -1;
	}
	return 0;
}

int ptops_check_set(const struct ptops_pt *pt, uint64_t base_pfn, char *msg, size_t len)
{
	size_t i, n = ptops_pt_entries(pt);

	for (i = 0; i < n; i++) {
		struct pt128 want = filled(pt->fmt, base_pfn, false, i);

		if (differs("set", pt->fmt, i, entry(pt, i), want, msg, len))
			return -1;
	}
	return 0;
}

/* Page t of the pool: its index, or -1 when p is not a pool page. */
static long pool_index(const struct ptops_pool *pool, const unsigned char *p)
{
	uintptr_t off = (uintptr_t)p - (uintptr_t)pool->pages;

	if ((uintptr_t)p < (uintptr_t)pool->pages || off % PTOPS_TABLE_BYTES ||
	    off / PTOPS_TABLE_BYTES >= pool->npages)
		return -1;
	return (long)(off / PTOPS_TABLE_BYTES);
}

static bool page_zero(const unsigned char *p)
{
	size_t i;

	for (i = 0; i < PTOPS_TABLE_BYTES; i++)
		if (p[i])
			return false;
	return true;
}

int ptops_check_freed(const struct ptops_pool *pool, const struct ptops_pt *pt, char *msg,
		      size_t len)
{
	unsigned char *back = calloc(pool->npages ? pool->npages : 1, 1);
	size_t t;
	int ret = -1;

	if (!back) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	for (t = 0; t < pt->ntables; t++) {
		struct pt128 e = parent(pt, t);

		if (e.lo || e.hi) {
			snprintf(msg, len, "parent entry %zu not cleared", t);
			goto out;
		}
	}
	if (pool->nfree != pool->npages) {
		snprintf(msg, len, "%zu of %zu table pages back in the pool", pool->nfree,
			 pool->npages);
		goto out;
	}
	for (t = 0; t < pool->nfree; t++) {
		long k = pool_index(pool, pool->free[t]);

		if (k < 0 || back[k]) {
			snprintf(msg, len, "pool slot %zu holds a stray or repeated page", t);
			goto out;
		}
		back[k] = 1;
		if (!page_zero(pool->free[t])) {
			snprintf(msg, len, "table page %ld was not zeroed", k);
			goto out;
		}
	}
	ret = 0;
out:
	free(back);
	return ret;
}
