// SPDX-License-Identifier: GPL-2.0-only
/*
 * Translation geometry from the architecture's formulas (d128-facts.md):
 *   entries per table = granule / descriptor bytes,
 *   bits per level b  = granule_shift - log2(descriptor bytes),
 *   levels            = ceil((va_bits - granule_shift) / b),
 *   block n levels above the leaf maps 2^(granule_shift + n * b).
 * Nothing here is read from a table of results; the only constants are the
 * architecture's parameters (descriptor sizes, VA limits, which levels may
 * hold blocks and the contiguous-bit run lengths, which the architecture
 * defines per granule rather than by formula).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/geometry.h"

#define PT_VA_MIN 25 /* TnSZ <= 39 without FEAT_TTST */
#define PT_VA_MAX_D64 52 /* FEAT_LPA2 (4K, 16K) or FEAT_LVA (64K) above 48 */
#define PT_VA_MAX_D128 56 /* FEAT_LVA3 above 52 */
#define PT_VA_PLAIN 48 /* largest VA with no extension */
#define PT_WALK_MAX 5 /* start level -1 .. leaf level 3 */
#define PT_SKL_MAX 3 /* two-bit SKL fields */

/* Non-start walk levels, merged or not: [lowest height][highest height]. */
static const char *const group_names[4][4] = {
	{ "pte", "pmd+pte", "pud+pmd+pte", "p4d+pud+pmd+pte" },
	{ NULL, "pmd", "pud+pmd", "p4d+pud+pmd" },
	{ NULL, NULL, "pud", "p4d+pud" },
	{ NULL, NULL, NULL, "p4d" },
};

const char *pt_format_name(enum pt_format f)
{
	return f == PT_D128 ? "D128" : "D64";
}

int pt_format_parse(const char *s, enum pt_format *f)
{
	if (!s)
		return -1;
	if (!strcasecmp(s, "d64") || !strcmp(s, "64")) {
		*f = PT_D64;
		return 0;
	}
	if (!strcasecmp(s, "d128") || !strcmp(s, "128")) {
		*f = PT_D128;
		return 0;
	}
	return -1;
}

int pt_granule_parse(const char *s, unsigned *granule_shift)
{
	static const struct {
		const char *k, *bytes;
		unsigned shift;
	} g[] = { { "4K", "4096", 12 }, { "16K", "16384", 14 }, { "64K", "65536", 16 } };
	size_t i;

	if (!s)
		return -1;
	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		if (!strcasecmp(s, g[i].k) || !strcmp(s, g[i].bytes)) {
			*granule_shift = g[i].shift;
			return 0;
		}
	}
	return -1;
}

/* Levels (by height above the leaf) whose entries may be blocks. */
static int block_allowed(enum pt_format f, unsigned granule_shift, unsigned height)
{
	if (height == 0)
		return 0;
	if (f == PT_D128)
		return height <= 3; /* level + SKL = 3: PMD, PUD and P4D blocks */
	/* D64 with 48-bit output addresses: 4K level 1 and 2, else level 2. */
	if (granule_shift == 12)
		return height <= 2;
	return height == 1;
}

/* Contiguous-bit run lengths, architecture-defined per format and granule. */
static uint64_t cont_entries(enum pt_format f, unsigned granule_shift, unsigned height)
{
	static const uint64_t d64[3][2] = { { 16, 16 }, { 128, 32 }, { 32, 32 } };
	static const uint64_t d128[3][2] = { { 16, 16 }, { 64, 16 }, { 16, 64 } };
	unsigned gi = (granule_shift - 12) / 2;

	if (height > 1 || gi > 2)
		return 0;
	return f == PT_D128 ? d128[gi][height] : d64[gi][height];
}

static uint64_t pow2(unsigned bits)
{
	return bits >= 64 ? 0 : (uint64_t)1 << bits;
}

static void fill_level(struct pt_geometry *g, unsigned lo, unsigned shift, unsigned bits)
{
	struct pt_walk_level *l = &g->level[lo];

	l->shift = shift;
	l->index_bits = bits;
	l->entries = pow2(bits);
	l->table_bytes = l->entries * g->desc_bytes;
	l->block_bytes = block_allowed(g->format, g->granule_shift, lo) ? pow2(shift) : 0;
	l->cont_entries = cont_entries(g->format, g->granule_shift, lo);
}

