// SPDX-License-Identifier: GPL-2.0-only
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "model/walk_pipe.h"

#define PT_PIPE_AHEAD 16 /* records ahead whose cache sets the back half prefetches */
/* records ahead the back half prefetches themselves: they come from the front's CPU */
#define PT_PIPE_AHEAD_REC 32
#define PT_PIPE_SPINS 4096 /* spins before a wait gives the CPU away */

/* One turn of a wait: spin a while, then yield (the other half may share our CPU). */
static void wait_turn(unsigned *spins)
{
	if (++*spins < PT_PIPE_SPINS) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ volatile("yield");
#endif
		return;
	}
	*spins = 0;
	sched_yield();
}

/* Hint the host to load the LLC sets r's data load and leaf fetch will use. */
static void prefetch_rec(const struct pt_cachesim *dc, const struct pt_walk_rec *r)
{
	if (r->flags & PT_REC_OUTSIDE)
		return;
	pt_cachesim_prefetch(dc, r->data_pa);
	if (r->nfetch)
		pt_cachesim_prefetch(dc, r->fetch_pa[r->nfetch - 1]);
}

__attribute__((flatten)) static void *back_half(void *arg)
{
	struct pt_walk_pipe *q = arg;
	struct pt_walk_back *b = q->back;
	uint64_t done = 0, avail = 0;
	unsigned spins = 0;

	while (done < q->count) {
		while (avail == done)
			if ((avail = atomic_load_explicit(&q->produced, memory_order_acquire)) ==
			    done)
				wait_turn(&spins);
		for (; done < avail; done++) {
			if (done + PT_PIPE_AHEAD_REC < avail)
				pt_prefetch(&q->ring[(done + PT_PIPE_AHEAD_REC) % PT_PIPE_RING]);
			if (done + PT_PIPE_AHEAD < avail)
				prefetch_rec(&b->dc,
					     &q->ring[(done + PT_PIPE_AHEAD) % PT_PIPE_RING]);
			pt_walksim_back(&b->dc, b->lat, &q->ring[done % PT_PIPE_RING], &b->st);
			if (!((done + 1) % PT_PIPE_BATCH))
				atomic_store_explicit(&q->consumed, done + 1, memory_order_release);
		}
		atomic_store_explicit(&q->consumed, done, memory_order_release);
	}
	return NULL;
}

int pt_walk_pipe_start(struct pt_walk_pipe *q, struct pt_walksim *s, uint64_t count)
{
	memset(q, 0, sizeof(*q));
	q->ring = aligned_alloc(64, PT_PIPE_RING * sizeof(*q->ring));
	q->back = aligned_alloc(64, sizeof(*q->back));
	if (!q->ring || !q->back)
		goto fail;
	q->back->dc = s->dc;
	memcpy(q->back->lat, s->cfg.lat, sizeof(q->back->lat));
	/* the back half counts on from the counts so far, so its sums round as one thread's */
	q->back->st = s->st;
	q->s = s;
	q->count = count;
	q->room = PT_PIPE_RING;
	atomic_init(&q->produced, 0);
	atomic_init(&q->consumed, 0);
	if (pthread_create(&q->th, NULL, back_half, q))
		goto fail;
	s->back_apart = true;
	s->threaded_runs++;
	return 0;
fail:
	free(q->ring);
	free(q->back);
	return -1;
}

void pt_walk_pipe_wait_room(struct pt_walk_pipe *q)
{
	unsigned spins = 0;
	uint64_t c;

	while ((c = atomic_load_explicit(&q->consumed, memory_order_acquire)) + PT_PIPE_RING <=
	       q->next)
		wait_turn(&spins);
	q->room = c + PT_PIPE_RING;
}

void pt_walk_pipe_finish(struct pt_walk_pipe *q)
{
	struct pt_walk_stats *st = &q->s->st, *b = &q->back->st;
	unsigned h;

	pthread_join(q->th, NULL);
	q->s->back_apart = false;
	q->s->dc = q->back->dc;
	/* the fields the back half owns; the front never wrote them */
	memcpy(st->data_loc, b->data_loc, sizeof(st->data_loc));
	for (h = 0; h < PT_MAX_LEVELS; h++)
		memcpy(st->step_loc[h], b->step_loc[h], PT_LOC_N * sizeof(st->step_loc[h][0]));
	memcpy(st->walk_hist, b->walk_hist, sizeof(st->walk_hist));
	st->walk_cycles = b->walk_cycles;
	free(q->ring);
	free(q->back);
}
