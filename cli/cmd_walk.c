// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model walk: the trace-driven TLB and page-walk simulator
 * (model/walk_*.h) on synthetic patterns, lackey traces or binary traces;
 * "convert" turns lackey output into the binary format; "calibrate" fits
 * the latencies to a run's tlb sweep and predicts D128 (docs/walk.md).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/commands.h"
#include "analysis/rundir.h"
#include "harness/sink.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/sysfs.h"
#include "util/stats.h"
#include "harness/timer.h"
#include "model/calib.h"
#include "model/trace.h"
#include "util/units.h"
#include "model/walk_cost.h"
#include "model/walk_run.h"

#define CMD "model walk"
#define MAX_FORMATS 8
#define MAX_POINTS 512

struct walk_format {
	char name[32];
	struct pt_geometry g;
};

struct walk_opts {
	struct pt_walk_cfg cfg;
	enum pt_pattern_kind pattern;
	bool have_pattern;
	uint64_t ws, stride, accesses, warmup, seed;
	bool accesses_set, warmup_set;
	const char *lackey, *trace, *out;
	struct walk_format fmt[MAX_FORMATS];
	size_t nfmt;
	unsigned block_h; /* 0, 1 (--thp), 2 (--pud) */
	bool bench;
	unsigned bench_reps; /* timed runs of the counted accesses */
};

#define BENCH_REPS_DEFAULT 5
#define BENCH_REPS_MAX 1000

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: ptbench model walk [options]\n"
		"       ptbench model walk convert --lackey IN|- -o OUT\n"
		"       ptbench model walk calibrate --results DIR [-o FILE] [--config F] [--set K=V]\n"
		"\n"
		"Simulates TLBs, page-walk caches and data caches for D64 and D128 page tables.\n"
		"\n"
		"input (one of):\n"
		"  --pattern chase|dense|seq|stride|random  synthetic accesses (default chase)\n"
		"  --ws SIZE          working set of the pattern (default 64M)\n"
		"  --stride N         bytes between accesses (seq 8, stride 4096)\n"
		"  --accesses N       counted accesses (default: 2 passes, at least 1M)\n"
		"  --warmup N         accesses before counting (pattern: one pass; trace: 0)\n"
		"  --seed N           seed of the chase cycle and random pattern (default 1)\n"
		"  --lackey FILE|-    valgrind --tool=lackey --trace-mem=yes output\n"
		"  --trace FILE       binary trace (from 'convert')\n"
		"\n"
		"model:\n"
		"  --formats LIST     d64,d128,d128-sklN (TTBR.SKL=N),d128-tsklN (table SKL=N);\n"
		"                     default d64,d128\n"
		"  --granule 4K|16K|64K   (default 4K)   --va BITS (default 48)\n"
		"  --thp              PMD blocks over the working set (2M D64, 1M 4K D128)\n"
		"  --pud              PUD blocks instead\n"
		"  --config FILE      'key = value' lines   --set KEY=VALUE (repeatable)\n"
		"\n"
		"output:\n"
		"  -o FILE            CSV (default stdout), one row per format\n"
		"  --bench            time the simulation; print accesses per second\n"
		"  --bench-reps N     timed runs of the counted accesses, after one warm-up\n"
		"                     (default 5); the median, min and max are printed\n"
		"\nconfiguration keys and defaults:\n");
	for (i = 0; pt_walk_cfg_key(i); i++) {
		char v[64];
		struct pt_walk_cfg c;

		pt_walk_cfg_default(&c);
		pt_walk_cfg_value(&c, i, v, sizeof(v));
		fprintf(f, "  %-20s %s\n", pt_walk_cfg_key(i), v);
	}
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static char *read_text(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb)
				break;
			buf = nb;
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);

		n += r;
		if (!r)
			break;
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

static int load_config(struct pt_walk_cfg *c, const char *path)
{
	char err[2048], *text = read_text(path, err, sizeof(err));
	int r;

	if (!text)
		return pt_usage_error(CMD, "--config %s", err);
	r = pt_walk_cfg_parse_text(c, text, path, err, sizeof(err));
	free(text);
	return r ? pt_usage_error(CMD, "%s", err) : 0;
}

