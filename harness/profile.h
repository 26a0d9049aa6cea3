/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the kernel's time goes in one repetition: the software event
 * cpu-clock sampled through libperf's ring buffers (no hardware PMU
 * needed), kernel and user, on every CPU inside the repetition's timed
 * windows, kept for this process and the processes it forks from
 * pt_profile_start on. Each sample is an IP, a process and a
 * CLOCK_MONOTONIC time; those inside a window are attributed to
 * page-table components (profile_map.h) through /proc/kallsyms
 * (kallsyms.h). docs/profile.md.
 */
#ifndef PTBENCH_PROFILE_H
#define PTBENCH_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/profile_tally.h"

struct pt_json;
struct pt_profile;

/*
 * 50 us (20 kHz): thousands of samples in a repetition of tens of ms, a
 * fifth of the kernel's default perf_event_max_sample_rate (100 kHz).
 */
#define PT_PROFILE_PERIOD_DEFAULT_NS 50000ull
/* The kernel raises a cpu-clock period below 10 us to 10 us. */
#define PT_PROFILE_PERIOD_MIN_NS 10000ull
#define PT_PROFILE_PERIOD_MAX_NS 1000000000ull

/*
 * A profiler for a run. off_reason (--no-profile, no profiled case): off,
 * nothing probed. NULL: cpu-clock sampling is opened once to see that it
 * works, and /proc/kallsyms is loaded. NULL only when out of memory.
 */
struct pt_profile *pt_profile_new(uint64_t period_ns, const char *off_reason);
void pt_profile_free(struct pt_profile *p);
/* Enabled and supported: profiled repetitions can run. */
bool pt_profile_usable(const struct pt_profile *p);
/* Why it is off or unsupported; "" when usable. */
const char *pt_profile_reason(const struct pt_profile *p);
/* Kernel IPs resolve to functions (kallsyms readable, addresses not hidden). */
bool pt_profile_resolved(const struct pt_profile *p);

/*
 * Open the events (sampling off until a window opens); the tally and the
 * processes known as ours are reset. 0, or -1 with a reason.
 */
int pt_profile_start(struct pt_profile *p, char *err, size_t errlen);
/* Read the samples so far into the tally (ring buffers emptied). */
void pt_profile_drain(struct pt_profile *p);
/*
 * A timed window (pt_rep_begin .. pt_rep_end): window_open switches the
 * sampling on before the clock is read, window_begin records t0 (ns,
 * CLOCK_MONOTONIC), window_end switches it off and reads the samples.
 */
void pt_profile_window_open(struct pt_profile *p);
void pt_profile_window_begin(struct pt_profile *p, uint64_t t0_ns);
void pt_profile_window_end(struct pt_profile *p, uint64_t t1_ns);
/* Stop, read what is left and close the events. */
void pt_profile_stop(struct pt_profile *p);
const struct pt_prof_tally *pt_profile_tally(const struct pt_profile *p);

/* One of the kernel functions most sampled in the windows of the last repetition. */
struct pt_prof_top {
	char symbol[64];
	const char *cls; /* its component, or "entry helper" (its callers decide) */
	uint32_t samples;
	double share; /* of every sample inside the windows, user ones included */
};

#define PT_PROF_TOP 8

/* The most sampled kernel functions, most first; their number (0 unresolved). */
size_t pt_profile_top(const struct pt_profile *p, struct pt_prof_top *top, size_t max);

/* meta.json's "profile" object (results/SCHEMA.md). p may be NULL. */
void pt_profile_json(const struct pt_profile *p, struct pt_json *j);

#endif
