// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replica costs a run measured (workload ptops, docs/workloads-notes.md):
 * per replica loop, the D64 and D128 medians and the D128/D64 ratio taken
 * repetition by repetition, since the two formats' cases run in the same
 * rounds and share whatever the host did then; its range is the 95%
 * interval of the median ratio (min..max when too few repetitions).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/opcost.h"
#include "util/params.h"
#include "util/stats.h"
#include "util/units.h"

/* The replica size the prediction prefers: the quick suite's, tables past L2. */
#define REPLICA_PREFERRED_SIZE (256ull << 20)

static bool is(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

static const struct pt_series *replica_series(const struct pt_rundir *run, enum pt_replica op,
					      const char *format, uint64_t *size)
{
	const struct pt_series *best = NULL;
	uint64_t best_size = 0;
	size_t i;

	for (i = 0; i < run->nseries; i++) {
		const struct pt_series *s = &run->series[i];
		struct pt_params p;
		uint64_t sz;

		if (!is(s->workload, "ptops") ||
		    !is(s->metric, op == PT_REPL_ALLOC ? "ns_per_table" : "ns_per_entry") ||
		    pt_params_parse(s->params, &p) ||
		    !is(pt_params_get(&p, "op"), pt_replica_name(op)) ||
		    !is(pt_params_get(&p, "format"), format) || pt_params_get_size(&p, "size", &sz))
			continue;
		if (*size) {
			if (sz == *size)
				return s;
			continue;
		}
		/* the preferred size, else the largest */
		if (best && (best_size == REPLICA_PREFERRED_SIZE ||
			     (sz != REPLICA_PREFERRED_SIZE && sz <= best_size)))
			continue;
		best = s;
		best_size = sz;
	}
	if (best)
		*size = best_size;
	return best;
}

static void replica_cost(const struct pt_rundir *run, enum pt_replica op,
			 struct pt_replica_cost *rc, uint64_t *size)
{
	const struct pt_series *a, *b;
	struct pt_summary sa, sb, sr;
	double *ratio;
	size_t i, j, n = 0;

	memset(rc, 0, sizeof(*rc));
	a = replica_series(run, op, "d64", size);
	b = a ? replica_series(run, op, "d128", size) : NULL;
	if (!a || !b || pt_summarize(a->values, a->n, &sa) || pt_summarize(b->values, b->n, &sb))
		return;
	ratio = calloc(a->n, sizeof(*ratio));
	if (!ratio)
		return;
	/* pair by repetition: the same round */
	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (a->reps[i] == b->reps[j] && a->values[i] > 0)
				ratio[n++] = b->values[j] / a->values[i];
	if (n && !pt_summarize(ratio, n, &sr) && sa.median > 0) {
		rc->have = true;
		rc->d64 = sa.median;
		rc->d128 = sb.median;
		rc->ratio = sr.median;
		rc->ratio_lo = sr.ci_valid ? sr.ci_lo : sr.min;
		rc->ratio_hi = sr.ci_valid ? sr.ci_hi : sr.max;
	}
	free(ratio);
}

void pt_opcost_replicas(const struct pt_rundir *run, struct pt_opcost *o)
{
	uint64_t size = 0;
	int op;

	/* every replica from the same size, the first found fixing it */
	for (op = 0; op < PT_REPL_N; op++) {
		replica_cost(run, op, &o->rep[op], &size);
		if (!o->rep[op].have && !o->replica_size[0])
			size = 0;
		else if (size && !o->replica_size[0])
			pt_size_name(size, o->replica_size, sizeof(o->replica_size));
	}
}
