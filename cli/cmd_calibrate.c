// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench calibrate: know the noise. Runs the ci suite as A/A pairs (two
 * runs of the same build, back to back), passes each pair through the
 * regression gate, and reports how often the gate fires on no change (its
 * false-positive rate) and, by scaling one side's samples of one metric at
 * a time in memory, the smallest change it catches in >= 80% of the pairs.
 * Then every two runs are compared, and the changes the gate found between
 * identical runs become per-series thresholds (gate.conf).
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/gate_opts.h"
#include "analysis/compare.h"
#include "util/atomicfile.h"
#include "util/json.h"
#include "util/knobs.h"
#include "analysis/noisefloor.h"
#include "analysis/rundir.h"
#include "harness/sink.h"

#define DEFAULT_PAIRS 10
#define MAX_PAIRS 1000
#define DETECT_RATE 0.8
#define MAX_EXTRA_ARGS 32

/* Injected changes, in % in the worse direction of each metric. */
static const double shifts_pct[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50 };
#define NSHIFTS (sizeof(shifts_pct) / sizeof(shifts_pct[0]))

struct calib_args {
	const char *suite;
	int pairs;
	const char *reps; /* NULL: the run's default */
	const char *out;
	const char *config_path;
	struct pt_floor_opts floor; /* base_pct is each series' own threshold */
	char *extra[MAX_EXTRA_ARGS]; /* after "--": passed to run */
	int nextra;
	struct pt_cmp_opts opts;
};

struct run_rec {
	char dir[4200];
	double seconds;
	int status; /* exit status of the run, or -1 when it did not exit */
};

struct pair_rec {
	struct run_rec run[2];
	struct pt_rundir a, b;
	struct pt_cmp_result res;
	bool loaded, compared;
};

/* One comparison of two identical runs (a earlier, as BASE) the gate called significant. */
struct aa_hit {
	double abs_change_pct;
	int a, b;
	bool worse;
};

/* Detection of one series over all pairs. */
struct detect_rec {
	const struct pt_series *key; /* from the first pair that tested it */
	size_t pairs_tested;
	size_t hits[NSHIFTS];
	double smallest_pct; /* NaN when not reached within the ladder */
	double base_threshold; /* the gate's threshold for it, in percent */
	double *median; /* per run (pair p: runs 2p and 2p+1), NaN untested */
	struct aa_hit *hits_aa; /* A/A comparisons the gate judged significant */
	size_t nhits_aa;
};

/*
 * Noise-floor thresholds: every two of the 2 x PAIRS runs are compared
 * with the gate; a series' threshold becomes the largest change the gate
 * called significant between identical runs, times a margin (rounded up
 * to a whole percent), when that exceeds the gate's threshold; above a
 * ceiling the series is not gated at all. Samples inside one run may not
 * see the run-to-run noise of a VM; this puts back what they miss.
 */
#define DEFAULT_MARGIN 2.0
#define DEFAULT_MAX_FLOOR 50.0
#define FLOOR_MAX_RUNS 64 /* all-pairs comparisons over at most this many runs */

struct calib {
	struct calib_args *a;
	struct pair_rec *pairs;
	char runner[4200];
	double started;
	size_t fired, any_significant, tested_total, significant_total, too_few_total;
	size_t blind_pairs;
	size_t loo_fired, loo_total; /* noise-floor gate, leave-pair-out */
	size_t all_fired; /* the gate itself on every two runs */
	struct detect_rec *det;
	size_t ndet;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench calibrate [options] [-- RUN-OPTIONS...]\n"
		"\n"
		"Run a suite as A/A pairs (the same build twice, back to back), pass every\n"
		"pair through the compare gate, and report the gate's false-positive rate and\n"
		"the smallest change it detects in >= 80%% of the pairs; then compare every\n"
		"two runs, and write gate.conf, thresholds that keep the changes found\n"
		"between identical runs from failing the gate. Slow by nature:\n"
		"2 x PAIRS runs of the suite; a progress line is printed for each run.\n"
		"\n"
		"options:\n"
		"  --suite NAME       suite to run (default ci)\n"
		"  --pairs N          A/A pairs (default %d)\n"
		"  --reps N           repetitions per case (default: the run's default)\n"
		"  --out DIR          where runs, logs, calibrate.json and calibrate.txt go\n"
		"                     (default results/calibrate-<UTC time>)\n"
		"  --alpha A, --threshold P, --correction C, --config FILE\n"
		"                     the gate to calibrate, as for ptbench compare\n"
		"  --margin K         gate.conf threshold = K x the largest change the gate\n"
		"                     called significant between two of the runs (default %g)\n"
		"  --max-threshold P  series whose threshold would exceed P%% get gate=off\n"
		"                     in gate.conf (default %g%%)\n"
		"  -h, --help         this text\n"
		"RUN-OPTIONS after '--' are passed to every 'ptbench run'.\n"
		"PTBENCH_CALIBRATE_RUNNER, when set, is run instead of this ptbench with the\n"
		"same arguments (run --suite S [--reps N] --out DIR ...); tests use it.\n"
		"\n"
		"SIGINT/SIGTERM stop the running run (it restores what it changed) and\n"
		"calibrate, with exit status 128 + the signal.\n"
		"Exit status: 0 done, 1 a run failed without results, 2 bad usage.\n"
		"See docs/compare.md.\n",
		DEFAULT_PAIRS, DEFAULT_MARGIN, DEFAULT_MAX_FLOOR);
}

