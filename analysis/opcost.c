// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which of a run's cases are page-table operations the cost model covers,
 * and their predictions (analysis/opcost.h). A case is recognised by its
 * workload, primary metric and params, never by its name.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/opcost.h"
#include "util/errf.h"
#include "util/params.h"
#include "util/stats.h"
#include "util/units.h"

#define KIB 1024ull
#define THP_BYTES (2048 * KIB)

struct op_kind {
	const char *workload, *metric;
	enum pt_op op;
	enum pt_comp main;
};

static const struct op_kind kinds[] = {
	{ "fork", "ns_per_fork", PT_OP_FORK, PT_COMP_COPY },
	{ "mprotect", "ns_per_call", PT_OP_MPROTECT, PT_COMP_CHPROT },
	{ "munmap", "ns_per_page", PT_OP_MUNMAP, PT_COMP_ZAP },
	{ "fault", "ns_per_fault", PT_OP_FAULT, PT_COMP_SET },
	{ "thp", "ns_per_huge_fault", PT_OP_FAULT, PT_COMP_SET },
	{ "thp", "ns_per_mthp_fault", PT_OP_FAULT, PT_COMP_SET },
};

static bool is(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

/* The bytes one fault maps: a base page, the mTHP size, a PMD block. */
static uint64_t fault_bytes(const struct pt_params *p, bool *thp)
{
	const char *b = pt_params_get(p, "backing");
	uint64_t m;

	*thp = is(b, "thp");
	if (*thp)
		return THP_BYTES;
	if (is(b, "4k"))
		return 4 * KIB;
	if (is(b, "mthp") && !pt_params_get_size(p, "mthp_size", &m))
		return m;
	/* "mthp64K": the fault workload names the size in the backing */
	if (b && !strncmp(b, "mthp", 4) && !pt_size_parse(b + 4, &m))
		return m;
	return 0;
}

/* 1 and the operation case when s is one the model covers; 0 otherwise. */
static int classify(const struct pt_series *s, struct pt_op_case *oc, enum pt_comp *main)
{
	struct pt_params p;
	const char *v;
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (is(s->workload, kinds[i].workload) && is(s->metric, kinds[i].metric))
			break;
	if (i == sizeof(kinds) / sizeof(kinds[0]) || pt_params_parse(s->params, &p))
		return 0;
	memset(oc, 0, sizeof(*oc));
	oc->op = kinds[i].op;
	*main = kinds[i].main;
	if (pt_params_get_size(&p, "size", &oc->region_bytes) || !oc->region_bytes)
		return 0;
	oc->fault_bytes = fault_bytes(&p, &oc->thp);
	if (!oc->fault_bytes)
		return 0;
	switch (oc->op) {
	case PT_OP_FORK:
		return is(pt_params_get(&p, "layout"), "dense");
	case PT_OP_MPROTECT:
		return is(pt_params_get(&p, "variant"), "toggle");
	case PT_OP_MUNMAP:
		v = pt_params_get(&p, "variant");
		oc->frees_tables = is(v, "munmap");
		return oc->frees_tables || is(v, "dontneed");
	default:
		/* one task writing anonymous memory: the thp workload's faults too */
		v = pt_params_get(&p, "kind");
		return (!v || is(v, "anon-write")) && !is(pt_params_get(&p, "task"), "thread") &&
		       (!pt_params_get(&p, "tasks") || is(pt_params_get(&p, "tasks"), "1"));
	}
}

static const struct pt_series *find(const struct pt_rundir *run, const struct pt_series *like,
				    const char *metric)
{
	size_t i;

	for (i = 0; i < run->nseries; i++) {
		const struct pt_series *s = &run->series[i];

		if (is(s->workload, like->workload) && is(s->cs, like->cs) &&
		    is(s->params, like->params) && is(s->metric, metric))
			return s;
	}
	return NULL;
}

static double median_of(const struct pt_series *s)
{
	struct pt_summary sm;

	if (!s || !s->n || pt_summarize(s->values, s->n, &sm))
		return -1;
	return sm.median;
}

/* The profile's shares of the case; false (and the main one at 100%) without. */
static bool shares(const struct pt_rundir *run, struct pt_opcost_row *r, double share[PT_COMP_N])
{
	char name[64];
	double sum = 0;
	int c;

	r->samples = median_of(find(run, r->s, "profile_samples"));
	r->coverage = median_of(find(run, r->s, "profile_coverage"));
	for (c = 0; c < PT_COMP_N; c++) {
		snprintf(name, sizeof(name), "profile_%s_share", pt_comp_name(c));
		share[c] = median_of(find(run, r->s, name));
		if (share[c] < 0)
			share[c] = 0;
		sum += share[c];
	}
	if (r->samples > 0 && sum > 0) {
		for (c = 0; c < PT_COMP_N; c++)
			share[c] /= sum;
		return true;
	}
	memset(share, 0, sizeof(double) * PT_COMP_N);
	share[r->main] = 1;
	r->samples = 0;
	return false;
}

static int predict_row(const struct pt_rundir *run, struct pt_opcost *o, struct pt_opcost_row *r)
{
	double share[PT_COMP_N];
	char err[160];

	if (pt_op_counts_make(&r->oc, &r->d64, &r->d128, err, sizeof(err)))
		return -1;
	r->t64 = median_of(r->s);
	if (!(r->t64 > 0))
		return -1;
	r->profiled = shares(run, r, share);
	o->any_profile |= r->profiled;
	pt_op_predict(share, r->samples, r->t64, &r->d64, &r->d128, o->rep, &r->pred);
	/* a bound on the profiled component: none without a profile */
	r->bound_share = r->profiled ? r->pred.f[r->main].bound_share : -1;
	return 0;
}

int pt_opcost_compute(const struct pt_rundir *run, struct pt_opcost *o, char *err, size_t errlen)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	pt_opcost_replicas(run, o);
	o->rows = calloc(run->nseries ? run->nseries : 1, sizeof(*o->rows));
	if (!o->rows)
		return pt_errf(err, errlen, "out of memory");
	for (i = 0; i < run->nseries; i++) {
		struct pt_opcost_row *r = &o->rows[o->n];

		r->s = &run->series[i];
		if (classify(r->s, &r->oc, &r->main) && !predict_row(run, o, r))
			o->n++;
	}
	if (!o->n) {
		pt_opcost_free(o);
		return pt_errf(err, errlen,
			       "%s holds no fork, mprotect, munmap or fault case the model covers "
			       "(docs/opcost.md)",
			       run->path);
	}
	pt_opcost_heldout(run, o);
	return 0;
}

void pt_opcost_free(struct pt_opcost *o)
{
	free(o->rows);
	o->rows = NULL;
	o->n = 0;
}
