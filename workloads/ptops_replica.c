// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ptops replica's memory and its untimed set-up: the table pages, the
 * parent entries, the gather's counters and the pool of free tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/procmem.h"
#include "workloads/ptops_desc.h"
#include "workloads/ptops_ops.h"

const char *ptops_fmt_name(enum ptops_fmt f)
{
	return f == PTOPS_D64 ? "d64" : "d128";
}

const char *ptops_op_name(enum ptops_op op)
{
	static const char *const names[PTOPS_NOPS] = { "copy", "chprot", "zap", "set", "alloc" };

	return op < PTOPS_NOPS ? names[op] : "?";
}

size_t ptops_per_table(enum ptops_fmt f)
{
	return PTOPS_TABLE_BYTES / (f == PTOPS_D64 ? sizeof(uint64_t) : sizeof(struct pt128));
}

size_t ptops_pt_entries(const struct ptops_pt *pt)
{
	return pt->ntables * ptops_per_table(pt->fmt);
}

int ptops_pt_map(struct ptops_pt *pt, enum ptops_fmt f, size_t ntables)
{
	size_t parent = ntables * (f == PTOPS_D64 ? sizeof(uint64_t) : sizeof(struct pt128));
	unsigned char *base;

	memset(pt, 0, sizeof(*pt));
	if (!ntables) {
		errno = EINVAL;
		return -1;
	}
	/* the tables, then the parent entries on pages of their own */
	parent = (parent + PTOPS_TABLE_BYTES - 1) / PTOPS_TABLE_BYTES * PTOPS_TABLE_BYTES;
	pt->map_len = ntables * PTOPS_TABLE_BYTES + parent;
	base = pt_map_anon(pt->map_len, PTOPS_TABLE_BYTES, PT_BACK_4K);
	if (!base)
		return -1;
	/* touched now: the timed passes take no page faults */
	memset(base, 0, pt->map_len);
	pt->fmt = f;
	pt->ntables = ntables;
	pt->pages = base;
	pt->parent = base + ntables * PTOPS_TABLE_BYTES;
	return 0;
}

void ptops_pt_unmap(struct ptops_pt *pt)
{
	pt_unmap(pt->pages, pt->map_len);
	memset(pt, 0, sizeof(*pt));
}

void ptops_pt_link(struct ptops_pt *pt)
{
	size_t t;

	for (t = 0; t < pt->ntables; t++) {
		unsigned char *page = pt->pages + t * PTOPS_TABLE_BYTES;

		if (pt->fmt == PTOPS_D64)
			((uint64_t *)pt->parent)[t] = d64_table(page);
		else
			((struct pt128 *)pt->parent)[t] = d128_table(page);
	}
}

void ptops_pt_fill(struct ptops_pt *pt, uint64_t base_pfn, bool mixed)
{
	size_t i, n = ptops_pt_entries(pt);

	for (i = 0; i < n; i++) {
		bool rw = !mixed || i % 3;

		if (pt->fmt == PTOPS_D64)
			((uint64_t *)pt->pages)[i] = d64_mk(base_pfn + i, rw);
		else
			((struct pt128 *)pt->pages)[i] = d128_mk(base_pfn + i, rw);
	}
}

void ptops_pt_clear(struct ptops_pt *pt)
{
	memset(pt->pages, 0, pt->ntables * PTOPS_TABLE_BYTES);
}

int ptops_gather_init(struct ptops_gather *g, uint64_t base_pfn, size_t npages)
{
	memset(g, 0, sizeof(*g));
	g->seen = calloc(npages ? npages : 1, 1);
	if (!g->seen)
		return -1;
	g->base_pfn = base_pfn;
	g->npages = npages;
	return 0;
}

void ptops_gather_reset(struct ptops_gather *g)
{
	memset(g->seen, 0, g->npages);
	g->n = 0;
	g->drains = 0;
	g->stray = 0;
}

void ptops_gather_free(struct ptops_gather *g)
{
	free(g->seen);
	g->seen = NULL;
}

int ptops_pool_init(struct ptops_pool *pool, const struct ptops_pt *pt)
{
	size_t i;

	memset(pool, 0, sizeof(*pool));
	pool->free = malloc(pt->ntables * sizeof(*pool->free));
	if (!pool->free)
		return -1;
	pool->pages = pt->pages;
	pool->npages = pt->ntables;
	/* reversed, so the first take is page 0 */
	for (i = 0; i < pool->npages; i++)
		pool->free[i] = pool->pages + (pool->npages - 1 - i) * PTOPS_TABLE_BYTES;
	pool->nfree = pool->npages;
	return 0;
}

void ptops_pool_free(struct ptops_pool *pool)
{
	free(pool->free);
	pool->free = NULL;
}

void ptops_pool_dirty(struct ptops_pool *pool)
{
	memset(pool->pages, 0xa5, pool->npages * PTOPS_TABLE_BYTES);
}