static int set_key(struct pt_walk_cfg *c, const char *kv)
{
	char key[128], err[2048];
	const char *eq = strchr(kv, '=');

	if (!eq || (size_t)(eq - kv) >= sizeof(key))
		return pt_usage_error(CMD, "--set %s: expected KEY=VALUE", kv);
	memcpy(key, kv, eq - kv);
	key[eq - kv] = 0;
	if (pt_walk_cfg_set(c, key, eq + 1, err, sizeof(err)))
		return pt_usage_error(CMD, "--set: %s", err);
	return 0;
}

/* "d64", "d128", "d128-skl1", "d128-tskl2" into geometry with the cfg's granule and VA. */
static int make_format(struct walk_format *wf, const char *name, const struct pt_walk_cfg *c)
{
	unsigned ttbr = 0, table = 0;
	enum pt_format f;
	char err[256];

	if (!strcasecmp(name, "d64"))
		f = PT_D64;
	else if (!strcasecmp(name, "d128"))
		f = PT_D128;
	else if (sscanf(name, "d128-skl%u", &ttbr) == 1 || sscanf(name, "D128-SKL%u", &ttbr) == 1)
		f = PT_D128;
	else if (sscanf(name, "d128-tskl%u", &table) == 1 ||
		 sscanf(name, "D128-TSKL%u", &table) == 1)
		f = PT_D128;
	else
		return pt_usage_error(
			CMD, "--formats: unknown format '%s' (d64, d128, d128-sklN, d128-tsklN)",
			name);
	if (pt_geometry_make(&wf->g, f, c->granule_shift, c->va_bits, err, sizeof(err)) ||
	    pt_geometry_apply_skl(&wf->g, ttbr, table, err, sizeof(err)))
		return pt_usage_error(CMD, "--formats %s: %s", name, err);
	snprintf(wf->name, sizeof(wf->name), "%s", name);
	for (char *p = wf->name; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return 0;
}

static int make_formats(struct walk_opts *o, const char *list)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", list);
	o->nfmt = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nfmt == MAX_FORMATS)
			return pt_usage_error(CMD, "--formats: at most %d formats", MAX_FORMATS);
		if (make_format(&o->fmt[o->nfmt++], tok, &o->cfg))
			return PT_EXIT_USAGE;
	}
	return o->nfmt ? 0 : pt_usage_error(CMD, "--formats: empty list");
}

enum {
	OPT_PATTERN = 256,
	OPT_WS,
	OPT_STRIDE,
	OPT_ACCESSES,
	OPT_WARMUP,
	OPT_SEED,
	OPT_LACKEY,
	OPT_TRACE,
	OPT_FORMATS,
	OPT_GRANULE,
	OPT_VA,
	OPT_THP,
	OPT_PUD,
	OPT_CONFIG,
	OPT_SET,
	OPT_BENCH,
	OPT_BENCH_REPS,
	OPT_RESULTS,
	OPT_HOST_CACHES,
	OPT_NO_HOST_CACHES,
};

static const struct option long_opts[] = {
	{ "pattern", required_argument, NULL, OPT_PATTERN },
	{ "ws", required_argument, NULL, OPT_WS },
	{ "stride", required_argument, NULL, OPT_STRIDE },
	{ "accesses", required_argument, NULL, OPT_ACCESSES },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "lackey", required_argument, NULL, OPT_LACKEY },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "formats", required_argument, NULL, OPT_FORMATS },
	{ "granule", required_argument, NULL, OPT_GRANULE },
	{ "va", required_argument, NULL, OPT_VA },
	{ "thp", no_argument, NULL, OPT_THP },
	{ "pud", no_argument, NULL, OPT_PUD },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "set", required_argument, NULL, OPT_SET },
	{ "bench", no_argument, NULL, OPT_BENCH },
	{ "bench-reps", required_argument, NULL, OPT_BENCH_REPS },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "host-caches", no_argument, NULL, OPT_HOST_CACHES },
	{ "no-host-caches", no_argument, NULL, OPT_NO_HOST_CACHES },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int number_opt(int c, const char *arg, struct walk_opts *o)
{
	uint64_t v;
	int bad;

	if (c == OPT_WS || c == OPT_STRIDE)
		bad = pt_size_parse(arg, &v) || !v;
	else
		bad = parse_u64(arg, &v);
	if (bad)
		return pt_usage_error(CMD, "bad number '%s' for --%s", arg,
				      long_opts[c - OPT_PATTERN].name);
	if (c == OPT_WS)
		o->ws = v;
	else if (c == OPT_STRIDE)
		o->stride = v;
	else if (c == OPT_ACCESSES)
		o->accesses = v, o->accesses_set = true;
	else if (c == OPT_WARMUP)
		o->warmup = v, o->warmup_set = true;
	else
		o->seed = v;
	return 0;
}

