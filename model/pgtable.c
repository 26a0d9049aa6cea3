// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-table memory of a layout under a geometry. A table at walk level h
 * covers 2^(shift + index_bits) bytes of VA; it exists when some extent in
 * that span is mapped at level h or below. Extents are sorted, so the
 * distinct spans of each level are counted in one pass: O(extents x levels).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/pgtable.h"

void pt_layout_init(struct pt_layout *l, unsigned page_shift)
{
	memset(l, 0, sizeof(*l));
	l->page_shift = page_shift;
}

void pt_layout_free(struct pt_layout *l)
{
	free(l->ext);
	l->ext = NULL;
	l->n = 0;
	l->cap = 0;
}

int pt_layout_add(struct pt_layout *l, uint64_t start, uint64_t len, enum pt_map_kind kind,
		  unsigned huge_shift)
{
	struct pt_extent *last = l->n ? &l->ext[l->n - 1] : NULL;

	if (!len || start + len < start)
		return -1;
	if (last && start < last->start + last->len)
		return -1;
	if (last && last->start + last->len == start && last->kind == kind &&
	    last->huge_shift == huge_shift) {
		last->len += len;
		return 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct pt_extent *e = realloc(l->ext, cap * sizeof(*e));

		if (!e)
			return -1;
		l->ext = e;
		l->cap = cap;
	}
	l->ext[l->n].start = start;
	l->ext[l->n].len = len;
	l->ext[l->n].kind = (uint8_t)kind;
	l->ext[l->n].huge_shift = (uint8_t)huge_shift;
	l->n++;
	return 0;
}

static int check_extent(const struct pt_layout *l, size_t i, char *err, size_t errlen)
{
	const struct pt_extent *e = &l->ext[i];
	uint64_t page_mask = ((uint64_t)1 << l->page_shift) - 1;

	if (!e->len || (e->start & page_mask) || (e->len & page_mask) ||
	    e->start + e->len < e->start) {
		snprintf(err, errlen,
			 "extent %zu (0x%" PRIx64 "+0x%" PRIx64 ") is empty, "
			 "not page aligned or wraps",
			 i, e->start, e->len);
		return -1;
	}
	if (e->kind >= PT_MAP_KINDS) {
		snprintf(err, errlen, "extent %zu has unknown mapping kind %u", i, e->kind);
		return -1;
	}
	if (e->kind == PT_MAP_BASE ? e->huge_shift != 0
				   : (e->huge_shift <= l->page_shift || e->huge_shift > 40)) {
		snprintf(err, errlen, "extent %zu has huge page shift %u", i, e->huge_shift);
		return -1;
	}
	if (i && e->start < l->ext[i - 1].start + l->ext[i - 1].len) {
		snprintf(err, errlen,
			 "extent %zu at 0x%" PRIx64 " overlaps or precedes the one "
			 "before it",
			 i, e->start);
		return -1;
	}
	return 0;
}

int pt_layout_check(const struct pt_layout *l, char *err, size_t errlen)
{
	size_t i;

	if (l->page_shift < 12 || l->page_shift > 16) {
		snprintf(err, errlen, "base page shift %u is not 12 to 16", l->page_shift);
		return -1;
	}
	if (l->flags & ~PT_LAYOUT_FLAGS_ALL) {
		snprintf(err, errlen, "unknown layout flags 0x%x", l->flags);
		return -1;
	}
	if (l->n && !l->ext) {
		snprintf(err, errlen, "layout has %zu extents and no storage", l->n);
		return -1;
	}
	for (i = 0; i < l->n; i++)
		if (check_extent(l, i, err, errlen))
			return -1;
	return 0;
}

uint64_t pt_layout_bytes_of(const struct pt_layout *l, enum pt_map_kind kind)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->ext[i].kind == kind)
			sum += l->ext[i].len;
	return sum;
}

uint64_t pt_layout_bytes(const struct pt_layout *l)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < l->n; i++)
		sum += l->ext[i].len;
	return sum;
}

bool pt_pgtable_kernel_counts(const struct pt_geometry *g, unsigned h)
{
	return h <= 2 && h + 1 < g->nlevels;
}

/*
 * The highest level whose blocks an extent of huge pages can use: the
 * block may not exceed the huge page, and the extent must be made of whole
 * blocks. 0 (page-mapped) when there is none.
 */
