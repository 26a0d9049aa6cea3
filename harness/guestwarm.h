/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warming a guest's memory before measuring (docs/run.md, "Guest memory").
 * A host that backs guest memory lazily (and takes back what free page
 * reporting returns) makes the first write to a guest page a host fault
 * too, so a case's cost depends on which frames the guest allocator hands
 * out. Touching memory once, with reporting paused, and releasing it
 * leaves host-backed frames at the head of the guest's free lists, where
 * the cases' allocations find them.
 */
#ifndef PTBENCH_HARNESS_GUESTWARM_H
#define PTBENCH_HARNESS_GUESTWARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_guest_warm {
	uint64_t bytes; /* touched; 0 when not warmed */
	double seconds;
	char desc[192]; /* for meta.json run.guest_warm */
};

/*
 * The bytes "auto" warms: twice the largest case's memory, 256 MiB to 1 GiB,
 * at most half of MemAvailable; 0 with the reason in why when warming would not help (a
 * native host, page reporting left on, so freed frames go back).
 */
uint64_t pt_guest_warm_auto(bool virtualized, bool reporting_paused, uint64_t peak_case_bytes,
			    uint64_t mem_available, char *why, size_t len);
/* Touch bytes of anonymous memory one write per page, then unmap it. 0 or -1 (errno). */
int pt_guest_warm(uint64_t bytes, struct pt_guest_warm *w);

struct pt_run;
/*
 * --warm-guest MODE for a run whose cases are collected and whose page
 * reporting is settled: "off", "auto" or a size; the outcome in
 * run->guest_warm. -1 with err when an explicit size fails the memory guard.
 */
int pt_run_warm_guest(struct pt_run *run, const char *mode, char *err, size_t errlen);

#endif
