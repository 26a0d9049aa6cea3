// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "workloads/workload.h"

extern const struct pt_workload pt_wl_control;
extern const struct pt_workload pt_wl_tlb;
extern const struct pt_workload pt_wl_fault;
extern const struct pt_workload pt_wl_mprotect;
extern const struct pt_workload pt_wl_munmap;
extern const struct pt_workload pt_wl_fork;
extern const struct pt_workload pt_wl_thp;
extern const struct pt_workload pt_wl_pgtable;
extern const struct pt_workload pt_wl_ptops;

/* The order is the order of a suite run and of ptbench list. */
const struct pt_workload *const pt_workloads[] = {
	&pt_wl_control, /* fixed work timed every round: the *_norm rows */
	&pt_wl_tlb, /* TLB misses: pointer chase over a working set */
	&pt_wl_fault, /* page faults: anon, file, COW, scaling */
	&pt_wl_mprotect, /* protection changes, huge-page and VMA splits */
	&pt_wl_fork, /* fork with resident memory */
	&pt_wl_munmap, /* munmap and MADV_DONTNEED */
	&pt_wl_thp, /* huge-page faults, collapse, split, mTHP */
	&pt_wl_pgtable, /* page-table memory of dense and sparse layouts */
	&pt_wl_ptops, /* replicas of the kernel's page-table loops, D64 vs D128 */
	NULL,
};

const struct pt_workload *pt_workload_find(const char *name)
{
	size_t i;

	for (i = 0; pt_workloads[i]; i++)
		if (!strcmp(pt_workloads[i]->name, name))
			return pt_workloads[i];
	return NULL;
}

/*
 * The profiled families are those whose timed operation is a fault or a
 * system call into the kernel's page-table code; the others time user
 * space (the controls, the TLB chases, ptops' replicas).
 */
bool pt_workload_times_kernel(const char *name)
{
	const struct pt_workload *w = pt_workload_find(name);

	return w && w->profile;
}
