/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One perf event on every online CPU with a ring buffer each, through
 * libperf: opened, switched on and off, and its records handed to a
 * callback. The profiler (profile.c) uses two: the cpu-clock samples and
 * the fork records that say which processes are its own.
 */
#ifndef PTBENCH_PROFILE_RING_H
#define PTBENCH_PROFILE_RING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

struct perf_evlist;
union perf_event;

struct pt_prof_ring {
	struct perf_evlist *evlist;
};

/*
 * attr on every CPU online at the first call, for pid (-1: every task; 0:
 * the calling thread and, with attr->inherit, what it forks), pages (a
 * power of 2) of ring per CPU. 0, or -1 with "what: reason" in err; r is
 * then closed.
 */
int pt_prof_ring_open(struct pt_prof_ring *r, struct perf_event_attr *attr, int pid, int pages,
		      const char *what, char *err, size_t errlen);
void pt_prof_ring_close(struct pt_prof_ring *r);
void pt_prof_ring_enable(struct pt_prof_ring *r, bool on);
/* Every record in the rings, oldest first per CPU; the rings are emptied. */
void pt_prof_ring_drain(struct pt_prof_ring *r, void (*fn)(void *ctx, const union perf_event *ev),
			void *ctx);

#endif
