// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/walk_pt.h"

#define PT_HASH_MIN 1024

static int alloc_slots(struct pt_pagetable *p, uint64_t cap)
{
	p->slot = calloc(cap, sizeof(*p->slot));
	if (!p->slot)
		return -1;
	p->cap = cap;
	p->used = 0;
	return 0;
}

int pt_pagetable_init(struct pt_pagetable *p, const struct pt_geometry *g, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->g = *g;
	p->next_pa = PT_SIM_TABLE_BASE;
	p->memo = calloc(PT_TABLE_MEMO_SLOTS, sizeof(*p->memo));
	if (!p->memo || alloc_slots(p, PT_HASH_MIN)) {
		free(p->memo);
		p->memo = NULL;
		snprintf(err, errlen, "out of memory for the simulated page table");
		return -1;
	}
	return 0;
}

void pt_pagetable_free(struct pt_pagetable *p)
{
	free(p->slot);
	free(p->memo);
	p->slot = NULL;
	p->memo = NULL;
}

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static struct pt_pagetable_slot *find_slot(const struct pt_pagetable *p, uint64_t k)
{
	uint64_t m = p->cap - 1, i = hash64(k) & m;

	while (p->slot[i].key && p->slot[i].key != k)
		i = (i + 1) & m;
	return &p->slot[i];
}

static void insert_slot(struct pt_pagetable *p, uint64_t k, uint64_t pa)
{
	struct pt_pagetable_slot *slot = find_slot(p, k);

	slot->key = k;
	slot->pa = pa;
	p->used++;
}

/* Double the hash; keeps the old one if memory runs out (probing still works). */
static void grow(struct pt_pagetable *p)
{
	struct pt_pagetable_slot *old = p->slot;
	uint64_t ocap = p->cap, i;

	if (alloc_slots(p, ocap * 2)) {
		p->slot = old;
		p->cap = ocap;
		return;
	}
	for (i = 0; i < ocap; i++)
		if (old[i].key)
			insert_slot(p, old[i].key, old[i].pa);
	free(old);
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

uint64_t pt_pagetable_table(struct pt_pagetable *p, unsigned h, uint64_t va)
{
	uint64_t k = pt_pagetable_key(p, h, va);
	struct pt_pagetable_slot *slot = find_slot(p, k);

	if (slot->key)
		return slot->pa;
	if (2 * (p->used + 1) > p->cap) {
		grow(p);
		slot = find_slot(p, k);
	}
	slot->key = k;
	slot->pa = new_table(p, h);
	p->used++;
	return slot->pa;
}

uint64_t pt_pagetable_lookup_hash(const struct pt_pagetable *p, uint64_t k,
				  struct pt_pagetable_slot *memo)
{
	const struct pt_pagetable_slot *slot = find_slot(p, k);

	if (!slot->key)
		return 0;
	*memo = *slot;
	return slot->pa;
}