static unsigned block_level(const struct pt_geometry *g, const struct pt_extent *e)
{
	unsigned h;

	if (e->kind == PT_MAP_BASE)
		return 0;
	for (h = g->nlevels; h-- > 1;) {
		uint64_t blk = g->level[h].block_bytes;

		if (!blk || blk > ((uint64_t)1 << e->huge_shift))
			continue;
		if ((e->start | e->len) & (blk - 1))
			continue;
		return h;
	}
	return 0;
}

/* The lowest level with a table for this extent's pages. */
static unsigned lowest_table_level(const struct pt_geometry *g, const struct pt_extent *e,
				   bool thp_deposit)
{
	if (e->kind == PT_MAP_THP && thp_deposit)
		return 0; /* the deposited PTE table stays allocated */
	return block_level(g, e);
}

struct span_counter {
	bool any;
	uint64_t last; /* last span index counted */
	uint64_t count;
};

/* Count the spans first..last not yet counted; calls come in VA order. */
static void count_spans(struct span_counter *c, uint64_t first, uint64_t last)
{
	if (c->any && first <= c->last)
		first = c->last + 1;
	if (c->any && last <= c->last)
		return;
	c->count += last - first + 1;
	c->last = last;
	c->any = true;
}

static int fits_va(const struct pt_geometry *g, const struct pt_layout *l, char *err, size_t errlen)
{
	const struct pt_extent *e;

	if (!l->n || g->va_bits >= 64)
		return 0;
	e = &l->ext[l->n - 1];
	if (e->start + e->len > (uint64_t)1 << g->va_bits) {
		snprintf(err, errlen, "extent at 0x%" PRIx64 " lies beyond the %u-bit VA of %s",
			 e->start, g->va_bits, pt_format_name(g->format));
		return -1;
	}
	return 0;
}

/* Populated bytes after rounding each extent out to the granule. */
static uint64_t mapped_bytes(const struct pt_geometry *g, const struct pt_layout *l)
{
	uint64_t gmask = ((uint64_t)1 << g->granule_shift) - 1, end = 0, sum = 0;
	size_t i;

	for (i = 0; i < l->n; i++) {
		uint64_t s = l->ext[i].start & ~gmask;
		uint64_t e = (l->ext[i].start + l->ext[i].len + gmask) & ~gmask;

		if (s < end)
			s = end;
		if (e > s)
			sum += e - s;
		if (e > end)
			end = e;
	}
	return sum;
}

static void count_level(const struct pt_geometry *g, const struct pt_layout *l, unsigned h,
			bool thp_deposit, struct pt_pgtable_level *out)
{
	unsigned span_shift = g->level[h].shift + g->level[h].index_bits;
	struct span_counter c = { 0 };
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct pt_extent *e = &l->ext[i];

		if (h && e->kind != PT_MAP_BASE && block_level(g, e) == h)
			out->blocks += e->len / g->level[h].block_bytes;
		if (lowest_table_level(g, e, thp_deposit) > h)
			continue;
		if (h + 1 == g->nlevels) {
			count_spans(&c, 0, 0); /* the one start table */
			continue;
		}
		count_spans(&c, e->start >> span_shift, (e->start + e->len - 1) >> span_shift);
	}
	out->tables = c.count;
	out->bytes = c.count * g->level[h].table_bytes;
}

int pt_pgtable_model(const struct pt_geometry *g, const struct pt_layout *l, bool thp_deposit,
		     struct pt_pgtable *out, char *err, size_t errlen)
{
	unsigned h;

	memset(out, 0, sizeof(*out));
	if (!g->nlevels || g->nlevels > PT_MAX_LEVELS) {
		snprintf(err, errlen, "geometry has %u levels", g->nlevels);
		return -1;
	}
	if (pt_layout_check(l, err, errlen) || fits_va(g, l, err, errlen))
		return -1;
	out->nlevels = g->nlevels;
	out->kernel_comparable = !g->ttbr_skl && !g->table_skl;
	for (h = 0; h < g->nlevels; h++) {
		struct pt_pgtable_level *lv = &out->level[h];

		count_level(g, l, h, thp_deposit, lv);
		lv->kernel_counted = out->kernel_comparable && pt_pgtable_kernel_counts(g, h);
		out->bytes_all += lv->bytes;
		if (lv->kernel_counted)
			out->bytes_kernel += lv->bytes;
	}
	out->mapped_bytes = mapped_bytes(g, l);
	return 0;
}
