// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cost model's decomposition judged on cases it was not fitted on
 * (docs/opcost.md, "Validation"):
 *  - faults: a fixed cost per fault plus a cost per byte mapped, plus the
 *    replica's cost of setting each entry, fitted on the 4K and the THP
 *    anonymous write fault, predicts the mTHP 64K fault of the same run;
 *  - fork: a fixed cost plus a cost per byte resident, fitted on every
 *    dense 4K fork but the largest, predicts the largest.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/opcost.h"
#include "util/params.h"
#include "util/stats.h"
#include "util/units.h"

#define MAX_FORK_POINTS 16

static bool is(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

static double median_of(const struct pt_series *s)
{
	struct pt_summary sm;

	return s && s->n && !pt_summarize(s->values, s->n, &sm) ? sm.median : -1;
}

/* The row the cost model made for a fault of fault_bytes, 4K pages or THP. */
static const struct pt_opcost_row *fault_row(const struct pt_opcost *o, uint64_t fault_bytes,
					     uint64_t region)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		const struct pt_opcost_row *r = &o->rows[i];

		if (r->oc.op == PT_OP_FAULT && is(r->s->workload, "fault") &&
		    r->oc.fault_bytes == fault_bytes && (!region || r->oc.region_bytes == region))
			return r;
	}
	return NULL;
}

static void heldout_fault(struct pt_opcost *o)
{
	const struct pt_opcost_row *a = fault_row(o, 4096, 0), *b, *m;
	struct pt_opcost_heldout *h = &o->fault;
	double set = o->rep[PT_REPL_SET].have ? o->rep[PT_REPL_SET].d64 : 0;
	double per_byte, fixed, ba, bb, bm;

	if (!a)
		return;
	b = fault_row(o, 2048 * 1024, a->oc.region_bytes);
	m = fault_row(o, 64 * 1024, a->oc.region_bytes);
	if (!b || !m)
		return;
	ba = (double)a->oc.fault_bytes;
	bb = (double)b->oc.fault_bytes;
	bm = (double)m->oc.fault_bytes;
	/* t = fixed + per_byte * bytes + entries * set; one entry at 4K and at a PMD */
	per_byte = ((b->t64 - set * b->d64.entries) - (a->t64 - set * a->d64.entries)) / (bb - ba);
	fixed = a->t64 - set * a->d64.entries - per_byte * ba;
	h->have = true;
	h->predicted = fixed + per_byte * bm + set * m->d64.entries;
	h->measured = m->t64;
	h->err = h->predicted / h->measured - 1;
	snprintf(h->target, sizeof(h->target), "%s", m->s->cs);
	snprintf(h->what, sizeof(h->what),
		 "fixed %.0f ns + %.3f ns/KiB per fault, fitted on %s and %s%s", fixed,
		 per_byte * 1024, a->s->cs, b->s->cs,
		 set > 0 ? ", entries set at the replica's cost" : "");
}

static void heldout_fork(const struct pt_rundir *run, struct pt_opcost *o)
{
	double x[MAX_FORK_POINTS], y[MAX_FORK_POINTS], sx = 0, sy = 0, sxx = 0, sxy = 0, slope,
						       icpt;
	const char *name[MAX_FORK_POINTS];
	struct pt_opcost_heldout *h = &o->fork;
	size_t i, n = 0, big = 0, k;

	for (i = 0; i < run->nseries && n < MAX_FORK_POINTS; i++) {
		const struct pt_series *s = &run->series[i];
		struct pt_params p;
		uint64_t size;

		if (!is(s->workload, "fork") || !is(s->metric, "ns_per_fork") ||
		    pt_params_parse(s->params, &p) || !is(pt_params_get(&p, "backing"), "4k") ||
		    !is(pt_params_get(&p, "layout"), "dense") ||
		    pt_params_get_size(&p, "size", &size) || median_of(s) <= 0)
			continue;
		x[n] = (double)size;
		y[n] = median_of(s);
		name[n] = s->cs;
		if (x[n] > x[big])
			big = n;
		n++;
	}
	if (n < 3)
		return;
	for (i = 0, k = 0; i < n; i++) {
		if (i == big)
			continue;
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
		k++;
	}
	if (sxx * (double)k - sx * sx <= 0)
		return;
	slope = ((double)k * sxy - sx * sy) / ((double)k * sxx - sx * sx);
	icpt = (sy - slope * sx) / (double)k;
	h->have = true;
	h->predicted = icpt + slope * x[big];
	h->measured = y[big];
	h->err = h->predicted / h->measured - 1;
	snprintf(h->target, sizeof(h->target), "%s", name[big]);
	snprintf(h->what, sizeof(h->what),
		 "fixed %.0f ns + %.1f ns/MiB resident, fitted on the %zu smaller dense 4K forks",
		 icpt, slope * 1048576, k);
}

void pt_opcost_heldout(const struct pt_rundir *run, struct pt_opcost *o)
{
	heldout_fault(o);
	heldout_fork(run, o);
}
