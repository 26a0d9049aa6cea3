// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "model/tlbsim.h"

int pt_tlbsim_init(struct pt_tlbsim *t, uint64_t l1_entries, unsigned l1_ways, uint64_t l2_entries,
		   unsigned l2_ways, bool l1_random, bool l2_random, char *err, size_t errlen)
{
	char why[160];

	memset(t, 0, sizeof(*t));
	if (pt_sa_init(&t->l1, l1_entries, l1_ways, 2, l1_random, why, sizeof(why))) {
		snprintf(err, errlen, "L1 DTLB: %s", why);
		return -1;
	}
	if (pt_sa_init(&t->l2, l2_entries, l2_ways, 2, l2_random, why, sizeof(why))) {
		snprintf(err, errlen, "L2 TLB: %s", why);
		pt_sa_free(&t->l1);
		return -1;
	}
	return 0;
}

void pt_tlbsim_free(struct pt_tlbsim *t)
{
	pt_sa_free(&t->l1);
	pt_sa_free(&t->l2);
}

void pt_tlbsim_evict_others(struct pt_tlbsim *t)
{
	for (t->owed += t->evictions; t->owed >= 1; t->owed -= 1)
		pt_sa_insert_foreign(&t->l2);
}

void pt_tlbsim_set_class(struct pt_tlbsim *t, unsigned h, unsigned shift)
{
	if (h < PT_TLB_CLASSES)
		t->class_shift[h] = shift;
}