static int parse_int(const char *s, int lo, int hi, int *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(s, &end, 10);
	if (!*s || *end || errno || x < lo || x > hi)
		return -1;
	*v = (int)x;
	return 0;
}

static int parse_gate_opt(int c, struct calib_args *a)
{
	if (c == 'C') {
		a->config_path = optarg;
		return 0;
	}
	return pt_gate_option("calibrate", c, optarg, &a->opts);
}

static int parse_floor_opt(int c, struct calib_args *a)
{
	char *end;
	double v;

	if (c == 'M') {
		if (pt_cmp_parse_pct(optarg, &a->floor.max_pct))
			return pt_usage_error("calibrate",
					      "--max-threshold '%s': expected a percentage >= 0",
					      optarg);
		return 0;
	}
	errno = 0;
	v = strtod(optarg, &end);
	if (!*optarg || *end || errno || !(v >= 1 && v <= 100))
		return pt_usage_error("calibrate", "--margin '%s': expected a number 1..100",
				      optarg);
	a->floor.margin = v;
	return 0;
}

/* 0 parsed, 1 --help, or PT_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct calib_args *a)
{
	static const struct option longopts[] = {
		{ "suite", required_argument, NULL, 'S' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "reps", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'O' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "threshold", required_argument, NULL, 't' },
		{ "correction", required_argument, NULL, 'c' },
		{ "config", required_argument, NULL, 'C' },
		{ "margin", required_argument, NULL, 'm' },
		{ "max-threshold", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, reps, ret;

	a->suite = "ci";
	a->pairs = DEFAULT_PAIRS;
	a->opts.alpha = PT_CMP_ALPHA_DEFAULT;
	a->opts.threshold_pct = PT_CMP_THRESHOLD_DEFAULT;
	a->opts.correction = PT_CORR_HOLM;
	a->floor.margin = DEFAULT_MARGIN;
	a->floor.max_pct = DEFAULT_MAX_FLOOR;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'S':
			a->suite = optarg;
			break;
		case 'p':
			if (parse_int(optarg, 1, MAX_PAIRS, &a->pairs))
				return pt_usage_error("calibrate", "--pairs '%s': expected 1..%d",
						      optarg, MAX_PAIRS);
			break;
		case 'r':
			if (parse_int(optarg, 1, 1000000, &reps))
				return pt_usage_error("calibrate", "--reps '%s': expected N >= 1",
						      optarg);
			a->reps = optarg;
			break;
		case 'O':
			a->out = optarg;
			break;
		case 'm':
		case 'M':
			ret = parse_floor_opt(c, a);
			if (ret)
				return ret;
			break;
		case 'a':
		case 't':
		case 'c':
		case 'C':
			ret = parse_gate_opt(c, a);
			if (ret)
				return ret;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
			return pt_usage_error("calibrate", "%s needs a value", argv[optind - 1]);
		default:
			return pt_usage_error("calibrate", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc && strcmp(argv[optind - 1], "--"))
		return pt_usage_error("calibrate",
				      "unexpected argument '%s' (run options go "
				      "after '--')",
				      argv[optind]);
	for (; optind < argc; optind++) {
		if (a->nextra >= MAX_EXTRA_ARGS)
			return pt_usage_error("calibrate", "more than %d run options",
					      MAX_EXTRA_ARGS);
		a->extra[a->nextra++] = argv[optind];
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int mkdir_p(const char *path)
{
	char buf[4200], *s;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -1;
	for (s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

/* ---- running the suite ---- */

static void fmt_duration(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

static void progress(struct calib *k, int pair, int side, const char *what)
{
	int done = 2 * pair + side, total = 2 * k->a->pairs;
	double el = now_s() - k->started;
	char e[32], left[64] = "";

	fmt_duration(el, e, sizeof(e));
	if (done > 0) {
		char l[24];

		fmt_duration(el / done * (total - done), l, sizeof(l));
		snprintf(left, sizeof(left), ", about %s left", l);
	}
	fprintf(stderr, "calibrate: pair %d/%d, run %c %s (%d/%d runs done, %s elapsed%s)\n",
		pair + 1, k->a->pairs, side ? 'b' : 'a', what, done, total, e, left);
}

/*
 * SIGINT, SIGTERM, SIGHUP or SIGPIPE while a run is going: passed on to the run (it
 * restores its knobs and removes what it wrote), which is then reaped, and
 * calibrate stops.
 */
static volatile sig_atomic_t child_pid, stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static void child_exec(struct calib *k, const char *out, const char *log)
{
	char *argv[16 + MAX_EXTRA_ARGS];
	int n = 0, i, fd;

	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	argv[n++] = k->runner;
	argv[n++] = "run";
	argv[n++] = "--suite";
	argv[n++] = (char *)k->a->suite;
	if (k->a->reps) {
		argv[n++] = "--reps";
		argv[n++] = (char *)k->a->reps;
	}
	argv[n++] = "--out";
	argv[n++] = (char *)out;
	for (i = 0; i < k->a->nextra; i++)
		argv[n++] = k->a->extra[i];
	argv[n] = NULL;
	execv(k->runner, argv);
	fprintf(stderr, "ptbench calibrate: cannot run %s: %s\n", k->runner, strerror(errno));
	_exit(127);
}

/* One run of the suite into rec->dir; 0 when it left a results.csv. */
static int run_once(struct calib *k, int pair, int side, struct run_rec *rec)
{
	char log[4300], csv[4300];
	double t0 = now_s();
	int status;
	pid_t pid;

	snprintf(log, sizeof(log), "%s/logs/pair-%03d-%c.log", k->a->out, pair + 1,
		 side ? 'b' : 'a');
	progress(k, pair, side, "running");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ptbench calibrate: fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		child_exec(k, rec->dir, log);
	}
	child_pid = pid;
	if (stop_signal) /* arrived between fork and here */
		kill(pid, stop_signal);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	child_pid = 0;
	if (stop_signal) {
		fprintf(stderr,
			"calibrate: interrupted (signal %d); the run was stopped and reaped\n",
			(int)stop_signal);
		return -1;
	}
	rec->seconds = now_s() - t0;
	rec->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	snprintf(csv, sizeof(csv), "%s/results.csv", rec->dir);
	if (access(csv, R_OK)) {
		fprintf(stderr,
			"ptbench calibrate: run %s exited with status %d and wrote no results.csv; "
			"see %s\n",
			rec->dir, rec->status, log);
		return -1;
	}
	if (rec->status)
		fprintf(stderr,
			"ptbench calibrate: warning: run %s exited with status %d (see %s); "
			"its results are used\n",
			rec->dir, rec->status, log);
	return 0;
}

