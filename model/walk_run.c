// SPDX-License-Identifier: GPL-2.0-only
#include "model/walk_pipe.h"
#include "model/walk_run.h"
#include "util/parallel.h"

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

/* Simulators split into nt shares, each fed from its own copy of the pattern. */
struct shares {
	struct pt_walksim *s;
	size_t n, nt;
	struct pt_pattern p[PT_PARALLEL_MAX_THREADS];
	uint64_t count;
};

static int feed_share(void *arg, size_t t)
{
	struct shares *x = arg;
	size_t lo = t * x->n / x->nt, hi = (t + 1) * x->n / x->nt;

	feed_serial(x->s + lo, hi - lo, &x->p[t], x->count);
	return 0;
}

/*
 * Several simulators in up to s->threads threads: they share nothing but
 * the addresses, which each share draws from its copy of the pattern (the
 * cycle it follows is only read).
 */
static bool feed_apart(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t count)
{
	struct shares x = { .s = s, .n = n, .count = count };
	size_t t;

	x.nt = s->threads < n ? s->threads : n;
	if (x.nt > PT_PARALLEL_MAX_THREADS)
		x.nt = PT_PARALLEL_MAX_THREADS;
	if (x.nt < 2 || count < PT_PIPE_MIN_ACCESSES)
		return false;
	for (t = 0; t < x.nt; t++)
		x.p[t] = *p;
	if (pt_parallel_for(x.nt, feed_share, &x) > 1)
		s->threaded_runs++;
	*p = x.p[0];
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
