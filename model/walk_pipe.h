/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One simulator in two threads: the caller runs the front half of each
 * access (TLBs, walk caches, page table; pt_walksim_front) and a thread of
 * its own the back half (data caches; pt_walksim_back). Records pass
 * through a ring in batches. The back half takes them in the front's
 * order and the halves share no state, so every count is the one a single
 * thread gets; the test checks it. A simulation bound by its own
 * instructions then runs up to twice as fast on two idle CPUs.
 */
#ifndef PTBENCH_MODEL_WALK_PIPE_H
#define PTBENCH_MODEL_WALK_PIPE_H

#include <pthread.h>
#include <stdatomic.h>

#include "model/walk_sim.h"

#define PT_PIPE_BATCH 64 /* records published at a time: one cache-line handoff per batch */
#define PT_PIPE_RING 2048 /* records in the ring (128 KiB), a multiple of the batch */
/* fewer accesses than this are simulated in one thread: a thread's start costs more */
#define PT_PIPE_MIN_ACCESSES 65536
#define PT_PIPE_AHEAD_WRITE 48 /* records ahead the front asks to own */

struct pt_walk_back {
	struct pt_cachesim dc;
	double lat[PT_LAT_N];
	struct pt_walk_stats st;
} __attribute__((aligned(64)));

struct pt_walk_pipe {
	struct pt_walk_rec *ring;
	struct pt_walksim *s;
	/*
	 * The back half's own: the caches' state (copied back to s at the end)
	 * and latencies away from the lines the front writes, and its counts,
	 * merged into s->st at the end.
	 */
	struct pt_walk_back *back;
	uint64_t count; /* records in all */
	pthread_t th;
	/* the front's own, on a line of their own: the back half reads the fields above */
	_Alignas(64) uint64_t next; /* the front's next record */
	uint64_t room; /* the front may fill records below this without looking */
	_Alignas(64) atomic_uint_fast64_t produced; /* records published */
	_Alignas(64) atomic_uint_fast64_t consumed; /* records the back half is done with */
};

/*
 * Start the back half for count records of s. 0, or -1 (no memory, no
 * thread): nothing started, simulate in one thread.
 */
int pt_walk_pipe_start(struct pt_walk_pipe *q, struct pt_walksim *s, uint64_t count);
/* Wait until the back half has freed the batch the front's next record is in. */
void pt_walk_pipe_wait_room(struct pt_walk_pipe *q);
/* Wait for the back half to take every record, and merge its counts into s->st. */
void pt_walk_pipe_finish(struct pt_walk_pipe *q);

/* The record the front fills next; pt_walk_pipe_commit hands it on. */
static inline struct pt_walk_rec *pt_walk_pipe_slot(struct pt_walk_pipe *q)
{
	if (q->next >= q->room)
		pt_walk_pipe_wait_room(q);
	/* the back half read that record's line last: ask for it early */
	if (q->next + PT_PIPE_AHEAD_WRITE < q->room)
		pt_prefetch_write(&q->ring[(q->next + PT_PIPE_AHEAD_WRITE) % PT_PIPE_RING]);
	return &q->ring[q->next % PT_PIPE_RING];
}

static inline void pt_walk_pipe_commit(struct pt_walk_pipe *q)
{
	q->next++;
	if (!(q->next % PT_PIPE_BATCH) || q->next == q->count)
		atomic_store_explicit(&q->produced, q->next, memory_order_release);
}

#endif