int pt_geometry_make(struct pt_geometry *g, enum pt_format f, unsigned granule_shift,
		     unsigned va_bits, char *err, size_t errlen)
{
	unsigned b, n, h, top_bits, va_max;

	memset(g, 0, sizeof(*g));
	if (f != PT_D64 && f != PT_D128) {
		snprintf(err, errlen, "unknown descriptor format %d", (int)f);
		return -1;
	}
	if (granule_shift != 12 && granule_shift != 14 && granule_shift != 16) {
		snprintf(err, errlen, "granule 2^%u is not 4K, 16K or 64K", granule_shift);
		return -1;
	}
	va_max = f == PT_D128 ? PT_VA_MAX_D128 : PT_VA_MAX_D64;
	if (va_bits < PT_VA_MIN || va_bits > va_max) {
		snprintf(err, errlen, "%s allows VA sizes %u to %u bits, not %u", pt_format_name(f),
			 PT_VA_MIN, va_max, va_bits);
		return -1;
	}
	g->format = f;
	g->granule_shift = granule_shift;
	g->va_bits = va_bits;
	g->desc_bytes = f == PT_D128 ? 16 : 8;
	b = granule_shift - (f == PT_D128 ? 4 : 3);
	g->bits_per_level = b;
	n = (va_bits - granule_shift + b - 1) / b;
	if (n > PT_WALK_MAX) {
		snprintf(err, errlen,
			 "%s %uK VA %u needs %u levels; a walk starts no higher than level -1 "
			 "(%u levels)",
			 pt_format_name(f), 1u << (granule_shift - 10), va_bits, n, PT_WALK_MAX);
		return -1;
	}
	g->nlevels = n;
	for (h = 0; h + 1 < n; h++)
		fill_level(g, h, granule_shift + h * b, b);
	top_bits = va_bits - granule_shift - (n - 1) * b;
	fill_level(g, n - 1, granule_shift + (n - 1) * b, top_bits);
	for (h = 0; h + 1 < n; h++)
		g->level[h].name = group_names[h][h];
	g->level[n - 1].name = "pgd";
	return 0;
}

/* Merge walk levels lo..hi (heights of the current geometry) into lo. */
static void merge_levels(struct pt_geometry *g, unsigned lo, unsigned hi, const char *name)
{
	unsigned bits = 0, h;

	for (h = lo; h <= hi; h++)
		bits += g->level[h].index_bits;
	fill_level(g, lo, g->level[lo].shift, bits);
	g->level[lo].name = name;
}

/* Close the gaps left by merging: keep[] marks the levels that remain. */
static void compact_levels(struct pt_geometry *g, const int *keep)
{
	struct pt_walk_level out[PT_MAX_LEVELS];
	unsigned h, n = 0;

	memset(out, 0, sizeof(out));
	for (h = 0; h < g->nlevels; h++)
		if (keep[h])
			out[n++] = g->level[h];
	memcpy(g->level, out, sizeof(out));
	g->nlevels = n;
}

int pt_geometry_apply_skl(struct pt_geometry *g, unsigned ttbr_skl, unsigned table_skl, char *err,
			  size_t errlen)
{
	int keep[PT_MAX_LEVELS] = { 0 };
	unsigned n = g->nlevels, top, lo, hi, h, group;

	if (!ttbr_skl && !table_skl)
		return 0;
	if (g->format != PT_D128) {
		snprintf(err, errlen, "skip-level (SKL) exists only with D128 descriptors");
		return -1;
	}
	if (g->ttbr_skl || g->table_skl) {
		snprintf(err, errlen, "skip-level already applied to this geometry");
		return -1;
	}
	if (ttbr_skl > PT_SKL_MAX || table_skl > PT_SKL_MAX) {
		snprintf(err, errlen, "SKL is a two-bit field: 0 to %u", PT_SKL_MAX);
		return -1;
	}
	if (ttbr_skl + 2 > n) {
		snprintf(err, errlen, "TTBR.SKL %u leaves fewer than 2 of the %u walk levels",
			 ttbr_skl, n);
		return -1;
	}
	/* The start table absorbs the ttbr_skl levels below it. */
	top = n - 1 - ttbr_skl;
	merge_levels(g, top, n - 1, "pgd");
	keep[top] = 1;
	/* Below it, each table entry skips table_skl levels: groups from the leaf up. */
	group = table_skl + 1;
	for (lo = 0; lo < top; lo += group) {
		hi = lo + group - 1 < top ? lo + group - 1 : top - 1;
		merge_levels(g, lo, hi, group_names[lo][hi]);
		keep[lo] = 1;
	}
	for (h = top + 1; h < n; h++)
		keep[h] = 0;
	compact_levels(g, keep);
	g->ttbr_skl = ttbr_skl;
	g->table_skl = table_skl;
	return 0;
}

const char *pt_geometry_extension(const struct pt_geometry *g)
{
	if (g->format == PT_D128)
		return g->va_bits > 52 ? "FEAT_LVA3" : NULL;
	if (g->va_bits <= PT_VA_PLAIN)
		return NULL;
	return g->granule_shift == 16 ? "FEAT_LVA" : "FEAT_LPA2";
}
