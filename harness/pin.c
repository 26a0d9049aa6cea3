// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <string.h>

#include "harness/pin.h"

static hwloc_topology_t topo;
/* The logical index of the PU the last pt_pin_thread bound: tasks start there. */
static unsigned bound_pu;

static int topology(void)
{
	if (topo)
		return 0;
	if (hwloc_topology_init(&topo))
		return -1;
	if (hwloc_topology_load(topo)) {
		hwloc_topology_destroy(topo);
		topo = NULL;
		return -1;
	}
	return 0;
}

int pt_pu_count(void)
{
	if (topology())
		return -1;
	return hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
}

static void read_back(struct pt_binding *b)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (!set)
		return;
	if (!hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD)) {
		hwloc_bitmap_list_snprintf(b->cpuset, sizeof(b->cpuset), set);
		if (hwloc_bitmap_weight(set) == 1)
			b->cpu = hwloc_bitmap_first(set);
	}
	hwloc_bitmap_free(set);
}

int pt_pin_thread(int cpu, struct pt_binding *b)
{
	hwloc_obj_t pu;
	int npu;

	memset(b, 0, sizeof(*b));
	b->requested = cpu;
	b->cpu = -1;
	if (topology()) {
		snprintf(b->err, sizeof(b->err), "hwloc topology: %s", strerror(errno));
		return -1;
	}
	npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	/* Automatic: the last PU, away from CPU 0 where most interrupts land. */
	if (cpu < 0)
		pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)(npu - 1));
	else
		pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu);
	if (!pu) {
		snprintf(b->err, sizeof(b->err), "cpu %d does not exist (%d PUs)", cpu, npu);
		return -2;
	}
	if (hwloc_set_cpubind(topo, pu->cpuset, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT)) {
		snprintf(b->err, sizeof(b->err), "hwloc_set_cpubind: %s", strerror(errno));
		read_back(b);
		return -1;
	}
	b->ok = true;
	bound_pu = pu->logical_index;
	read_back(b);
	return 0;
}

int pt_pin_thread_nth(int n)
{
	int npu = pt_pu_count();
	hwloc_obj_t pu;

	if (npu <= 0)
		return -1;
	pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (bound_pu + (unsigned)n) % (unsigned)npu);
	if (!pu)
		return -1;
	return hwloc_set_cpubind(topo, pu->cpuset, HWLOC_CPUBIND_THREAD);
}
