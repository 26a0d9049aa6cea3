// SPDX-License-Identifier: GPL-2.0-only
#include "model/walk_run.h"

#define PT_RUN_MIN_ACCESSES (1ull << 20)
#define PT_RUN_MAX_WARMUP (1ull << 24)

static void feed(struct pt_walksim *s, size_t n, struct pt_pattern *p, uint64_t count)
{
	uint64_t i;
	size_t k;

	if (n == 1) {
		for (i = 0; i < count; i++)
			pt_walksim_access(s, pt_pattern_next(p));
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
