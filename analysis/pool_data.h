/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The points a baseline-pool test judges: one per run and series, from a
 * history and from NEW runs, with the run median and, where kept, the
 * repetitions pt_pool_compare forms the run statistic from.
 */
#ifndef PTBENCH_POOL_DATA_H
#define PTBENCH_POOL_DATA_H

#include <stddef.h>

#include "analysis/history.h"
#include "analysis/pool.h"
#include "analysis/rundir.h"
#include "util/strpool.h"

struct pt_pool_data {
	struct pt_pool_point *pts;
	size_t n, cap;
	struct pt_strpool strs; /* owned copies the points borrow */
	size_t pool_runs, new_runs;
	unsigned runs; /* runs numbered so far: each point's run */
	/* each run's start and end, s since the epoch (NAN: not recorded), runs of them */
	double *start, *end;
	size_t times_cap;
};

/*
 * One point per series of every history run with this tag and suite (NULL:
 * any), except the runs whose ids are in exclude[] (the NEW runs, when they
 * were added to the history first).
 */
enum pt_history_err pt_pool_load_history(struct pt_history *h, const char *tag, const char *suite,
					 const char *const *exclude, size_t nexclude,
					 struct pt_pool_data *d, char *err, size_t errlen);

/* Where a history run goes: left out, into the pool, or in as a NEW run. */
enum pt_pool_role { PT_POOL_SKIP = 0, PT_POOL_BASE, PT_POOL_NEW };

/* The same, each run's role chosen by role(ctx, run id). */
enum pt_history_err pt_pool_load_roles(struct pt_history *h, const char *tag, const char *suite,
				       enum pt_pool_role (*role)(void *ctx, const char *id),
				       void *ctx, struct pt_pool_data *d, char *err, size_t errlen);
/* One point per series of a NEW run. 0, or -1 when out of memory. */
int pt_pool_add_new(struct pt_pool_data *d, const struct pt_rundir *r);
void pt_pool_data_free(struct pt_pool_data *d);

#endif
