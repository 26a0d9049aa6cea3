/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated page table: tables are created on demand for the pages a
 * trace touches, each placed in a simulated physical address space (a bump
 * allocator above the data frames). A table is found by (height, VA prefix)
 * in an open-addressing hash; data frames are a bijective scramble of the
 * virtual frame number, so they need no storage and never alias.
 */
#ifndef PTBENCH_MODEL_WALK_PT_H
#define PTBENCH_MODEL_WALK_PT_H

#include <stddef.h>
#include <stdint.h>

#include "model/geometry.h"

#define PT_SIM_PA_BITS 52 /* data frames live below 2^52 */
#define PT_SIM_TABLE_BASE (1ull << 56) /* page tables above */

struct pt_pagetable_slot {
	uint64_t key; /* (prefix << 3 | height) + 1, 0 empty */
	uint64_t pa; /* the table's physical address */
};

/*
 * Tables remembered per height: the lowest height has many tables (one per
 * 2 MiB of a 4K D64 table, 4096 of them over 4 GiB), the others few.
 */
#define PT_TABLE_MEMO_LOW 4096
#define PT_TABLE_MEMO 64
#define PT_TABLE_MEMO_SLOTS (PT_TABLE_MEMO_LOW + (PT_MAX_LEVELS - 1) * PT_TABLE_MEMO)

struct pt_pagetable {
	struct pt_geometry g;
	struct pt_pagetable_slot *slot; /* the hash: cap slots */
	/*
	 * Per height, a direct-mapped memo of tables found, in front of the
	 * hash: the few tables high up are found without hashing. Tables never
	 * move, so an entry stays right; lookups through a const table fill it.
	 */
	struct pt_pagetable_slot *memo;
	uint64_t cap, used; /* slots, power of two; used slots */
	uint64_t next_pa; /* bump allocator for tables */
	uint64_t tables[PT_MAX_LEVELS]; /* tables created per height */
	uint64_t bytes; /* page-table bytes created */
};

int pt_pagetable_init(struct pt_pagetable *p, const struct pt_geometry *g, char *err,
		      size_t errlen);
void pt_pagetable_free(struct pt_pagetable *p);
/* Physical address of the table at height h that maps va (created if new). */
uint64_t pt_pagetable_table(struct pt_pagetable *p, unsigned h, uint64_t va);

/* Hash key of the table at height h that maps va. */
static inline uint64_t pt_pagetable_key(const struct pt_pagetable *p, unsigned h, uint64_t va)
{
	const struct pt_walk_level *l = &p->g.level[h];
	unsigned top = l->shift + l->index_bits;
	uint64_t prefix = top >= 64 ? 0 : va >> top;

	return (prefix << 3 | h) + 1;
}

uint64_t pt_pagetable_lookup_hash(const struct pt_pagetable *p, uint64_t k,
				  struct pt_pagetable_slot *memo);

/* The table at height h that maps va, or 0 when it was never created; changes nothing. */
static inline uint64_t pt_pagetable_lookup(const struct pt_pagetable *p, unsigned h, uint64_t va)
{
	uint64_t k = pt_pagetable_key(p, h, va);
	struct pt_pagetable_slot *m = h ? &p->memo[PT_TABLE_MEMO_LOW + (h - 1) * PT_TABLE_MEMO +
						   ((k >> 3) & (PT_TABLE_MEMO - 1))]
					: &p->memo[(k >> 3) & (PT_TABLE_MEMO_LOW - 1)];

	return m->key == k ? m->pa : pt_pagetable_lookup_hash(p, k, m);
}

/* Physical address of the descriptor for va at height h. */
static inline uint64_t pt_pagetable_entry(struct pt_pagetable *p, unsigned h, uint64_t va)
{
	const struct pt_walk_level *l = &p->g.level[h];
	uint64_t idx = (va >> l->shift) & (l->entries - 1);

	return pt_pagetable_table(p, h, va) + idx * p->g.desc_bytes;
}

/* A bijection on k-bit integers: odd multiplies and xor-shifts mod 2^k. */
static inline uint64_t pt_pagetable_scramble(uint64_t x, unsigned k)
{
	uint64_t m = k >= 64 ? ~0ull : (1ull << k) - 1;
	unsigned s = k / 2 ? k / 2 : 1;

	x &= m;
	x = (x * 0x9e3779b97f4a7c15ull) & m;
	x ^= x >> s;
	x = (x * 0xc2b2ae3d27d4eb4full) & m;
	x ^= x >> s;
	return x;
}

/* Physical address of va's data when its leaf is at height h. */
static inline uint64_t pt_pagetable_data_pa(const struct pt_pagetable *p, unsigned h, uint64_t va)
{
	unsigned shift = p->g.level[h].shift;
	uint64_t frame = pt_pagetable_scramble(va >> shift, PT_SIM_PA_BITS - shift);

	return frame << shift | (va & ((1ull << shift) - 1));
}

#endif