/* Options that shape the configuration; applied before the formats are built. */
static int config_opt(int c, const char *arg, struct walk_opts *o)
{
	switch (c) {
	case OPT_CONFIG:
		return load_config(&o->cfg, arg);
	case OPT_SET:
		return set_key(&o->cfg, arg);
	case OPT_GRANULE:
		if (pt_granule_parse(arg, &o->cfg.granule_shift))
			return pt_usage_error(CMD, "--granule %s: use 4K, 16K or 64K", arg);
		return 0;
	default: {
		uint64_t v;

		if (parse_u64(arg, &v) || v > 64)
			return pt_usage_error(CMD, "--va %s: expected a number of bits", arg);
		o->cfg.va_bits = (unsigned)v;
		return 0;
	}
	}
}

static int other_opt(int c, const char *arg, struct walk_opts *o, const char **formats)
{
	switch (c) {
	case OPT_PATTERN:
		if (pt_pattern_parse(arg, &o->pattern))
			return pt_usage_error(
				CMD, "--pattern %s: use chase, dense, seq, stride or random", arg);
		o->have_pattern = true;
		return 0;
	case OPT_LACKEY:
		o->lackey = arg;
		return 0;
	case OPT_TRACE:
		o->trace = arg;
		return 0;
	case OPT_FORMATS:
		*formats = arg;
		return 0;
	case OPT_THP:
		o->block_h = 1;
		return 0;
	case OPT_PUD:
		o->block_h = 2;
		return 0;
	case OPT_BENCH:
		o->bench = true;
		return 0;
	case OPT_BENCH_REPS: {
		uint64_t v;

		if (parse_u64(arg, &v) || !v || v > BENCH_REPS_MAX)
			return pt_usage_error(CMD, "--bench-reps %s: expected 1 to %d", arg,
					      BENCH_REPS_MAX);
		o->bench_reps = (unsigned)v;
		return 0;
	}
	case 'o':
		o->out = arg;
		return 0;
	default:
		return pt_usage_error(CMD, "unknown option; see 'ptbench model walk --help'");
	}
}

static int check_inputs(const struct walk_opts *o)
{
	int n = o->have_pattern + !!o->lackey + !!o->trace;

	if (n > 1)
		return pt_usage_error(CMD, "give one of --pattern, --lackey, --trace");
	if (o->bench && (o->lackey || o->trace))
		return pt_usage_error(CMD, "--bench times a --pattern");
	return 0;
}

static int parse_run_opts(int argc, char **argv, struct walk_opts *o)
{
	const char *formats = "d64,d128";
	int c, r;

	memset(o, 0, sizeof(*o));
	pt_walk_cfg_default(&o->cfg);
	o->pattern = PT_PAT_CHASE;
	o->ws = 64ull << 20;
	o->seed = 1;
	o->bench_reps = BENCH_REPS_DEFAULT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", long_opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return -1;
		}
		if (c >= OPT_WS && c <= OPT_SEED)
			r = number_opt(c, optarg, o);
		else if (c == OPT_CONFIG || c == OPT_SET || c == OPT_GRANULE || c == OPT_VA)
			r = config_opt(c, optarg, o);
		else if (c == '?' || c == OPT_RESULTS)
			r = pt_usage_error(CMD, "unknown option '%s'; see --help",
					   argv[optind - 1]);
		else
			r = other_opt(c, optarg, o, &formats);
		if (r)
			return r;
	}
	if (optind < argc)
		return pt_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
	if (check_inputs(o))
		return PT_EXIT_USAGE;
	return make_formats(o, formats);
}