static int run_pairs(struct calib *k)
{
	int p, side;
	char dir[4096];

	for (p = 0; p < k->a->pairs; p++) {
		snprintf(dir, sizeof(dir), "%.4000s/pair-%03d", k->a->out, p + 1);
		if (mkdir_p(dir)) {
			fprintf(stderr, "ptbench calibrate: %s: %s\n", dir, strerror(errno));
			return PT_EXIT_FAIL;
		}
		for (side = 0; side < 2; side++) {
			struct run_rec *rec = &k->pairs[p].run[side];

			snprintf(rec->dir, sizeof(rec->dir), "%s/%c", dir, side ? 'b' : 'a');
			if (run_once(k, p, side, rec))
				return stop_signal ? 128 + stop_signal : PT_EXIT_FAIL;
		}
	}
	fmt_duration(now_s() - k->started, dir, sizeof(dir));
	fprintf(stderr, "calibrate: all %d runs finished in %s; comparing\n", 2 * k->a->pairs, dir);
	return 0;
}

/* ---- the gate on each pair ---- */

static int compare_pairs(struct calib *k)
{
	char err[4400];
	int p;

	for (p = 0; p < k->a->pairs; p++) {
		struct pair_rec *pr = &k->pairs[p];

		if (pt_rundir_read(pr->run[0].dir, &pr->a, err, sizeof(err)))
			goto bad;
		if (pt_rundir_read(pr->run[1].dir, &pr->b, err, sizeof(err))) {
			pt_rundir_free(&pr->a);
			goto bad;
		}
		pr->loaded = true;
		if (pt_compare(pr->a.series, pr->a.nseries, pr->b.series, pr->b.nseries,
			       &k->a->opts, &pr->res))
			return PT_EXIT_FAIL;
		pr->compared = true;
		k->fired += pr->res.regressions > 0;
		k->any_significant += pr->res.regressions + pr->res.improvements + pr->res.changed >
				      0;
		k->tested_total += pr->res.tested;
		k->significant_total +=
			pr->res.regressions + pr->res.improvements + pr->res.changed;
		k->too_few_total += pr->res.too_few;
		k->blind_pairs += pr->res.gate_blind;
	}
	return 0;
bad:
	fprintf(stderr, "ptbench calibrate: %s\n", err);
	return PT_EXIT_FAIL;
}

static struct detect_rec *detect_find(struct calib *k, const struct pt_series *s)
{
	size_t i;

	for (i = 0; i < k->ndet; i++)
		if (!pt_series_key_cmp(k->det[i].key, s))
			return &k->det[i];
	return NULL;
}

/* Scale one row's new samples by each shift and ask the gate again. */
static void detect_row(const struct pt_cmp_result *r, size_t i, struct detect_rec *d, double *buf)
{
	const struct pt_series *c = r->rows[i].cand;
	size_t s, j;

	d->pairs_tested++;
	for (s = 0; s < NSHIFTS; s++) {
		double f = c->better == PT_LOWER ? 1 + shifts_pct[s] / 100
						 : 1 - shifts_pct[s] / 100;

		for (j = 0; j < c->n; j++)
			buf[j] = c->values[j] * f;
		if (pt_cmp_rejudge(r, i, buf, c->n) == PT_V_WORSE)
			d->hits[s]++;
	}
}

static struct detect_rec *detect_new(struct calib *k, const struct pt_cmp_row *w)
{
	struct detect_rec *d = &k->det[k->ndet];
	int p;

	d->key = w->key;
	d->base_threshold = w->threshold_pct;
	d->median = malloc(2 * (size_t)k->a->pairs * sizeof(*d->median));
	if (!d->median)
		return NULL;
	for (p = 0; p < 2 * k->a->pairs; p++)
		d->median[p] = NAN;
	k->ndet++;
	return d;
}

