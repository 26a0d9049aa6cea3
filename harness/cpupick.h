/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --cpu pick: before each round, time a few 4K page faults on each
 * candidate CPU and run the round on the fastest. On this project's guests
 * each vCPU has slow stretches of its own: seconds apart, 4K anonymous
 * faults took 14.5 us on one vCPU and 11.0 us on the other, and which one
 * was slow changed over minutes (results/cpu-pick/NOTES.md). A run pinned
 * to one CPU takes every such stretch into its statistics; a regression in
 * the kernel slows every CPU alike, so the pick does not hide one.
 */
#ifndef PTBENCH_HARNESS_CPUPICK_H
#define PTBENCH_HARNESS_CPUPICK_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/pin.h"
#include "util/json.h"

#define PT_PICK_MAX 4 /* candidates: the last 4 CPUs the process may use */
#define PT_PICK_PROBES 3 /* probes per candidate and round, interleaved */
#define PT_PICK_PAGES 512 /* 4K pages faulted per probe: ~6 ms on the guest */

struct pt_cpu_pick {
	int ncand;
	int cand[PT_PICK_MAX]; /* OS CPU numbers */
	double ns[PT_PICK_MAX]; /* the last round's median probe, ns per fault; NAN none */
	int chosen; /* the CPU of the last round as bound, -1 before the first */
	int rounds_on[PT_PICK_MAX]; /* rounds run on each candidate */
	int moves; /* rounds that changed CPU */
	int failed; /* rounds whose probes all failed: the CPU was kept */
	int unpinned; /* rounds the binding to the chosen CPU failed */
	double probe_s; /* time spent probing */
	int *picks; /* each round's CPU as bound, in order */
	size_t npicks, cap;
	bool picks_lost; /* out of memory for the list: meta.json writes null */
};

/* The candidates from the process's affinity; 0, or -1 when there are fewer than 2. */
int pt_cpu_pick_init(struct pt_cpu_pick *p);
/* From a list of allowed CPUs (ascending): the last PT_PICK_MAX of them. */
void pt_cpu_pick_candidates(struct pt_cpu_pick *p, const int *cpus, int n);
/*
 * Index of the candidate to run on from each one's PT_PICK_PROBES probes
 * (ns[c * PT_PICK_PROBES + k], NAN for a failed probe): the lowest median;
 * keep (the current index) when no candidate has a probe.
 */
int pt_cpu_pick_choose(const double *ns, int ncand, int keep);
/* Probe every candidate and bind the calling thread to the fastest; b as pt_pin_thread fills it. */
void pt_cpu_pick_round(struct pt_cpu_pick *p, struct pt_binding *b);
/* "pick": {candidates, rounds_on, moves, failed, unpinned, probe_s, last_probe_ns, rounds} */
void pt_cpu_pick_json(struct pt_json *j, const struct pt_cpu_pick *p);
void pt_cpu_pick_free(struct pt_cpu_pick *p);

#endif