/* ---- simulation ---- */

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
	       "maccesses_per_s_max=%.2f maccesses_per_cpu_s=%.2f\n",
	       pt_pattern_name(p->kind), (unsigned long long)p->ws, ss->n,
	       o->cfg.cache_on ? "on" : "off", (unsigned long long)n, o->bench_reps, sec, cpu,
	       sum.median, sum.min, sum.max, cpu > 0 ? acc * o->bench_reps / cpu / 1e6 : 0.0);
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

static void put_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputc(',', f);
	else
		fprintf(f, ",%.9g", v);
}

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
		put_num(f, m[k]);
	for (k = 0; k < PT_M_N; k++)
		put_num(f, base && base[k] != 0 ? m[k] / base[k] : NAN);
	fputc('\n', f);
}

static int write_csv(const struct walk_opts *o, const struct sims *ss, const char *input,
		     uint64_t ws)
{
	double m[MAX_FORMATS][PT_M_N];
	const double *base = NULL;
	char tmp[4200];
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

static int walk_run(int argc, char **argv)
{
	struct walk_opts o;
	struct pt_pattern p;
	struct sims ss;
	char err[256], input[300];
	int r = parse_run_opts(argc, argv, &o);

	if (r)
		return r < 0 ? PT_EXIT_OK : r;
	if (o.lackey || o.trace) {
		if (sims_init(&ss, &o, 0, UINT64_MAX))
			return PT_EXIT_USAGE;
		r = run_trace(&ss, &o);
		snprintf(input, sizeof(input), "%s:%s", o.lackey ? "lackey" : "trace",
			 o.lackey ? o.lackey : o.trace);
		if (!r)
			r = write_csv(&o, &ss, input, 0);
		sims_free(&ss);
		return r;
	}
	if (pt_pattern_init(&p, o.pattern, o.ws, o.stride, o.seed, err, sizeof(err)))
		return pt_usage_error(CMD, "--pattern %s --ws %llu: %s", pt_pattern_name(o.pattern),
				      (unsigned long long)o.ws, err);
	r = sims_init(&ss, &o, p.base, p.base + o.ws);
	if (!r) {
		r = run_pattern(&ss, &o, &p);
		snprintf(input, sizeof(input), "%s", pt_pattern_name(o.pattern));
		if (!r && (!o.bench || o.out))
			r = write_csv(&o, &ss, input, o.ws);
		sims_free(&ss);
	}
	pt_pattern_free(&p);
	return r;
}

/* ---- convert ---- */

struct convert_ctx {
	struct pt_trace_writer w;
	int failed;
};

static int convert_one(const struct pt_access *a, void *p)
{
	struct convert_ctx *c = p;

	if (pt_trace_write(&c->w, a))
		c->failed = 1;
	return c->failed;
}

static int convert_stream(FILE *in, const char *name, const char *out)
{
	struct convert_ctx c = { 0 };
	char tmp[4200], err[512];
	FILE *f = pt_atomic_open(out, tmp, sizeof(tmp));
	int r;

	if (!f)
		return pt_usage_error(CMD, "-o %s: cannot create: %s", out, strerror(errno));
	c.failed = pt_trace_write_begin(&c.w, f);
	r = c.failed ? 0 : pt_lackey_read(in, name, convert_one, &c, err, sizeof(err));
	if (!r && !c.failed)
		c.failed = pt_trace_write_end(&c.w);
	if (r || c.failed) {
		pt_atomic_abort(f, tmp);
		if (r)
			return pt_usage_error(CMD, "%s", err);
		fprintf(stderr, "ptbench: %s: write failed\n", out);
		return PT_EXIT_FAIL;
	}
	if (pt_atomic_commit(f, tmp, out)) {
		fprintf(stderr, "ptbench: %s: write failed\n", out);
		return PT_EXIT_FAIL;
	}
	fprintf(stderr, "ptbench: %s: %llu records\n", out, (unsigned long long)c.w.count);
	return 0;
}

static int walk_convert(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	FILE *f;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", long_opts, NULL)) != -1) {
		if (c == 'h') {
			printf("usage: ptbench model walk convert --lackey IN|- -o OUT\n"
			       "Converts valgrind lackey output to the binary trace format "
			       "(docs/walk.md).\n");
			return PT_EXIT_OK;
		} else if (c == OPT_LACKEY) {
			in = optarg;
		} else if (c == 'o') {
			out = optarg;
		} else {
			return pt_usage_error(CMD, "convert: unknown option '%s'",
					      argv[optind - 1]);
		}
	}
	if (!in || !out || optind < argc)
		return pt_usage_error(CMD, "convert: needs --lackey IN and -o OUT");
	f = strcmp(in, "-") ? fopen(in, "r") : stdin;
	if (!f)
		return pt_usage_error(CMD, "%s: %s", in, strerror(errno));
	r = convert_stream(f, in, out);
	if (f != stdin)
		fclose(f);
	return r;
}

