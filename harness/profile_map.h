/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel function name -> page-table component, for the sampling profiler
 * (docs/profile.md). The component names are a contract with the D128
 * prediction model, which reads the profile_<component>_* rows: keep them.
 */
#ifndef PTBENCH_PROFILE_MAP_H
#define PTBENCH_PROFILE_MAP_H

#include <stddef.h>

enum pt_prof_comp {
	PT_COMP_PT_COPY = 0, /* fork: copying page tables */
	PT_COMP_PT_CHPROT, /* mprotect: rewriting entries */
	PT_COMP_PT_ZAP, /* munmap, exit: clearing entries, gathering pages */
	PT_COMP_PT_FREE, /* freeing table pages */
	PT_COMP_PT_ALLOC, /* allocating table pages */
	PT_COMP_PT_SET, /* the fault path setting entries */
	PT_COMP_ZERO, /* zeroing pages: data pages and new tables */
	PT_COMP_TLB_FLUSH,
	PT_COMP_KERNEL_OTHER, /* the rest of the kernel, and unresolved kernel IPs */
	PT_COMP_USER, /* user-space samples */
	PT_COMP_N,
};

/* The class of an entry helper (pte_val, set_ptes): its caller decides. */
#define PT_PROF_HELPER PT_COMP_N

/* "pt_copy", ..., "user". */
const char *pt_prof_comp_name(enum pt_prof_comp c);
/*
 * The class of a kernel text symbol: a component, or PT_PROF_HELPER.
 * Compiler suffixes (.isra.0, .constprop.0, .part.0, .cold) are ignored; a
 * module symbol ("name [mod]") is matched by its name. Unknown names and
 * NULL: PT_COMP_KERNEL_OTHER.
 */
int pt_prof_class_of(const char *sym);
/*
 * A kernel sample's component from the classes of its callchain, the
 * sampled function first, then its callers: the first that is not an
 * entry helper; kernel_other when every one is (or n is 0).
 */
enum pt_prof_comp pt_prof_resolve(const int *cls, size_t n);
/* pt_prof_resolve of the symbol alone (a helper without its caller: kernel_other). */
enum pt_prof_comp pt_prof_comp_of(const char *sym);

#endif
