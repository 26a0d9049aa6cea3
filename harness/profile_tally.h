/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arithmetic of a profiled repetition, apart from perf so that tests
 * can feed it synthetic samples: which samples fall inside the timed
 * windows (pt_rep_begin .. pt_rep_end, CLOCK_MONOTONIC, the clock perf
 * stamps samples with), how many land in each component, and the
 * profile_* rows they make.
 */
#ifndef PTBENCH_PROFILE_TALLY_H
#define PTBENCH_PROFILE_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/profile_map.h"

struct pt_prof_tally {
	uint64_t period_ns; /* CPU time one sample stands for */
	uint64_t samples[PT_COMP_N]; /* inside a window, by component */
	uint64_t in_window, outside;
	uint64_t lost; /* records the kernel dropped (PERF_RECORD_LOST), any time */
	uint64_t throttled; /* PERF_RECORD_THROTTLE: sampling paused by the kernel */
	uint64_t elapsed_ns; /* the closed windows' length, = the rep's elapsed_ns */
	uint64_t t0, t1; /* the current (last) window */
	bool open; /* between begin and end */
	bool started; /* a window has begun */
};

void pt_tally_reset(struct pt_prof_tally *t, uint64_t period_ns);
void pt_tally_begin(struct pt_prof_tally *t, uint64_t t0_ns);
void pt_tally_end(struct pt_prof_tally *t, uint64_t t1_ns);
/*
 * A sample stamped time_ns: counted in component c when it falls inside
 * the current window (from its begin, up to its end once it has one),
 * else counted as outside. The profiler drains the ring buffer before each
 * window and after it, so every sample meets the window it belongs to.
 */
bool pt_tally_sample(struct pt_prof_tally *t, uint64_t time_ns, enum pt_prof_comp c);

struct pt_prof_row {
	char metric[128];
	double value;
	const char *unit;
};

#define PT_PROF_MAX_ROWS (2 * PT_COMP_N + 5)

/*
 * The rows for ops operations named per (results/SCHEMA.md):
 * profile_<comp>_ns_per_<per>, profile_<comp>_share, profile_samples,
 * profile_period_ns, profile_lost, profile_coverage (sampled time over the
 * windows' wall time) and profile_cpu_coverage (over cpu_ns, the CPU time
 * the process and its reaped children took in the windows; 0: unknown, no
 * row). resolved false (no usable kallsyms): the page-table components are
 * unknown, not zero, so only kernel_other and user get rows. Shares are
 * left out when no sample fell in a window (0/0), coverage when no window
 * was timed. Returns the number of rows.
 */
size_t pt_tally_rows(const struct pt_prof_tally *t, double ops, const char *per, bool resolved,
		     uint64_t cpu_ns, struct pt_prof_row *rows, size_t max);

#endif