/* ---- calibrate ---- */

/* One data or unified cache of cpu0 from sysfs into cfg; 1 when used. */
static int host_cache_index(struct pt_walk_cfg *c, unsigned idx)
{
	char base[96], path[160], type[32], size[32];
	uint64_t level, ways, bytes, sets;

	snprintf(base, sizeof(base), "/sys/devices/system/cpu/cpu0/cache/index%u", idx);
	snprintf(path, sizeof(path), "%s/type", base);
	if (pt_sys_read(path, type, sizeof(type)) < 0 || !strncmp(type, "Instruction", 11))
		return 0;
	snprintf(path, sizeof(path), "%s/level", base);
	if (pt_sys_read_u64(path, &level) || level < 1 || level > PT_CACHE_LEVELS)
		return 0;
	snprintf(path, sizeof(path), "%s/size", base);
	if (pt_sys_read(path, size, sizeof(size)) < 0)
		return 0;
	size[strcspn(size, "\n")] = 0;
	snprintf(path, sizeof(path), "%s/ways_of_associativity", base);
	if (pt_size_parse(size, &bytes) || pt_sys_read_u64(path, &ways) || !ways)
		return 0;
	/*
	 * The simulator indexes sets by address bits, so their number must be
	 * a power of two; a hypervisor may report any size (480 MiB, 16-way:
	 * 491520 sets). Keep the largest power-of-two number of sets that fits,
	 * and say so.
	 */
	sets = bytes / (64 * ways);
	if (sets && (sets & (sets - 1))) {
		uint64_t p2 = 1;

		while (p2 * 2 <= sets)
			p2 *= 2;
		printf("# L%llu from sysfs: %s in %llu ways is %llu sets, not a power of two: "
		       "simulated with %llu sets (%llu KiB)\n",
		       (unsigned long long)level, size, (unsigned long long)ways,
		       (unsigned long long)sets, (unsigned long long)p2,
		       (unsigned long long)(p2 * 64 * ways / 1024));
		bytes = p2 * 64 * ways;
	}
	c->cache[level - 1].size_bytes = bytes;
	c->cache[level - 1].ways = (unsigned)ways;
	return 1;
}

/* This machine's data caches (sizes, ways) from sysfs; the count found. */
static int host_caches(struct pt_walk_cfg *c)
{
	unsigned i;
	int n = 0;

	for (i = 0; i < 8; i++)
		n += host_cache_index(c, i);
	return n;
}

