/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One repetition of one case: the workload brackets its timed region with
 * pt_rep_begin/pt_rep_end (timer and counters), then emits its metrics.
 * The runner fills in workload, case, params and repetition number.
 */
#ifndef PTBENCH_REP_H
#define PTBENCH_REP_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/counters.h"
#include "harness/sink.h"

struct pt_case;
struct pt_profile;

struct pt_rep {
	const struct pt_case *c;
	const char *workload;
	int rep; /* 0..N-1; warm-up repetitions are < 0 */
	bool warmup; /* rows of a warm-up are not written */
	struct pt_sink *sink;
	struct pt_counters *ctr;
	/* Accumulated over begin/end pairs. */
	uint64_t elapsed_ns;
	uint64_t elapsed_cycles;
	long minflt, majflt; /* getrusage(RUSAGE_SELF) deltas */
	long child_minflt; /* getrusage(RUSAGE_CHILDREN) deltas */
	/* CPU time (user + system) of this process and the children it reaped */
	uint64_t cpu_ns;
	/* private to begin/end */
	uint64_t t0_ns, t0_cycles, cpu0_ns;
	long minflt0, majflt0, child_minflt0;
	bool failed;
	bool skipped;
	bool retry; /* pt_rep_retry: a transient refusal, run the repetition again */
	char msg[256];
	/* Where pt_rep_note sends its text (the runner records it). */
	void (*on_note)(void *ctx, const char *text);
	void *note_ctx;
	/*
	 * A profiled repetition (harness/profile.h): its windows are sampled,
	 * pt_rep_emit_per_op writes the profile_* rows instead of the timing,
	 * and every other row is dropped: sampling perturbs the timing.
	 */
	struct pt_profile *prof;
	/* Sees every row emitted (the runner's summary). */
	void (*on_emit)(void *ctx, const char *metric, double value);
	void *emit_ctx;
};

void pt_rep_reset(struct pt_rep *r);
void pt_rep_begin(struct pt_rep *r);
void pt_rep_end(struct pt_rep *r);
/* Faults the process took inside begin/end (minor + major, self). */
long pt_rep_faults(const struct pt_rep *r);
/* Value of a counter accumulated inside begin/end, -1 when not open. */
double pt_rep_counter(const struct pt_rep *r, const char *name);

void pt_rep_emit(struct pt_rep *r, const char *metric, double value, const char *unit,
		 enum pt_better better);
/*
 * Emit elapsed time and every open counter divided by ops, named
 * "ns_per_<per>", "ticks_per_<per>" (the cycle counter: rdtsc or
 * cntvct_el0, unit named after it) and "<event>_per_<per>". In a profiled
 * repetition: the profile_* rows instead (results/SCHEMA.md).
 */
void pt_rep_emit_per_op(struct pt_rep *r, double ops, const char *per);
/*
 * In a profiled repetition, the profile_* rows for ops operations named
 * per; elsewhere nothing. pt_rep_emit_per_op calls it; a workload that
 * emits its timing rows itself calls it once with its operation count.
 */
void pt_rep_emit_profile(struct pt_rep *r, double ops, const char *per);
/* A verification failure: the rep is not valid. Returns -1. */
int pt_rep_fail(struct pt_rep *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The case cannot run here (kernel lacks a feature). Returns 1. */
int pt_rep_skip(struct pt_rep *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A transient refusal (MADV_COLLAPSE's EAGAIN on a busy machine, a huge
 * page lost to a racing allocation): the runner drops the rows this
 * repetition emitted, counts the retry and its reason in meta.json, and runs
 * the repetition again from scratch, up to PT_REP_RETRIES times; the case
 * fails only when the refusal persists. Return it before emitting, where
 * possible. Returns -1.
 */
#define PT_REP_RETRIES 3
int pt_rep_retry(struct pt_rep *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note recorded in meta.json for this case. */
void pt_rep_note(struct pt_rep *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * At a workload's measurement point: emits the kernel's page-table bytes
 * (VmPTE growth since vmpte_base_kb) and the model's bytes for D64 and
 * D128 of the whole process. Implemented with the model (model/pgtable).
 */
void pt_rep_pgtable_point(struct pt_rep *r, long vmpte_base_kb);

#endif
