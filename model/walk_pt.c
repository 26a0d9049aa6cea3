// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/walk_pt.h"

#define PT_HASH_MIN 1024

static int alloc_slots(struct pt_pagetable *p, uint64_t cap)
{
	p->key = calloc(cap, sizeof(*p->key));
	p->pa = calloc(cap, sizeof(*p->pa));
	if (!p->key || !p->pa) {
		free(p->key);
		free(p->pa);
		return -1;
	}
	p->cap = cap;
	p->used = 0;
	return 0;
}

int pt_pagetable_init(struct pt_pagetable *p, const struct pt_geometry *g, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->g = *g;
	p->next_pa = PT_SIM_TABLE_BASE;
	if (alloc_slots(p, PT_HASH_MIN)) {
		snprintf(err, errlen, "out of memory for the simulated page table");
		return -1;
	}
	return 0;
}

void pt_pagetable_free(struct pt_pagetable *p)
{
	free(p->key);
	free(p->pa);
	p->key = p->pa = NULL;
}

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static uint64_t *find_slot(const struct pt_pagetable *p, uint64_t k)
{
	uint64_t m = p->cap - 1, i = hash64(k) & m;

	while (p->key[i] && p->key[i] != k)
		i = (i + 1) & m;
	return &p->key[i];
}

static void insert_slot(struct pt_pagetable *p, uint64_t k, uint64_t pa)
{
	uint64_t *slot = find_slot(p, k);

	*slot = k;
	p->pa[slot - p->key] = pa;
	p->used++;
}

/* Double the hash; keeps the old one if memory runs out (probing still works). */
static void grow(struct pt_pagetable *p)
{
	uint64_t *ok = p->key, *opa = p->pa, ocap = p->cap, i;

	if (alloc_slots(p, ocap * 2)) {
		p->key = ok;
		p->pa = opa;
		p->cap = ocap;
		return;
	}
	for (i = 0; i < ocap; i++)
		if (ok[i])
			insert_slot(p, ok[i], opa[i]);
	free(ok);
	free(opa);
}

static uint64_t new_table(struct pt_pagetable *p, unsigned h)
{
	uint64_t bytes = p->g.level[h].table_bytes, align = bytes < 4096 ? 64 : 4096;
	uint64_t pa = (p->next_pa + align - 1) & ~(align - 1);

	p->next_pa = pa + bytes;
	p->tables[h]++;
	p->bytes += bytes;
	return pa;
}

static uint64_t table_key(const struct pt_pagetable *p, unsigned h, uint64_t va)
{
	const struct pt_walk_level *l = &p->g.level[h];
	unsigned top = l->shift + l->index_bits;
	uint64_t prefix = top >= 64 ? 0 : va >> top;

	return (prefix << 3 | h) + 1;
}

uint64_t pt_pagetable_table(struct pt_pagetable *p, unsigned h, uint64_t va)
{
	uint64_t k = table_key(p, h, va), *slot;

	slot = find_slot(p, k);
	if (*slot)
		return p->pa[slot - p->key];
	if (2 * (p->used + 1) > p->cap) {
		grow(p);
		slot = find_slot(p, k);
	}
	*slot = k;
	p->used++;
	p->pa[slot - p->key] = new_table(p, h);
	return p->pa[slot - p->key];
}

/* A bijection on k-bit integers: odd multiplies and xor-shifts mod 2^k. */
static uint64_t scramble(uint64_t x, unsigned k)
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

uint64_t pt_pagetable_data_pa(const struct pt_pagetable *p, unsigned h, uint64_t va)
{
	unsigned shift = p->g.level[h].shift;
	uint64_t frame = scramble(va >> shift, PT_SIM_PA_BITS - shift);

	return frame << shift | (va & ((1ull << shift) - 1));
}
