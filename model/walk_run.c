// SPDX-License-Identifier: GPL-2.0-only
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

/* feed_group for one simulator, the common case, with less bookkeeping. */
static void feed_one(struct pt_walksim *s, struct pt_pattern *p, uint64_t count)
{
	struct pt_walk_prep ring[PT_RUN_AHEAD];
	uint64_t i, fill = count < PT_RUN_AHEAD ? count : PT_RUN_AHEAD;

	for (i = 0; i < fill; i++)
		pt_walksim_prepare(s, pt_pattern_next(p), i ? &ring[i - 1] : NULL, &ring[i]);
	for (i = 0; i < count; i++) {
		struct pt_walk_prep *slot = &ring[i % PT_RUN_AHEAD];

		pt_walksim_access_prepared(s, slot);
		if (i + PT_RUN_AHEAD < count)
			pt_walksim_prepare(s, pt_pattern_next(p),
					   &ring[(i + PT_RUN_AHEAD - 1) % PT_RUN_AHEAD], slot);
	}
}

static void feed(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t count)
{
	uint64_t i;
	size_t k;

	if (n == 1) {
		feed_one(s, p, count);
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
