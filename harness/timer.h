/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PTBENCH_TIMER_H
#define PTBENCH_TIMER_H

#include <stdbool.h>
#include <stdint.h>

struct pt_timer_info {
	double clock_overhead_ns; /* one clock_gettime pair */
	double cycle_overhead; /* one cycle-counter pair, in ticks */
	uint64_t cycle_hz; /* 0 when there is no cycle counter */
	const char *cycle_source; /* "rdtsc", "cntvct_el0" or "none" */
};

/* CLOCK_MONOTONIC in ns. */
uint64_t pt_now_ns(void);
/* The architecture's cycle counter, 0 where there is none. */
uint64_t pt_cycles(void);
bool pt_cycles_supported(void);
const char *pt_cycle_source(void);
/* Measure overheads and the counter frequency once; cached. */
const struct pt_timer_info *pt_timer_info(void);

#endif
