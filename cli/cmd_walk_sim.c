// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model walk: one simulator per format fed a pattern or a trace,
 * the pattern timed with --bench, and the CSV of their metrics.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd_walk.h"
#include "cli/commands.h"
#include "harness/timer.h"
#include "model/trace.h"
#include "model/walk_cost.h"
#include "model/walk_run.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/stats.h"

struct sims {
	struct pt_walksim s[MAX_FORMATS];
	size_t n;
};

static void sims_free(struct sims *ss)
{
	while (ss->n)
		pt_walksim_free(&ss->s[--ss->n]);
}

static int sims_init(struct sims *ss, const struct walk_opts *o, uint64_t lo, uint64_t hi)
{
	char err[256];
	size_t i;

	ss->n = 0;
	for (i = 0; i < o->nfmt; i++) {
		if (pt_walksim_init(&ss->s[i], &o->fmt[i].g, &o->cfg, o->block_h, lo, hi, err,
				    sizeof(err))) {
			sims_free(ss);
			return pt_usage_error(CMD, "%s: %s", o->fmt[i].name, err);
		}
		ss->n++;
	}
	return 0;
}

struct trace_ctx {
	struct sims *ss;
	uint64_t seen, warmup, limit;
};

static int feed_access(const struct pt_access *a, void *p)
{
	struct trace_ctx *t = p;
	size_t i;

	if (a->kind == PT_ACC_INSTR)
		return 0;
	if (t->seen == t->warmup && t->warmup)
		for (i = 0; i < t->ss->n; i++)
			pt_walksim_reset_stats(&t->ss->s[i]);
	for (i = 0; i < t->ss->n; i++)
		pt_walksim_access(&t->ss->s[i], a->addr);
	t->seen++;
	return t->limit && t->seen >= t->warmup + t->limit;
}

