/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libpfm4 names of the TLB events whose meaning is fixed, in the walk
 * model's terms: ptbench run counts them by default (harness/counters.c)
 * and the walk calibration sets them against what it simulated
 * (analysis/walkcounters.c). One spelling for both, so they cannot drift.
 */
#ifndef PTBENCH_MODEL_TLB_EVENTS_H
#define PTBENCH_MODEL_TLB_EVENTS_H

/* Intel: completed page walks of demand loads */
#define PT_EV_INTEL_WALKS "DTLB_LOAD_MISSES:WALK_COMPLETED"
/*
 * AMD Zen 2-4: an L1 DTLB miss that misses the L2 DTLB too is a walk, by
 * the size of the page it loads; coalesced pages are Zen's 16K entries
 * built from four contiguous 4K pages.
 */
#define PT_EV_AMD_WALKS_4K "L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS"
#define PT_EV_AMD_WALKS_COALESCED "L1_DTLB_MISS:TLB_RELOAD_COALESCED_PAGE_MISS"
#define PT_EV_AMD_WALKS_2M "L1_DTLB_MISS:TLB_RELOAD_2M_L2_MISS"
/* arm64: walks, and L1 data TLB refills */
#define PT_EV_ARM_WALKS "DTLB_WALK"
#define PT_EV_ARM_L1_REFILLS "L1D_TLB_REFILL"

#endif
