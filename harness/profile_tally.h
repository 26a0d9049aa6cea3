/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arithmetic of a profiled repetition, apart from perf so that tests
 * can feed it synthetic records: which samples fall inside the timed
 * windows (pt_rep_begin .. pt_rep_end, CLOCK_MONOTONIC, the clock perf
 * stamps records with), how many land in each component, the stalls
 * between them, and the profile_* rows that makes.
 *
 * Each sample stands for one period of CPU time. A stall is a gap between
 * two samples on a CPU (cpu-clock's timer is per CPU and runs across
 * tasks), or between a sample and the context switch that ends its task's
 * run, longer than PT_PROF_STALL_PERIODS periods while one of our tasks
 * ran: time the guest could not sample (the host held the vCPU, for
 * instance to update its shadow of a page table, or interrupts were off).
 * Its length beyond one period is counted as stall time, by the component
 * of the sample where it ended; it is no component's time.
 */
#ifndef PTBENCH_PROFILE_TALLY_H
#define PTBENCH_PROFILE_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/profile_map.h"

/* A gap longer than this many periods is a stall. */
#define PT_PROF_STALL_PERIODS 2

/* What a CPU last saw in the current window. */
struct pt_prof_cpu {
	uint64_t prev; /* time of its last sample or switch; 0: none yet (the window's start) */
	int comp; /* the component of its last sample when that was ours, else -1 */
};

struct pt_prof_tally {
	uint64_t period_ns; /* the sampling period */
	uint64_t samples[PT_COMP_N]; /* our samples inside a window, by component */
	double stall_ns[PT_COMP_N]; /* stall time, by the component of the sample ending it */
	uint64_t in_window, outside; /* our samples in and out of the windows */
	uint64_t lost; /* records the kernel dropped (PERF_RECORD_LOST), any time */
	uint64_t throttled; /* PERF_RECORD_THROTTLE: sampling paused by the kernel */
	uint64_t elapsed_ns; /* the closed windows' length, = the rep's elapsed_ns */
	uint64_t t0, t1; /* the current (last) window */
	bool open; /* between begin and end */
	bool started; /* a window has begun */
	struct pt_prof_cpu *cpu; /* by CPU number; ncpu of them */
	size_t ncpu;
};

/* Per-CPU state is kept for CPU numbers below this; others count one period. */
#define PT_PROF_MAX_CPU 8192

/* Zero the counts (the per-CPU array is kept for reuse). */
void pt_tally_reset(struct pt_prof_tally *t, uint64_t period_ns);
void pt_tally_free(struct pt_prof_tally *t);
void pt_tally_begin(struct pt_prof_tally *t, uint64_t t0_ns);
void pt_tally_end(struct pt_prof_tally *t, uint64_t t1_ns);
/*
 * A sample on cpu at time_ns; ours: of this process or one it forked.
 * Counted in component c when ours and inside the current window (from
 * its begin, up to its end once it has one), with the stall before it;
 * the profiler reads the rings before each window and after it, and each
 * CPU's records in time order, so every record meets the window it
 * belongs to.
 */
bool pt_tally_sample(struct pt_prof_tally *t, unsigned cpu, uint64_t time_ns, enum pt_prof_comp c,
		     bool ours);
/* A context switch on cpu; out: the task leaving, ours or not. */
void pt_tally_switch(struct pt_prof_tally *t, unsigned cpu, uint64_t time_ns, bool out, bool ours);
/* The stall time in the windows. */
double pt_tally_stall_ns(const struct pt_prof_tally *t);

struct pt_prof_row {
	char metric[128];
	double value;
	const char *unit;
};

#define PT_PROF_MAX_ROWS (2 * PT_COMP_N + 7)

/*
 * The rows for ops operations named per (results/SCHEMA.md):
 * profile_<comp>_ns_per_<per> (samples x period / ops),
 * profile_<comp>_share (of the samples), profile_samples,
 * profile_period_ns, profile_lost, profile_coverage (samples x period
 * over the windows' wall time), profile_stall_ns_per_<per> and
 * profile_stall_coverage (the stalls, over ops and over the wall time)
 * and profile_cpu_coverage (samples x period + stalls, over cpu_ns, the
 * CPU time the process and its reaped children took in the windows; 0:
 * unknown, no row). resolved false (no usable kallsyms): the page-table
 * components are unknown, not zero, so only kernel_other and user get
 * rows. Shares are left out when no sample fell in a window (0/0),
 * coverages when no window was timed. Returns the number of rows.
 */
size_t pt_tally_rows(const struct pt_prof_tally *t, double ops, const char *per, bool resolved,
		     uint64_t cpu_ns, struct pt_prof_row *rows, size_t max);

#endif