static int run_trace(struct sims *ss, const struct walk_opts *o)
{
	struct trace_ctx t = { ss, 0, o->warmup, o->accesses_set ? o->accesses : 0 };
	const char *path = o->lackey ? o->lackey : o->trace;
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char err[512];
	int r;

	if (!f)
		return pt_usage_error(CMD, "%s: %s", path, strerror(errno));
	if (o->lackey)
		r = pt_lackey_read(f, path, feed_access, &t, err, sizeof(err));
	else
		r = pt_trace_read(f, path, feed_access, &t, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (r)
		return pt_usage_error(CMD, "%s", err);
	if (t.seen <= t.warmup)
		return pt_usage_error(CMD, "%s: %llu data accesses, none after --warmup %llu", path,
				      (unsigned long long)t.seen, (unsigned long long)t.warmup);
	return 0;
}

static void pattern_counts(const struct walk_opts *o, const struct pt_pattern *p, uint64_t *warm,
			   uint64_t *n)
{
	pt_walk_default_counts(p, warm, n);
	if (o->warmup_set)
		*warm = o->warmup;
	if (o->accesses_set)
		*n = o->accesses;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One timed run of n counted accesses: wall seconds, and CPU seconds in *cpu. */
static double bench_rep(struct sims *ss, struct pt_pattern *p, uint64_t n, double *cpu)
{
	uint64_t t0 = pt_now_ns();
	double c0 = cpu_seconds();

	pt_walk_run_pattern(ss->s, ss->n, p, 0, n);
	*cpu = cpu_seconds() - c0;
	return (double)(pt_now_ns() - t0) / 1e9;
}

/* Threads the runs took: 1 unless one started (walk_run.h's rules). */
static unsigned threads_used(const struct sims *ss)
{
	const struct pt_walksim *s = &ss->s[0];

	if (!s->threaded_runs)
		return 1;
	if (ss->n == 1)
		return 2;
	return s->threads < ss->n ? s->threads : (unsigned)ss->n;
}

/*
 * Time the counted accesses, bench_reps times after the warm-up: wall clock
 * (median, min, max of the runs), and CPU time (the VM may be shared).
 */
static int bench_pattern(struct sims *ss, const struct walk_opts *o, struct pt_pattern *p,
			 uint64_t warm, uint64_t n)
{
	double rate[BENCH_REPS_MAX], sec = 0, cpu = 0, acc = (double)n * (double)ss->n;
	struct pt_summary sum;
	unsigned r;

	pt_walk_run_pattern(ss->s, ss->n, p, warm, 0);
	for (r = 0; r < o->bench_reps; r++) {
		double c, w = bench_rep(ss, p, n, &c);

		rate[r] = w > 0 ? acc / w / 1e6 : 0.0;
		sec += w;
		cpu += c;
		if (o->bench_reps > 1)
			fprintf(stderr, "ptbench model walk: bench run %u/%u: %.2f M accesses/s\n",
				r + 1, o->bench_reps, rate[r]);
	}
	if (pt_summarize(rate, o->bench_reps, &sum)) {
		fprintf(stderr, "ptbench model walk: out of memory for the bench summary\n");
		return 1;
	}
	printf("bench: pattern=%s ws=%llu formats=%zu cache_model=%s accesses=%llu reps=%u "
	       "seconds=%.3f cpu_seconds=%.3f maccesses_per_s=%.2f maccesses_per_s_min=%.2f "
	       "maccesses_per_s_max=%.2f maccesses_per_cpu_s=%.2f threads=%u\n",
	       pt_pattern_name(p->kind), (unsigned long long)p->ws, ss->n,
	       o->cfg.cache_on ? "on" : "off", (unsigned long long)n, o->bench_reps, sec, cpu,
	       sum.median, sum.min, sum.max, cpu > 0 ? acc * o->bench_reps / cpu / 1e6 : 0.0,
	       threads_used(ss));
	return 0;
}

static int run_pattern(struct sims *ss, const struct walk_opts *o, struct pt_pattern *p)
{
	uint64_t warm, n;

	pattern_counts(o, p, &warm, &n);
	if (o->bench)
		return bench_pattern(ss, o, p, warm, n);
	pt_walk_run_pattern(ss->s, ss->n, p, warm, n);
	return 0;
}

/* ---- CSV ---- */

static void csv_header(FILE *f)
{
	unsigned m;

	fprintf(f, "format,granule,va_bits,levels,backing,input,ws_bytes,pwc_tag,cache_model");
	for (m = 0; m < PT_M_N; m++)
		fprintf(f, ",%s", pt_walk_metric_name(m));
	for (m = 0; m < PT_M_N; m++)
		fprintf(f, ",%s_vs_d64", pt_walk_metric_name(m));
	fputc('\n', f);
}

static const char *backing_name(unsigned block_h)
{
	return block_h == 2 ? "pud" : block_h == 1 ? "thp" : "4k";
}

static void csv_row(FILE *f, const struct walk_opts *o, size_t i, const double *m,
		    const double *base, const char *input, uint64_t ws)
{
	const struct pt_geometry *g = &o->fmt[i].g;
	char in[300];
	unsigned k;

	pt_csv_escape(input, in, sizeof(in));
	fprintf(f, "%s,%uK,%u,%u,%s,%s,%llu,%s,%s", o->fmt[i].name, 1u << (g->granule_shift - 10),
		g->va_bits, g->nlevels, backing_name(o->block_h), in, (unsigned long long)ws,
		o->cfg.pwc_tag == PT_PWC_PA ? "pa" : "va", o->cfg.cache_on ? "on" : "off");
	for (k = 0; k < PT_M_N; k++)
		pt_csv_put_num(f, m[k]);
	for (k = 0; k < PT_M_N; k++)
		pt_csv_put_num(f, base && base[k] != 0 ? m[k] / base[k] : NAN);
	fputc('\n', f);
}

static int write_csv(const struct walk_opts *o, const struct sims *ss, const char *input,
		     uint64_t ws)
{
	double m[MAX_FORMATS][PT_M_N];
	const double *base = NULL;
	char tmp[PATH_MAX];
	FILE *f = stdout;
	size_t i;

	for (i = 0; i < ss->n && i < MAX_FORMATS; i++) {
		pt_walk_metrics(&ss->s[i], m[i]);
		if (!base && o->fmt[i].g.format == PT_D64 && !o->fmt[i].g.ttbr_skl)
			base = m[i];
	}
	if (o->out && strcmp(o->out, "-")) {
		f = pt_atomic_open(o->out, tmp, sizeof(tmp));
		if (!f)
			return pt_usage_error(CMD, "-o %s: cannot create: %s", o->out,
					      strerror(errno));
	}
	csv_header(f);
	for (i = 0; i < ss->n; i++)
		csv_row(f, o, i, m[i], base, input, ws);
	if (f == stdout)
		return fflush(f) ? PT_EXIT_FAIL : 0;
	if (pt_atomic_commit(f, tmp, o->out)) {
		fprintf(stderr, "ptbench: %s: write failed\n", o->out);
		return PT_EXIT_FAIL;
	}
	return 0;
}

/*
 * Threads for a one-stage pattern run (walk_run.h). auto: two where this
 * process may run on two CPUs (not merely where two are online: under
 * taskset -c 1 two threads would take turns on one).
 */
static unsigned pattern_threads(const struct walk_opts *o)
{
	cpu_set_t set;

	if (o->threads)
		return o->threads;
	if (sched_getaffinity(0, sizeof(set), &set))
		return sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
	return CPU_COUNT(&set) >= 2 ? 2 : 1;
}

int walk_simulate(const struct walk_opts *o)
{
	struct pt_pattern p;
	struct sims ss;
	char err[256], input[300];
	int r;

	if ((o->lackey || o->trace) && o->cfg.s2.format >= 0)
		return pt_usage_error(CMD, "--stage2 with --lackey or --trace: not modelled yet");
	if (o->lackey || o->trace) {
		if (sims_init(&ss, o, 0, UINT64_MAX))
			return PT_EXIT_USAGE;
		r = run_trace(&ss, o);
		snprintf(input, sizeof(input), "%s:%s", o->lackey ? "lackey" : "trace",
			 o->lackey ? o->lackey : o->trace);
		if (!r)
			r = write_csv(o, &ss, input, 0);
		sims_free(&ss);
		return r;
	}
	if (pt_pattern_init(&p, o->pattern, o->ws, o->stride, o->seed, err, sizeof(err)))
		return pt_usage_error(CMD, "--pattern %s --ws %llu: %s",
				      pt_pattern_name(o->pattern), (unsigned long long)o->ws, err);
	if (o->cfg.s2.format >= 0) {
		uint64_t warm, n;

		pattern_counts(o, &p, &warm, &n);
		r = walk_nested_run(o, &p, warm, n);
		pt_pattern_free(&p);
		return r;
	}
	r = sims_init(&ss, o, p.base, p.base + o->ws);
	if (!r) {
		ss.s[0].threads = pattern_threads(o); /* the first simulator's counts for all */
		r = run_pattern(&ss, o, &p);
		snprintf(input, sizeof(input), "%s", pt_pattern_name(o->pattern));
		if (!r && (!o->bench || o->out))
			r = write_csv(o, &ss, input, o->ws);
		sims_free(&ss);
	}
	pt_pattern_free(&p);
	return r;
}