/* "ws=<bytes>" from a params string; 0 when absent or bad. */
static uint64_t param_ws(const char *params)
{
	const char *p = params;
	uint64_t v;
	char buf[32];

	while (p && *p) {
		if (!strncmp(p, "ws=", 3)) {
			size_t n = strcspn(p + 3, ";");

			if (n >= sizeof(buf))
				return 0;
			memcpy(buf, p + 3, n);
			buf[n] = 0;
			return pt_size_parse(buf, &v) ? 0 : v;
		}
		p = strchr(p, ';');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

static int backing_ok(const char *params, enum pt_calib_kind k)
{
	if (k == PT_CAL_DENSE)
		return 1;
	return strstr(params, k == PT_CAL_CHASE_THP ? "backing=thp" : "backing=4k") != NULL;
}

static int point_cmp(const void *a, const void *b)
{
	const struct pt_calib_point *x = a, *y = b;

	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return x->ws < y->ws ? -1 : x->ws > y->ws;
}

static int collect_points(const struct pt_rundir *run, struct pt_calib_point *pts, size_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < run->nseries && *n < MAX_POINTS; i++) {
		const struct pt_series *s = &run->series[i];
		struct pt_calib_point *p = &pts[*n];
		struct pt_summary sum;

		if (strcmp(s->workload, "tlb") || strcmp(s->metric, "ns_per_access"))
			continue;
		if (pt_calib_kind_of(s->cs, &p->kind) || !backing_ok(s->params, p->kind))
			continue;
		p->ws = param_ws(s->params);
		if (!p->ws || p->ws % 4096 || pt_summarize(s->values, s->n, &sum) ||
		    !(sum.median > 0))
			return pt_usage_error(CMD,
					      "%s:%ld: case %s: needs ws=<bytes> (a multiple of "
					      "4096) in params and positive ns_per_access",
					      run->csv_path, s->line, s->cs);
		snprintf(p->cs, sizeof(p->cs), "%s", s->cs);
		p->measured_ns = sum.median;
		(*n)++;
	}
	if (!*n)
		return pt_usage_error(CMD,
				      "%s: no tlb ns_per_access rows of cases chase-4k-*, "
				      "chase-thp-* or dense-*",
				      run->csv_path);
	qsort(pts, *n, sizeof(*pts), point_cmp);
	return 0;
}

static void calib_row(FILE *f, const char *src, const struct pt_calib_point *p, double ns,
		      double rel, double ratio)
{
	fprintf(f, "%s,%s,%s,%llu", src, p->cs, pt_calib_backing(p->kind),
		(unsigned long long)p->ws);
	put_num(f, ns);
	put_num(f, rel);
	put_num(f, ratio);
	fputc('\n', f);
}

static void calib_csv(FILE *f, const struct pt_calib_point *p, size_t n, const double *lat)
{
	size_t i;

	fprintf(f, "source,case,backing,ws_bytes,ns_per_access,rel_error,d128_over_d64\n");
	for (i = 0; i < n; i++)
		calib_row(f, "measured", &p[i], p[i].measured_ns, NAN, NAN);
	for (i = 0; i < n; i++) {
		double fit = pt_calib_predict(p[i].f_d64, lat);

		calib_row(f, "fitted-d64", &p[i], fit, (fit - p[i].measured_ns) / p[i].measured_ns,
			  NAN);
	}
	for (i = 0; i < n; i++) {
		double fit = pt_calib_predict(p[i].f_d64, lat);
		double pred = pt_calib_predict(p[i].f_d128, lat);

		calib_row(f, "predicted-d128", &p[i], pred, NAN, fit > 0 ? pred / fit : NAN);
	}
}

static void calib_report(const struct pt_calib_point *p, size_t n, const double *lat, double rms,
			 double ghz)
{
	size_t i;
	unsigned j;

	printf("# fitted latencies (ns; cycles at cpu.ghz = %g), RMS relative error %.2f%%\n", ghz,
	       100 * rms);
	for (j = 0; j < PT_LAT_N; j++)
		printf("%s = %.4g  # %.3g ns%s\n", pt_lat_key(j), lat[j] * ghz, lat[j],
		       PT_CALIB_MASK_DEFAULT >> j & 1 ? "" : " (fixed)");
	printf("# case                 measured_ns  fitted_d64_ns  error   predicted_d128_ns\n");
	for (i = 0; i < n; i++) {
		double fit = pt_calib_predict(p[i].f_d64, lat);

		printf("# %-20s %11.3f %14.3f %+6.1f%% %18.3f\n", p[i].cs, p[i].measured_ns, fit,
		       100 * (fit - p[i].measured_ns) / p[i].measured_ns,
		       pt_calib_predict(p[i].f_d128, lat));
	}
}

static int calib_write(const char *path, const struct pt_calib_point *p, size_t n,
		       const double *lat)
{
	char tmp[4200];
	FILE *f = pt_atomic_open(path, tmp, sizeof(tmp));

	if (!f)
		return pt_usage_error(CMD, "-o %s: cannot create: %s", path, strerror(errno));
	calib_csv(f, p, n, lat);
	if (pt_atomic_commit(f, tmp, path)) {
		fprintf(stderr, "ptbench: %s: write failed\n", path);
		return PT_EXIT_FAIL;
	}
	printf("# wrote %s\n", path);
	return 0;
}

static int calib_fit_and_write(const struct walk_opts *o, struct pt_calib_point *pts, size_t n,
			       const char *path)
{
	double lat[PT_LAT_N], rms;
	char err[256];
	size_t i;
	unsigned j;

	for (i = 0; i < n; i++)
		if (pt_calib_simulate(&pts[i], &o->cfg, err, sizeof(err)))
			return pt_usage_error(CMD, "case %s: %s", pts[i].cs, err);
	for (j = 0; j < PT_LAT_N; j++)
		lat[j] = o->cfg.lat[j] / o->cfg.ghz;
	rms = pt_calib_fit(pts, n, PT_CALIB_MASK_DEFAULT, lat);
	calib_report(pts, n, lat, rms, o->cfg.ghz);
	return calib_write(path, pts, n, lat);
}

static int walk_calibrate(int argc, char **argv)
{
	static struct pt_calib_point pts[MAX_POINTS];
	const char *dir = NULL, *out = NULL;
	char err[1024], path[4200];
	struct walk_opts o;
	struct pt_rundir run;
	size_t n;
	int c, r = 0;

	bool host = true;

	memset(&o, 0, sizeof(o));
	pt_walk_cfg_default(&o.cfg);
	/* first pass: --no-host-caches decides the base the other options modify */
	for (c = 1; c < argc; c++)
		if (!strcmp(argv[c], "--no-host-caches"))
			host = false;
	if (host)
		printf("# data caches from this machine's sysfs: %d levels found\n",
		       host_caches(&o.cfg));
	optind = 1;
	opterr = 0;
	while (!r && (c = getopt_long(argc, argv, "o:h", long_opts, NULL)) != -1) {
		if (c == 'h') {
			printf("usage: ptbench model walk calibrate --results DIR [-o FILE] "
			       "[--no-host-caches] [--config F] [--set K=V]\n"
			       "Fits the latencies to DIR/results.csv (workload tlb) and writes "
			       "DIR/walk_model.csv (docs/walk.md). The data caches are this "
			       "machine's (sysfs) unless --no-host-caches.\n");
			return PT_EXIT_OK;
		} else if (c == OPT_NO_HOST_CACHES) {
			continue;
		} else if (c == OPT_RESULTS) {
			dir = optarg;
		} else if (c == 'o') {
			out = optarg;
		} else if (c == OPT_CONFIG || c == OPT_SET || c == OPT_GRANULE || c == OPT_VA) {
			r = config_opt(c, optarg, &o);
		} else {
			r = pt_usage_error(CMD, "calibrate: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (r)
		return r;
	if (!dir || optind < argc)
		return pt_usage_error(CMD, "calibrate: needs --results DIR");
	memset(&run, 0, sizeof(run));
	if (pt_rundir_read(dir, &run, err, sizeof(err)))
		return pt_usage_error(CMD, "--results %s", err);
	r = collect_points(&run, pts, &n);
	if (!r) {
		snprintf(path, sizeof(path), "%s/walk_model.csv", dir);
		r = calib_fit_and_write(&o, pts, n, out ? out : path);
	}
	pt_rundir_free(&run);
	return r;
}

int cmd_model_walk(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "convert"))
		return walk_convert(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return walk_calibrate(argc - 1, argv + 1);
	return walk_run(argc, argv);
}