static int detect_key_cmp(const void *a, const void *b)
{
	return pt_series_key_cmp(((const struct detect_rec *)a)->key,
				 ((const struct detect_rec *)b)->key);
}

static int detect_all(struct calib *k)
{
	size_t i, maxn = 1, cap = 0;
	double *buf;
	int p;

	for (p = 0; p < k->a->pairs; p++)
		for (i = 0; i < k->pairs[p].res.n; i++) {
			cap++;
			if (k->pairs[p].res.rows[i].cand && k->pairs[p].res.rows[i].cand->n > maxn)
				maxn = k->pairs[p].res.rows[i].cand->n;
		}
	k->det = calloc(cap ? cap : 1, sizeof(*k->det));
	buf = malloc(maxn * sizeof(*buf));
	if (!k->det || !buf) {
		free(buf);
		return -1;
	}
	for (p = 0; p < k->a->pairs; p++) {
		const struct pt_cmp_result *r = &k->pairs[p].res;

		for (i = 0; i < r->n; i++) {
			const struct pt_cmp_row *w = &r->rows[i];
			struct detect_rec *d;

			if (!w->tested || w->key->better == PT_NEITHER)
				continue;
			d = detect_find(k, w->key);
			if (!d) {
				d = detect_new(k, w);
				if (!d) {
					free(buf);
					return -1;
				}
			}
			d->median[2 * p] = w->sb.median;
			d->median[2 * p + 1] = w->sn.median;
			detect_row(r, i, d, buf);
		}
	}
	free(buf);
	qsort(k->det, k->ndet, sizeof(*k->det), detect_key_cmp);
	for (i = 0; i < k->ndet; i++) {
		struct detect_rec *d = &k->det[i];
		size_t s;

		d->smallest_pct = NAN;
		for (s = 0; s < NSHIFTS; s++)
			if ((double)d->hits[s] >= DETECT_RATE * (double)k->a->pairs) {
				d->smallest_pct = shifts_pct[s];
				break;
			}
	}
	return 0;
}

/* ---- the figures ---- */

/* P(X <= x) for X ~ Binomial(n, p). */
static double binom_cdf(size_t x, size_t n, double p)
{
	double sum = 0;
	size_t i;

	if (p <= 0)
		return 1;
	if (p >= 1)
		return x >= n ? 1 : 0;
	for (i = 0; i <= x && i <= n; i++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			   lgamma((double)(n - i) + 1) + (double)i * log(p) +
			   (double)(n - i) * log1p(-p));
	return sum;
}

