/* SPDX-License-Identifier: GPL-2.0-only */
/* Pieces of the tlb workload that the tests check directly. */
#ifndef PTBENCH_WORKLOADS_TLB_H
#define PTBENCH_WORKLOADS_TLB_H

#include <stdint.h>

/* next[i] is the element after i; the permutation is one cycle over n. */
void tlb_cyclic_permutation(uint32_t *next, uint32_t n, uint64_t seed);
/* Follow a pointer chain for loads steps; returns where it stopped. */
void *tlb_chase(void *p, uint64_t loads);

#endif
