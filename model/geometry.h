/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translation geometry of VMSAv8-64 (D64) and VMSAv9-128 (D128) tables,
 * computed from the architecture's formulas (see docs: d128-facts).
 * Levels are indexed by height above the leaf: level[0] is the leaf (PTE)
 * table, level[nlevels - 1] the start (top) table.
 */
#ifndef PTBENCH_MODEL_GEOMETRY_H
#define PTBENCH_MODEL_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

#define PT_MAX_LEVELS 6

enum pt_format { PT_D64 = 0, PT_D128 = 1 };

struct pt_walk_level {
	unsigned shift; /* lowest VA bit indexed by this level */
	unsigned index_bits; /* VA bits this level resolves */
	uint64_t entries; /* entries in one table of this level */
	uint64_t table_bytes; /* bytes of one table of this level */
	uint64_t block_bytes; /* bytes a block (huge) entry maps; 0: none */
	uint64_t cont_entries; /* entries in a contiguous-bit run; 0: none */
	const char *name; /* Linux name: pte, pmd, pud, p4d, pgd */
};

struct pt_geometry {
	enum pt_format format;
	unsigned granule_shift; /* 12, 14 or 16 */
	unsigned va_bits;
	unsigned desc_bytes; /* 8 or 16 */
	unsigned bits_per_level; /* granule_shift - log2(desc_bytes) */
	unsigned nlevels; /* walk levels, after any skip-level */
	unsigned ttbr_skl; /* D128 what-if: TTBR.SKL */
	unsigned table_skl; /* D128 what-if: SKL on table entries */
	struct pt_walk_level level[PT_MAX_LEVELS];
};

/*
 * Fill g for a format, granule shift and VA size. Returns 0, or -1 with a
 * message in err for a combination the architecture does not allow.
 */
int pt_geometry_make(struct pt_geometry *g, enum pt_format f, unsigned granule_shift,
		     unsigned va_bits, char *err, size_t errlen);
/*
 * D128 skip-level what-ifs, applied to a geometry from pt_geometry_make:
 * ttbr_skl enlarges the start table, table_skl merges the levels below
 * each table entry. -1 with a message when not allowed.
 */
int pt_geometry_apply_skl(struct pt_geometry *g, unsigned ttbr_skl, unsigned table_skl, char *err,
			  size_t errlen);
/* "D64", "D128" */
const char *pt_format_name(enum pt_format f);
/* Parse "d64"/"D128", "4K"/"4096", 48; -1 when invalid. */
int pt_format_parse(const char *s, enum pt_format *f);
int pt_granule_parse(const char *s, unsigned *granule_shift);
/*
 * The architecture extension a geometry needs beyond the base format:
 * "FEAT_LPA2" / "FEAT_LVA" (D64 VA > 48), "FEAT_LVA3" (D128 VA > 52), NULL.
 */
const char *pt_geometry_extension(const struct pt_geometry *g);

#endif
