// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model walk with --stage2: one nested simulator per guest format,
 * all with the same host, fed the same pattern. The CSV has the one-stage
 * columns (steps counting guest and host descriptor fetches together), then
 * the stage-2 columns; docs/walk.md.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_walk.h"
#include "cli/commands.h"
#include "harness/timer.h"
#include "model/walk_cost.h"
#include "model/walk_nested.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/stats.h"

#define MAX_BENCH_REPS 64

static void header(FILE *f)
{
	unsigned m;

	fprintf(f, "format,granule,va_bits,levels,backing,input,ws_bytes,pwc_tag,cache_model");
	for (m = 0; m < PT_M_N; m++)
		fprintf(f, ",%s", pt_walk_metric_name(m));
	for (m = 0; m < PT_M_N; m++)
		fprintf(f, ",%s_vs_d64", pt_walk_metric_name(m));
	fprintf(f, ",stage2,host_granule,ipa_bits,host_backing,guest_ram,guest_layout");
	for (m = 0; m < PT_NM_N; m++)
		fprintf(f, ",%s", pt_nest_metric_name(m));
	fputc('\n', f);
}

static void row(FILE *f, const struct walk_opts *o, const struct pt_pattern *p, size_t i,
		const struct pt_nestsim *s, const double *m, const double *base)
{
	const struct pt_geometry *g = &o->fmt[i].g;
	const struct pt_stage2_cfg *c = &o->cfg.s2;
	double nm[PT_NM_N];
	unsigned k;

	/* the nested walk caches are VA-tagged (guest) and IPA-tagged (host): pwc_tag va */
	fprintf(f, "%s,%uK,%u,%u,%s,%s,%llu,va,%s", o->fmt[i].name, 1u << (g->granule_shift - 10),
		g->va_bits, g->nlevels,
		o->block_h == 2	  ? "pud"
		: o->block_h == 1 ? "thp"
				  : "4k",
		pt_pattern_name(p->kind), (unsigned long long)p->ws,
		o->cfg.cache_on ? "on" : "off");
	for (k = 0; k < PT_M_N; k++)
		pt_csv_put_num(f, m[k]);
	for (k = 0; k < PT_M_N; k++)
		pt_csv_put_num(f, base && base[k] != 0 ? m[k] / base[k] : NAN);
	fprintf(f, ",%s,%uK,%u,%s,%llu,%s", c->format ? "d128" : "d64",
		1u << (c->granule_shift - 10), c->ipa_bits, c->block_h ? "thp" : "4k",
		(unsigned long long)c->guest_ram, c->layout ? "linear" : "scatter");
	pt_nest_metrics(s, nm);
	for (k = 0; k < PT_NM_N; k++)
		pt_csv_put_num(f, nm[k]);
	fputc('\n', f);
}

static int write_csv(const struct walk_opts *o, const struct pt_pattern *p,
		     const struct pt_nestsim *s)
{
	double m[MAX_FORMATS][PT_M_N];
	const double *base = NULL;
	char tmp[PATH_MAX];
	FILE *f = stdout;
	size_t i;

	for (i = 0; i < o->nfmt; i++) {
		pt_walk_metrics_of(&s[i].st, &o->cfg, (double)(s[i].gpt.bytes + s[i].hpt.bytes),
				   m[i]);
		if (!base && o->fmt[i].g.format == PT_D64 && !o->fmt[i].g.ttbr_skl)
			base = m[i];
	}
	if (o->out && strcmp(o->out, "-")) {
		f = pt_atomic_open(o->out, tmp, sizeof(tmp));
		if (!f)
			return pt_usage_error(CMD, "-o %s: cannot create: %s", o->out,
					      strerror(errno));
	}
	header(f);
	for (i = 0; i < o->nfmt; i++)
		row(f, o, p, i, &s[i], m[i], base);
	if (f == stdout)
		return fflush(f) ? PT_EXIT_FAIL : 0;
	if (pt_atomic_commit(f, tmp, o->out)) {
		fprintf(stderr, "ptbench: %s: write failed\n", o->out);
		return PT_EXIT_FAIL;
	}
	return 0;
}

static void feed(struct pt_nestsim *s, size_t n, struct pt_pattern *p, uint64_t count)
{
	uint64_t i;
	size_t k;

	for (i = 0; i < count; i++) {
		uint64_t va = pt_pattern_next(p);

		for (k = 0; k < n; k++)
			pt_nestsim_access(&s[k], va);
	}
}

static void reset(struct pt_nestsim *s, size_t n)
{
	while (n--)
		pt_nestsim_reset_stats(&s[n]);
}

/* The bench line of the one-stage simulator, for the nested one (median of the runs). */
static void bench(const struct walk_opts *o, struct pt_pattern *p, struct pt_nestsim *s,
		  uint64_t warm, uint64_t n)
{
	unsigned r, reps = o->bench_reps < MAX_BENCH_REPS ? o->bench_reps : MAX_BENCH_REPS;
	double best = 0, sum = 0, rate[MAX_BENCH_REPS];

	feed(s, o->nfmt, p, warm);
	for (r = 0; r < reps; r++) {
		uint64_t t0 = pt_now_ns();
		double w;

		reset(s, o->nfmt);
		feed(s, o->nfmt, p, n);
		w = (double)(pt_now_ns() - t0) / 1e9;
		rate[r] = w > 0 ? (double)n * (double)o->nfmt / w / 1e6 : 0;
		sum += w;
		best = rate[r] > best ? rate[r] : best;
	}
	pt_sort_doubles(rate, reps);
	printf("bench: pattern=%s ws=%llu formats=%zu stage2=%s cache_model=%s accesses=%llu "
	       "reps=%u seconds=%.3f maccesses_per_s=%.2f maccesses_per_s_max=%.2f\n",
	       pt_pattern_name(p->kind), (unsigned long long)p->ws, o->nfmt,
	       o->cfg.s2.format ? "d128" : "d64", o->cfg.cache_on ? "on" : "off",
	       (unsigned long long)n, reps, sum, rate[reps / 2], best);
}

int walk_nested_run(const struct walk_opts *o, struct pt_pattern *p, uint64_t warm, uint64_t n)
{
	struct pt_nestsim *s = calloc(o->nfmt, sizeof(*s));
	char err[256];
	size_t i;
	int r = 0;

	if (!s)
		return PT_EXIT_FAIL;
	for (i = 0; i < o->nfmt; i++)
		if (pt_nestsim_init(&s[i], &o->fmt[i].g, &o->cfg, o->block_h, p->base,
				    p->base + p->ws, err, sizeof(err))) {
			r = pt_usage_error(CMD, "--stage2, format %s: %s", o->fmt[i].name, err);
			break;
		}
	if (!r) {
		if (o->bench) {
			bench(o, p, s, warm, n);
		} else {
			feed(s, o->nfmt, p, warm);
			reset(s, o->nfmt);
			feed(s, o->nfmt, p, n);
		}
		if (!o->bench || o->out)
			r = write_csv(o, p, s);
	}
	while (i--)
		pt_nestsim_free(&s[i]);
	free(s);
	return r;
}