/* Clopper-Pearson upper limit of a 95% two-sided interval for x of n. */
static double rate_upper95(size_t x, size_t n)
{
	double lo = (double)x / (double)n, hi = 1;
	int it;

	if (x >= n)
		return 1;
	for (it = 0; it < 60; it++) {
		double mid = (lo + hi) / 2;

		if (binom_cdf(x, n, mid) > 0.025)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int nruns(const struct calib *k)
{
	return 2 * k->a->pairs;
}

static struct pt_rundir *run_of(struct calib *k, int i)
{
	return i % 2 ? &k->pairs[i / 2].b : &k->pairs[i / 2].a;
}

static int floor_runs(const struct calib *k)
{
	return nruns(k) < FLOOR_MAX_RUNS ? nruns(k) : FLOOR_MAX_RUNS;
}

/* Largest significant A/A change of a series, leaving runs a and b out (-1: none). */
static double floor_worst(const struct detect_rec *d, int a, int b)
{
	double worst = 0;
	size_t i;

	for (i = 0; i < d->nhits_aa; i++) {
		const struct aa_hit *h = &d->hits_aa[i];

		if (h->a == a || h->a == b || h->b == a || h->b == b)
			continue;
		if (h->abs_change_pct > worst)
			worst = h->abs_change_pct;
	}
	return worst;
}

/* A series' noise-floor threshold, leaving runs a and b out (-1: none). */
static double floor_threshold(const struct calib *k, const struct detect_rec *d, int a, int b,
			      bool *off)
{
	struct pt_floor_opts o = k->a->floor;

	o.base_pct = d->base_threshold;
	return pt_floor_threshold(floor_worst(d, a, b), &o, off);
}

static struct detect_rec *detect_lookup(const struct calib *k, const struct pt_series *s)
{
	struct detect_rec key = { .key = s };

	return bsearch(&key, k->det, k->ndet, sizeof(*k->det), detect_key_cmp);
}

static int hit_add(struct detect_rec *d, const struct pt_cmp_row *w, int a, int b)
{
	struct aa_hit *n = realloc(d->hits_aa, (d->nhits_aa + 1) * sizeof(*n));

	if (!n)
		return -1;
	d->hits_aa = n;
	d->hits_aa[d->nhits_aa++] =
		(struct aa_hit){ fabs(w->change_pct), a, b, w->verdict == PT_V_WORSE };
	return 0;
}

/* Compare run a (BASE) with run b and keep what the gate called significant. */
static int aa_compare(struct calib *k, int a, int b)
{
	struct pt_rundir *ra = run_of(k, a), *rb = run_of(k, b);
	struct pt_cmp_result res;
	size_t i;
	int ret = 0;

	if (pt_compare(ra->series, ra->nseries, rb->series, rb->nseries, &k->a->opts, &res))
		return -1;
	for (i = 0; i < res.n && !ret; i++) {
		const struct pt_cmp_row *w = &res.rows[i];
		struct detect_rec *d;

		if (w->verdict != PT_V_WORSE && w->verdict != PT_V_BETTER)
			continue;
		d = detect_lookup(k, w->key);
		if (d)
			ret = hit_add(d, w, a, b);
	}
	pt_cmp_result_free(&res);
	return ret;
}

/* Did the gate itself fire on a -> b? */
static bool gate_fired(const struct calib *k, int a, int b)
{
	size_t i, j;

	for (i = 0; i < k->ndet; i++)
		for (j = 0; j < k->det[i].nhits_aa; j++) {
			const struct aa_hit *h = &k->det[i].hits_aa[j];

			if (h->a == a && h->b == b && h->worse)
				return true;
		}
	return false;
}

/* Would the noise-floor gate, learnt without runs a and b, fire on a -> b? */
static bool floor_fires(const struct calib *k, int a, int b)
{
	size_t i, j;
	bool off;

	for (i = 0; i < k->ndet; i++) {
		const struct detect_rec *d = &k->det[i];

		for (j = 0; j < d->nhits_aa; j++) {
			const struct aa_hit *h = &d->hits_aa[j];

			if (h->a != a || h->b != b || !h->worse)
				continue;
			if (h->abs_change_pct >= floor_threshold(k, d, a, b, &off) && !off)
				return true;
		}
	}
	return false;
}

/*
 * Every two runs are compared (the earlier as BASE); the significant
 * changes set the thresholds. Out-of-sample false positives: each such
 * comparison judged with thresholds learnt from the other runs only
 * (leave-pair-out). The comparisons share runs, so they are not
 * independent; the rate is an estimate, its bound a rough one.
 */
static int floor_loo(struct calib *k)
{
	int a, b;

	k->loo_fired = k->loo_total = k->all_fired = 0;
	for (a = 0; a < floor_runs(k); a++)
		for (b = a + 1; b < floor_runs(k); b++)
			if (aa_compare(k, a, b))
				return -1;
	if (floor_runs(k) < 4)
		return 0;
	for (a = 0; a < floor_runs(k); a++)
		for (b = a + 1; b < floor_runs(k); b++) {
			k->loo_total++;
			k->loo_fired += floor_fires(k, a, b);
			k->all_fired += gate_fired(k, a, b);
		}
	return 0;
}

/* Smallest ladder shift detected often enough that the noise floor lets through. */
static double floor_detect_pct(const struct calib *k, const struct detect_rec *d)
{
	bool off;
	double thr = floor_threshold(k, d, -1, -1, &off);
	size_t s;

	if (off)
		return NAN;
	for (s = 0; s < NSHIFTS; s++)
		if (shifts_pct[s] >= thr && (double)d->hits[s] >= DETECT_RATE * (double)k->a->pairs)
			return shifts_pct[s];
	return NAN;
}

static void floor_count(const struct calib *k, size_t *raised, size_t *off_n)
{
	size_t i;
	bool off;

	*raised = *off_n = 0;
	for (i = 0; i < k->ndet; i++) {
		double thr = floor_threshold(k, &k->det[i], -1, -1, &off);

		*off_n += off;
		*raised += !off && thr > k->det[i].base_threshold;
	}
}

static void write_floor_text(const struct calib *k, FILE *f)
{
	size_t i, n = 0, lost = 0, raised, off;
	double *v = malloc((k->ndet ? k->ndet : 1) * sizeof(*v));

	floor_count(k, &raised, &off);
	fprintf(f,
		"\nnoise-floor gate (gate.conf: threshold = max(threshold, %g x the largest change "
		"the gate called significant between any two of %d identical runs); gate=off "
		"above %g%%):\n",
		k->a->floor.margin, floor_runs(k), k->a->floor.max_pct);
	fprintf(f, "  thresholds raised for %zu of %zu series; %zu series not gated (gate=off)\n",
		raised, k->ndet, off);
	if (k->loo_total)
		fprintf(f,
			"  first, the gate itself on every two of the %d runs (not only the pairs "
			"run back to back): fired in %zu of %zu comparisons: rate %.3f\n",
			floor_runs(k), k->all_fired, k->loo_total,
			(double)k->all_fired / (double)k->loo_total);
	if (k->loo_total)
		fprintf(f,
			"  gate fired (leave-pair-out: each two runs judged with thresholds "
			"learnt from the other %d) in %zu of %zu comparisons: rate %.3f (95%% "
			"upper bound %.3f, the comparisons share runs)\n",
			nruns(k) - 2, k->loo_fired, k->loo_total,
			(double)k->loo_fired / (double)k->loo_total,
			rate_upper95(k->loo_fired, k->loo_total));
	else
		fprintf(f, "  out-of-sample rate not estimated: needs at least 2 pairs\n");
	for (i = 0; v && i < k->ndet; i++) {
		double pct = floor_detect_pct(k, &k->det[i]);

		if (isnan(pct))
			lost++;
		else
			v[n++] = pct;
	}
	if (v && n) {
		qsort(v, n, sizeof(*v), cmp_double);
		fprintf(f,
			"  smallest change detected with it: best %g%%, median %g%%, worst %g%%; %zu "
			"series not detected even at %g%%\n",
			v[0], n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[n - 1], lost,
			shifts_pct[NSHIFTS - 1]);
	}
	free(v);
}

struct detect_summary {
	size_t detectable, undetectable;
	double median_pct, max_pct, min_pct;
};

static void detect_summarize(const struct calib *k, struct detect_summary *ds)
{
	double *v = malloc((k->ndet ? k->ndet : 1) * sizeof(*v));
	size_t i, n = 0;

	memset(ds, 0, sizeof(*ds));
	ds->median_pct = ds->max_pct = ds->min_pct = NAN;
	if (!v)
		return;
	for (i = 0; i < k->ndet; i++)
		if (isnan(k->det[i].smallest_pct))
			ds->undetectable++;
		else
			v[n++] = k->det[i].smallest_pct;
	ds->detectable = n;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		ds->min_pct = v[0];
		ds->max_pct = v[n - 1];
		ds->median_pct = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
}

/*
 * Config lines for compare --config: one per series whose floor is raised,
 * gate=off (with the spread seen) for those above the ceiling.
 */
static void write_gate_conf(const struct calib *k, FILE *f)
{
	size_t i;
	bool off;

	fprintf(f,
		"# ptbench gate thresholds from 'ptbench calibrate': %d A/A pairs (%d runs) of "
		"suite '%s' (%s reps).\n# threshold = max(%g%%, %g x the largest change the gate "
		"called significant between two of the runs, rounded up);\n# gate=off where that "
		"exceeds %g%%: too noisy on this machine to judge.\n# Series not listed keep the "
		"gate's defaults.\n# Use: ptbench compare BASE NEW --config gate.conf\n",
		k->a->pairs, nruns(k), k->a->suite, k->a->reps ? k->a->reps : "default",
		k->a->opts.threshold_pct, k->a->floor.margin, k->a->floor.max_pct);
	for (i = 0; i < k->ndet; i++) {
		const struct detect_rec *d = &k->det[i];
		double thr = floor_threshold(k, d, -1, -1, &off);

		if (off)
			fprintf(f, "%s/%s/%s gate=off  # significant A/A change up to %.0f%%\n",
				d->key->workload, d->key->cs, d->key->metric,
				floor_worst(d, -1, -1));
		else if (thr > d->base_threshold)
			fprintf(f, "%s/%s/%s threshold=%g%%\n", d->key->workload, d->key->cs,
				d->key->metric, thr);
	}
}

static void write_text(const struct calib *k, FILE *f)
{
	const struct calib_args *a = k->a;
	struct detect_summary ds;
	char label[600];
	size_t i;

	detect_summarize(k, &ds);
	fprintf(f,
		"ptbench calibrate: %d A/A pairs of suite '%s' (%s reps), gate alpha %g, "
		"threshold %g%%, %s correction\n",
		a->pairs, a->suite, a->reps ? a->reps : "default", a->opts.alpha,
		a->opts.threshold_pct, pt_correction_name(a->opts.correction));
	fprintf(f, "runner: %s\n\n", k->runner);
	fprintf(f, "false positives (A/A, no change):\n");
	fprintf(f, "  gate fired (exit 1) in %zu of %d pairs: rate %.3f (95%% upper bound %.3f)\n",
		k->fired, a->pairs, (double)k->fired / a->pairs,
		rate_upper95(k->fired, (size_t)a->pairs));
	fprintf(f, "  any significant change in %zu of %d pairs\n", k->any_significant, a->pairs);
	fprintf(f, "  series judged significant: %zu of %zu tested: rate %.4f\n",
		k->significant_total, k->tested_total,
		k->tested_total ? (double)k->significant_total / (double)k->tested_total : 0.0);
	if (k->too_few_total || k->blind_pairs)
		fprintf(f,
			"  WARNING: %zu series-pairs had too few samples; the gate was blind in "
			"%zu pairs\n",
			k->too_few_total, k->blind_pairs);
	fprintf(f,
		"\nsmallest change detected in >= %.0f%% of pairs (shift injected into the new "
		"side, one metric at a time):\n",
		DETECT_RATE * 100);
	if (ds.detectable)
		fprintf(f,
			"  over %zu series: best %g%%, median %g%%, worst %g%%; %zu series not "
			"detected even at %g%%\n",
			k->ndet, ds.min_pct, ds.median_pct, ds.max_pct, ds.undetectable,
			shifts_pct[NSHIFTS - 1]);
	else
		fprintf(f, "  no series reached the detection rate within %g%% (%zu series)\n",
			shifts_pct[NSHIFTS - 1], k->ndet);
	write_floor_text(k, f);
	fprintf(f, "\nper series: smallest detectable change (default gate; noise floor)\n");
	for (i = 0; i < k->ndet; i++) {
		const struct detect_rec *d = &k->det[i];
		bool off;
		double thr = floor_threshold(k, d, -1, -1, &off);

		pt_series_name(d->key, label, sizeof(label));
		fprintf(f, "  %-60s  %s%g%%  ", label, isnan(d->smallest_pct) ? "> " : "",
			isnan(d->smallest_pct) ? shifts_pct[NSHIFTS - 1] : d->smallest_pct);
		if (off)
			fprintf(f, "not gated (significant A/A change up to %.0f%%)\n",
				floor_worst(d, -1, -1));
		else
			fprintf(f, "floor %g%% (A/A medians within %.0f%%)\n", thr,
				pt_floor_spread(d->median, (size_t)nruns(k), -1, -1));
	}
}

static void json_detect(const struct calib *k, struct pt_json *j)
{
	struct detect_summary ds;
	size_t i, s, raised, off_n;
	double thr;
	bool off;

	detect_summarize(k, &ds);
	pt_json_obj_begin(j, "detection");
	pt_json_num(j, "target_rate", DETECT_RATE);
	pt_json_arr_begin(j, "shifts_pct");
	for (s = 0; s < NSHIFTS; s++)
		pt_json_num(j, NULL, shifts_pct[s]);
	pt_json_arr_end(j);
	pt_json_uint(j, "series", k->ndet);
	pt_json_uint(j, "undetectable", ds.undetectable);
	pt_json_num(j, "best_pct", ds.min_pct);
	pt_json_num(j, "median_pct", ds.median_pct);
	pt_json_num(j, "worst_pct", ds.max_pct);
	pt_json_arr_begin(j, "per_series");
	for (i = 0; i < k->ndet; i++) {
		const struct detect_rec *d = &k->det[i];

		pt_json_obj_begin(j, NULL);
		pt_json_str(j, "workload", d->key->workload);
		pt_json_str(j, "case", d->key->cs);
		pt_json_str(j, "params", d->key->params);
		pt_json_str(j, "metric", d->key->metric);
		pt_json_uint(j, "pairs_tested", d->pairs_tested);
		pt_json_arr_begin(j, "detected_pairs");
		for (s = 0; s < NSHIFTS; s++)
			pt_json_uint(j, NULL, d->hits[s]);
		pt_json_arr_end(j);
		pt_json_num(j, "smallest_detected_pct", d->smallest_pct);
		thr = floor_threshold(k, d, -1, -1, &off);
		pt_json_num(j, "largest_aa_change_pct",
			    pt_floor_spread(d->median, (size_t)nruns(k), -1, -1));
		pt_json_num(j, "largest_significant_aa_change_pct", floor_worst(d, -1, -1));
		pt_json_num(j, "noise_floor_threshold_pct", off ? NAN : thr);
		pt_json_bool(j, "gated", !off);
		pt_json_num(j, "noise_floor_detected_pct", floor_detect_pct(k, d));
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
	pt_json_obj_end(j);
	floor_count(k, &raised, &off_n);
	pt_json_obj_begin(j, "noise_floor");
	pt_json_num(j, "margin", k->a->floor.margin);
	pt_json_num(j, "max_threshold_pct", k->a->floor.max_pct);
	pt_json_uint(j, "thresholds_raised", raised);
	pt_json_uint(j, "not_gated", off_n);
	pt_json_uint(j, "loo_comparisons", k->loo_total);
	pt_json_uint(j, "all_pairs_gate_fired", k->all_fired);
	pt_json_uint(j, "loo_gate_fired", k->loo_fired);
	pt_json_num(j, "loo_gate_rate",
		    k->loo_total ? (double)k->loo_fired / (double)k->loo_total : NAN);
	pt_json_num(j, "loo_gate_rate_upper95",
		    k->loo_total ? rate_upper95(k->loo_fired, k->loo_total) : NAN);
	pt_json_obj_end(j);
}

static void json_runs(const struct calib *k, struct pt_json *j)
{
	int p, side;

	pt_json_arr_begin(j, "runs");
	for (p = 0; p < k->a->pairs; p++) {
		const struct pair_rec *pr = &k->pairs[p];

		pt_json_obj_begin(j, NULL);
		for (side = 0; side < 2; side++) {
			pt_json_obj_begin(j, side ? "b" : "a");
			pt_json_str(j, "dir", pr->run[side].dir);
			pt_json_num(j, "seconds", pr->run[side].seconds);
			pt_json_int(j, "exit_status", pr->run[side].status);
			pt_json_obj_end(j);
		}
		pt_json_uint(j, "tested", pr->res.tested);
		pt_json_uint(j, "worse", pr->res.regressions);
		pt_json_uint(j, "better", pr->res.improvements);
		pt_json_uint(j, "changed", pr->res.changed);
		pt_json_uint(j, "too_few", pr->res.too_few);
		pt_json_bool(j, "gate_fired", pr->res.regressions > 0);
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
}

static void write_json(const struct calib *k, FILE *f)
{
	const struct calib_args *a = k->a;
	struct pt_json j;

	pt_json_init(&j, f);
	pt_json_obj_begin(&j, NULL);
	pt_json_str(&j, "tool_version", PTBENCH_VERSION);
	pt_json_str(&j, "suite", a->suite);
	pt_json_str(&j, "reps", a->reps);
	pt_json_int(&j, "pairs", a->pairs);
	pt_json_str(&j, "runner", k->runner);
	pt_json_obj_begin(&j, "gate");
	pt_json_num(&j, "alpha", a->opts.alpha);
	pt_json_num(&j, "threshold_pct", a->opts.threshold_pct);
	pt_json_str(&j, "correction", pt_correction_name(a->opts.correction));
	pt_json_str(&j, "config", a->config_path);
	pt_json_obj_end(&j);
	pt_json_obj_begin(&j, "false_positives");
	pt_json_uint(&j, "gate_fired_pairs", k->fired);
	pt_json_num(&j, "gate_rate", (double)k->fired / a->pairs);
	pt_json_num(&j, "gate_rate_upper95", rate_upper95(k->fired, (size_t)a->pairs));
	pt_json_uint(&j, "any_significant_pairs", k->any_significant);
	pt_json_uint(&j, "series_tested", k->tested_total);
	pt_json_uint(&j, "series_significant", k->significant_total);
	pt_json_num(&j, "series_rate",
		    k->tested_total ? (double)k->significant_total / (double)k->tested_total : NAN);
	pt_json_uint(&j, "series_too_few", k->too_few_total);
	pt_json_uint(&j, "blind_pairs", k->blind_pairs);
	pt_json_obj_end(&j);
	json_detect(k, &j);
	json_runs(k, &j);
	pt_json_obj_end(&j);
}

static int write_file(const struct calib *k, const char *name,
		      void (*writer)(const struct calib *, FILE *))
{
	char path[4300], tmp[4400];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/%s", k->a->out, name);
	f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f) {
		fprintf(stderr, "ptbench calibrate: %s: %s\n", path, strerror(errno));
		return -1;
	}
	writer(k, f);
	err = pt_atomic_commit(f, tmp, path);
	if (err) {
		fprintf(stderr, "ptbench calibrate: %s: %s\n", path, strerror(-err));
		return -1;
	}
	return 0;
}

/* ---- setup and teardown ---- */

static int setup(struct calib *k, char *outbuf, size_t outlen, struct pt_cmp_config *cfg)
{
	const char *env = getenv("PTBENCH_CALIBRATE_RUNNER");
	char err[4400], logs[4300];
	ssize_t n;

	if (!k->a->out) {
		time_t t = time(NULL);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(outbuf, outlen, "results/calibrate-%Y%m%dT%H%M%SZ", &tm);
		k->a->out = outbuf;
	}
	if (strlen(k->a->out) > 3800)
		return pt_usage_error("calibrate", "--out: path too long");
	if (k->a->config_path) {
		if (pt_cmp_config_load(k->a->config_path, cfg, err, sizeof(err))) {
			fprintf(stderr, "ptbench calibrate: config: %s\n", err);
			return PT_EXIT_USAGE;
		}
		k->a->opts.config = cfg;
	}
	if (env && *env) {
		snprintf(k->runner, sizeof(k->runner), "%s", env);
	} else {
		n = readlink("/proc/self/exe", k->runner, sizeof(k->runner) - 1);
		if (n <= 0) {
			fprintf(stderr, "ptbench calibrate: /proc/self/exe: %s\n", strerror(errno));
			return PT_EXIT_FAIL;
		}
		k->runner[n] = '\0';
	}
	if (access(k->runner, X_OK))
		return pt_usage_error("calibrate", "runner %s is not executable: %s", k->runner,
				      strerror(errno));
	snprintf(logs, sizeof(logs), "%s/logs", k->a->out);
	if (mkdir_p(logs)) {
		fprintf(stderr, "ptbench calibrate: %s: %s\n", logs, strerror(errno));
		return PT_EXIT_USAGE;
	}
	k->pairs = calloc((size_t)k->a->pairs, sizeof(*k->pairs));
	if (!k->pairs)
		return PT_EXIT_FAIL;
	return 0;
}

static void teardown(struct calib *k)
{
	int p;

	for (p = 0; k->pairs && p < k->a->pairs; p++) {
		if (k->pairs[p].compared)
			pt_cmp_result_free(&k->pairs[p].res);
		if (k->pairs[p].loaded) {
			pt_rundir_free(&k->pairs[p].a);
			pt_rundir_free(&k->pairs[p].b);
		}
	}
	free(k->pairs);
	for (p = 0; p < (int)k->ndet; p++) {
		free(k->det[p].median);
		free(k->det[p].hits_aa);
	}
	free(k->det);
}

int cmd_calibrate(int argc, char **argv)
{
	struct calib_args a = { 0 };
	struct pt_cmp_config cfg = { 0 };
	struct calib k = { .a = &a };
	char outbuf[128];
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret == 1 ? PT_EXIT_OK : ret;
	ret = setup(&k, outbuf, sizeof(outbuf), &cfg);
	if (ret)
		goto out;
	fprintf(stderr, "calibrate: %d A/A pairs of suite '%s' into %s (runner %s)\n", a.pairs,
		a.suite, a.out, k.runner);
	k.started = now_s();
	pt_on_stop_signals(on_signal);
	ret = run_pairs(&k);
	if (!ret)
		ret = compare_pairs(&k);
	if (!ret && detect_all(&k))
		ret = PT_EXIT_FAIL;
	if (!ret && floor_loo(&k))
		ret = PT_EXIT_FAIL;
	if (!ret && (write_file(&k, "calibrate.json", write_json) ||
		     write_file(&k, "calibrate.txt", write_text) ||
		     write_file(&k, "gate.conf", write_gate_conf)))
		ret = PT_EXIT_FAIL;
	if (!ret) {
		write_text(&k, stdout);
		printf("\nwritten: %s/calibrate.json, %s/calibrate.txt, %s/gate.conf\n", a.out,
		       a.out, a.out);
	}
out:
	teardown(&k);
	pt_cmp_config_free(&cfg);
	return ret;
}
