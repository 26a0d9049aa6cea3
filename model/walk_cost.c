// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <string.h>

#include "model/walk_cost.h"

static double per(uint64_t n, uint64_t d)
{
	return d ? (double)n / (double)d : NAN;
}

void pt_walk_features(const struct pt_walk_stats *s, bool with_data, double f[PT_LAT_N])
{
	uint64_t loc[PT_LOC_N] = { 0 };
	unsigned h, l;

	for (l = 0; l < PT_LOC_N; l++) {
		for (h = 0; h < PT_MAX_LEVELS; h++)
			loc[l] += s->step_loc[h][l];
		if (with_data)
			loc[l] += s->data_loc[l];
	}
	for (l = 0; l < PT_LOC_N; l++)
		f[PT_LAT_L1 + l] = per(loc[l], s->accesses);
	f[PT_LAT_L1TLB] = per(s->l1tlb_hits, s->accesses);
	f[PT_LAT_L2TLB] = per(s->accesses - s->l1tlb_hits, s->accesses);
	f[PT_LAT_PWC] = per(s->pwc_probes, s->accesses);
	f[PT_LAT_WALK] = per(s->walks, s->accesses);
	f[PT_LAT_WALK2] = per(s->walks2, s->accesses);
	if (!s->accesses)
		for (l = 0; l < PT_LAT_N; l++)
			f[l] = 0;
}

double pt_walk_cost(const double f[PT_LAT_N], const double lat[PT_LAT_N])
{
	double c = 0;
	unsigned i;

	for (i = 0; i < PT_LAT_N; i++)
		c += f[i] * lat[i];
	return c;
}

const char *pt_walk_metric_name(enum pt_walk_metric m)
{
	static const char *const n[PT_M_N] = {
		"accesses",
		"l1tlb_hit_rate",
		"l2tlb_hit_rate",
		"walks_per_kilo_access",
		"steps_per_walk",
		"mem_refs_per_walk",
		"pwc_hit_rate_h1",
		"pwc_hit_rate_h2",
		"pwc_hit_rate_h3",
		"pwc_hit_rate_h4",
		"pwc_hit_rate_h5",
		"step_frac_pwc",
		"step_frac_l1",
		"step_frac_l2",
		"step_frac_llc",
		"step_frac_mem",
		"walk_cycles_mean",
		"walk_cycles_p99",
		"walk_cycles_mean_all_l1",
		"translation_cycles_per_access",
		"data_cycles_per_access",
		"translation_ns_per_access",
		"pagetable_bytes",
	};

	return m < PT_M_N ? n[m] : "?";
}

double pt_walk_cycles_quantile(const struct pt_walk_stats *s, double q)
{
	uint64_t need, seen = 0;
	size_t i;

	if (!s->walks)
		return NAN;
	need = (uint64_t)ceil(q * (double)s->walks);
	if (need < 1)
		need = 1;
	for (i = 0; i < PT_WALK_HIST; i++) {
		seen += s->walk_hist[i];
		if (seen >= need)
			return (double)i;
	}
	return PT_WALK_HIST - 1;
}

static void step_metrics(const struct pt_walk_stats *s, double out[PT_M_N])
{
	uint64_t where[PT_STEP_N] = { 0 }, steps = 0;
	unsigned h, l;

	for (h = 0; h < PT_MAX_LEVELS; h++)
		for (l = 0; l < PT_STEP_N; l++)
			where[l] += s->step_loc[h][l];
	for (l = 0; l < PT_STEP_N; l++)
		steps += where[l];
	out[PT_M_STEPS_PER_WALK] = per(steps, s->walks);
	out[PT_M_MEM_REFS_PER_WALK] = per(steps - where[PT_STEP_PWC], s->walks);
	out[PT_M_STEP_PWC] = per(where[PT_STEP_PWC], steps);
	for (l = 0; l < PT_LOC_N; l++)
		out[PT_M_STEP_L1 + l] = per(where[l], steps);
}

static double walk_cycles_all_l1(const struct pt_walk_stats *st, const struct pt_walk_cfg *c)
{
	double f[PT_LAT_N], lat[PT_LAT_N];
	unsigned l;

	if (!st->walks)
		return NAN;
	pt_walk_features(st, false, f);
	memcpy(lat, c->lat, sizeof(lat));
	for (l = 0; l < PT_LOC_N; l++)
		lat[PT_LAT_L1 + l] = c->lat[PT_LAT_L1];
	lat[PT_LAT_L1TLB] = lat[PT_LAT_L2TLB] = 0;
	return pt_walk_cost(f, lat) * (double)st->accesses / (double)st->walks;
}

void pt_walk_metrics(const struct pt_walksim *s, double out[PT_M_N])
{
	pt_walk_metrics_of(&s->st, &s->cfg, (double)s->pt.bytes, out);
}

void pt_walk_metrics_of(const struct pt_walk_stats *st, const struct pt_walk_cfg *cfg,
			double pt_bytes, double out[PT_M_N])
{
	double f[PT_LAT_N], fd[PT_LAT_N];
	unsigned h;

	out[PT_M_ACCESSES] = (double)st->accesses;
	out[PT_M_L1TLB_HIT_RATE] = per(st->l1tlb_hits, st->accesses);
	out[PT_M_L2TLB_HIT_RATE] = per(st->l2tlb_hits, st->accesses - st->l1tlb_hits);
	out[PT_M_WALKS_PER_KILO] = st->accesses ? 1000.0 * per(st->walks, st->accesses) : NAN;
	for (h = 1; h <= 5; h++)
		out[PT_M_PWC_HIT_H1 + h - 1] =
			h < PT_MAX_LEVELS ? per(st->pwc_hits[h], st->pwc_lookups[h]) : NAN;
	step_metrics(st, out);
	out[PT_M_WALK_CYC_MEAN] = st->walks ? st->walk_cycles / (double)st->walks : NAN;
	out[PT_M_WALK_CYC_P99] = pt_walk_cycles_quantile(st, 0.99);
	out[PT_M_WALK_CYC_ALL_L1] = walk_cycles_all_l1(st, cfg);
	pt_walk_features(st, false, f);
	pt_walk_features(st, true, fd);
	out[PT_M_XLAT_CYC_PER_ACCESS] = pt_walk_cost(f, cfg->lat);
	out[PT_M_DATA_CYC_PER_ACCESS] = pt_walk_cost(fd, cfg->lat) - pt_walk_cost(f, cfg->lat);
	out[PT_M_XLAT_NS_PER_ACCESS] = out[PT_M_XLAT_CYC_PER_ACCESS] / cfg->ghz;
	out[PT_M_PAGETABLE_BYTES] = pt_bytes;
}
