// SPDX-License-Identifier: GPL-2.0-only
#include <pthread.h>
#include <stdbool.h>

#include "model/walk_pipe.h"
#include "model/walk_run.h"

#define PT_RUN_MIN_ACCESSES (1ull << 20)
#define PT_RUN_MAX_WARMUP (1ull << 24)
#define PT_FIT_MIN_ACCESSES (1ull << 17)

/*
 * Accesses are prepared PT_RUN_AHEAD accesses before they are simulated,
 * which prefetches the host memory they will touch: the simulation is
 * bound by host cache misses on its large arrays, and this overlaps them.
 * Exactly count addresses are drawn from the pattern, so its state after a
 * call does not depend on the look-ahead.
 */
#define PT_RUN_AHEAD 16 /* a power of two */
#define PT_RUN_SIMS 8 /* simulators fed together; more go in groups */
#define PT_RUN_THREADS 8 /* the most threads simulators are spread over */

static void feed_group(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t count)
{
	struct pt_walk_prep ring[PT_RUN_AHEAD][PT_RUN_SIMS];
	uint64_t i, fill = count < PT_RUN_AHEAD ? count : PT_RUN_AHEAD;
	size_t k;

	for (i = 0; i < fill; i++) {
		uint64_t va = pt_pattern_next(p);

		for (k = 0; k < n; k++)
			pt_walksim_prepare(&s[k], va, i ? &ring[i - 1][k] : NULL, &ring[i][k]);
	}
	for (i = 0; i < count; i++) {
		struct pt_walk_prep *slot = ring[i % PT_RUN_AHEAD];

		for (k = 0; k < n; k++)
			pt_walksim_access_prepared(&s[k], &slot[k]);
		if (i + PT_RUN_AHEAD < count) {
			const struct pt_walk_prep *prev =
				ring[(i + PT_RUN_AHEAD - 1) % PT_RUN_AHEAD];
			uint64_t va = pt_pattern_next(p);

			for (k = 0; k < n; k++)
				pt_walksim_prepare(&s[k], va, &prev[k], &slot[k]);
		}
	}
}

/*
 * feed_group for one simulator, the common case, with less bookkeeping;
 * with q, the data caches' half of each access goes to q's thread.
 */
static void feed_one(struct pt_walksim *s, struct pt_pattern *p, uint64_t count,
		     struct pt_walk_pipe *q)
{
	struct pt_walk_prep ring[PT_RUN_AHEAD];
	uint64_t i, fill = count < PT_RUN_AHEAD ? count : PT_RUN_AHEAD;

	for (i = 0; i < fill; i++)
		pt_walksim_prepare(s, pt_pattern_next(p), i ? &ring[i - 1] : NULL, &ring[i]);
	for (i = 0; i < count; i++) {
		struct pt_walk_prep *slot = &ring[i % PT_RUN_AHEAD];

		if (q) {
			pt_walksim_front(s, slot, pt_walk_pipe_slot(q));
			pt_walk_pipe_commit(q);
		} else {
			pt_walksim_access_prepared(s, slot);
		}
		if (i + PT_RUN_AHEAD < count)
			pt_walksim_prepare(s, pt_pattern_next(p),
					   &ring[(i + PT_RUN_AHEAD - 1) % PT_RUN_AHEAD], slot);
	}
}

/* One simulator, in two threads where it may and the run is long enough to gain. */
static void feed_single(struct pt_walksim *s, struct pt_pattern *p, uint64_t count)
{
	struct pt_walk_pipe q;

	if (s->threads < 2 || count < PT_PIPE_MIN_ACCESSES || pt_walk_pipe_start(&q, s, count)) {
		feed_one(s, p, count, NULL);
		return;
	}
	feed_one(s, p, count, &q);
	pt_walk_pipe_finish(&q);
}

/* n simulators in this thread. */
static void feed_serial(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t count)
{
	uint64_t i;
	size_t k;

	if (n == 1) {
		feed_one(s, p, count, NULL);
		return;
	}
	if (n <= PT_RUN_SIMS) {
		feed_group(s, n, p, count);
		return;
	}
	for (i = 0; i < count; i++) {
		uint64_t va = pt_pattern_next(p);

		for (k = 0; k < n; k++)
			pt_walksim_access(&s[k], va);
	}
}

/* A share of the simulators, fed in a thread of its own from its own copy of the pattern. */
struct share {
	struct pt_walksim *s;
	size_t n;
	struct pt_pattern p;
	uint64_t count;
	pthread_t th;
	bool started;
};

static void *feed_share(void *arg)
{
	struct share *sh = arg;

	feed_serial(sh->s, sh->n, &sh->p, sh->count);
	return NULL;
}

/*
 * Several simulators in up to s->threads threads: they share nothing but
 * the addresses, which each share draws from its copy of the pattern (the
 * cycle it follows is only read). A thread that cannot start is fed here.
 */
static bool feed_apart(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t count)
{
	struct share sh[PT_RUN_THREADS];
	size_t nt = s->threads < n ? s->threads : n, t;

	if (nt > PT_RUN_THREADS)
		nt = PT_RUN_THREADS;
	if (nt < 2 || count < PT_PIPE_MIN_ACCESSES)
		return false;
	for (t = 0; t < nt; t++) {
		sh[t].s = s + t * n / nt;
		sh[t].n = (t + 1) * n / nt - t * n / nt;
		sh[t].p = *p;
		sh[t].count = count;
		sh[t].started = t && !pthread_create(&sh[t].th, NULL, feed_share, &sh[t]);
	}
	for (t = 1; t < nt; t++)
		s->threaded_runs += sh[t].started && t == 1;
	feed_share(&sh[0]);
	for (t = 1; t < nt; t++) {
		if (sh[t].started)
			pthread_join(sh[t].th, NULL);
		else
			feed_share(&sh[t]);
	}
	*p = sh[0].p;
	return true;
}

static void feed(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t count)
{
	if (n == 1)
		feed_single(s, p, count);
	else if (!feed_apart(s, n, p, count))
		feed_serial(s, n, p, count);
}

void pt_walk_run_pattern(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t warmup,
			 uint64_t accesses)
{
	size_t k;

	feed(s, n, p, warmup);
	for (k = 0; k < n; k++)
		pt_walksim_reset_stats(&s[k]);
	feed(s, n, p, accesses);
}

void pt_walk_default_counts(const struct pt_pattern *p, uint64_t *warmup, uint64_t *accesses)
{
	uint64_t pass = pt_pattern_pass(p);

	*warmup = pass < PT_RUN_MAX_WARMUP ? pass : PT_RUN_MAX_WARMUP;
	*accesses = 4 * pass;
	if (*accesses < PT_RUN_MIN_ACCESSES)
		*accesses = PT_RUN_MIN_ACCESSES;
	if (*accesses > 4 * PT_RUN_MAX_WARMUP)
		*accesses = 4 * PT_RUN_MAX_WARMUP;
}

void pt_walk_fit_counts(const struct pt_pattern *p, uint64_t *warmup, uint64_t *accesses)
{
	uint64_t pass = pt_pattern_pass(p);

	*warmup = pass < PT_RUN_MAX_WARMUP ? pass : PT_RUN_MAX_WARMUP;
	*accesses = pass < PT_FIT_MIN_ACCESSES	 ? PT_FIT_MIN_ACCESSES
		    : pass > PT_RUN_MIN_ACCESSES ? PT_RUN_MIN_ACCESSES
						 : pass;
}
