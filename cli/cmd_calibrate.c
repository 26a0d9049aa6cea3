// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench calibrate: know the noise. Runs a suite as A/A pairs (two runs
 * of the same build, back to back), then hands them to the A/A statistics
 * (analysis/aa_calibrate.h) and writes what they found
 * (analysis/aa_report.h). This file parses the options and runs the runs.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/aa_calibrate.h"
#include "analysis/aa_report.h"
#include "cli/calibrate.h"
#include "cli/commands.h"
#include "util/atomicfile.h"
#include "util/child.h"
#include "util/path.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

static void progress(const struct calib_args *a, double started, int pair, int side)
{
	int done = 2 * pair + side, total = 2 * a->pairs;
	double el = now_s() - started;
	char e[32], left[64] = "";

	fmt_duration(el, e, sizeof(e));
	if (done > 0) {
		char l[24];

		fmt_duration(el / done * (total - done), l, sizeof(l));
		snprintf(left, sizeof(left), ", about %s left", l);
	}
	fprintf(stderr, "calibrate: pair %d/%d, run %c running (%d/%d runs done, %s elapsed%s)\n",
		pair + 1, a->pairs, side ? 'b' : 'a', done, total, e, left);
}

/*
 * "RUNNER run --suite S --reps N --out DIR --force [RUN-OPTIONS...]":
 * --force because DIR is calibrate's own, and a calibrate run again into
 * the same --out must replace the runs there, not be refused (or, worse,
 * read the old ones).
 */
static void run_argv(const struct calib_args *a, const char *out, char **argv)
{
	int n = 0, i;

	argv[n++] = (char *)a->runner;
	argv[n++] = "run";
	argv[n++] = "--suite";
	argv[n++] = (char *)a->suite;
	/*
	 * Always given: without --reps the quick suite keeps to a time budget
	 * (run --budget), and the A/A runs would not all measure alike.
	 */
	argv[n++] = "--reps";
	argv[n++] = a->reps ? (char *)a->reps : "10";
	argv[n++] = "--out";
	argv[n++] = (char *)out;
	argv[n++] = "--force";
	for (i = 0; i < a->nextra; i++)
		argv[n++] = a->extra[i];
	argv[n] = NULL;
}

/* One run of the suite into rec->dir; 0 when it left a results.csv, else an exit status. */
static int run_once(const struct calib_args *a, double started, int pair, int side,
		    struct pt_aa_run *rec)
{
	char log[PATH_MAX], csv[PATH_MAX], name[32], *argv[16 + CALIB_MAX_EXTRA];
	double t0 = now_s();
	int ret;

	snprintf(name, sizeof(name), "logs/pair-%03d-%c.log", pair + 1, side ? 'b' : 'a');
	if (pt_path_join(log, sizeof(log), a->out, name) ||
	    pt_path_join(csv, sizeof(csv), rec->dir, "results.csv")) {
		fprintf(stderr, "ptbench calibrate: %s: %s\n", a->out, strerror(errno));
		return PT_EXIT_FAIL;
	}
	progress(a, started, pair, side);
	run_argv(a, rec->dir, argv);
	ret = pt_child_run("ptbench calibrate", argv, log, &rec->status);
	if (ret > 0) {
		fprintf(stderr,
			"calibrate: interrupted (signal %d); the run was stopped and reaped\n",
			ret);
		return 128 + ret;
	}
	if (ret < 0) {
		fprintf(stderr, "ptbench calibrate: fork: %s\n", strerror(errno));
		return PT_EXIT_FAIL;
	}
	rec->seconds = now_s() - t0;
	if (access(csv, R_OK)) {
		fprintf(stderr,
			"ptbench calibrate: run %s exited with status %d and wrote no results.csv; "
			"see %s\n",
			rec->dir, rec->status, log);
		return PT_EXIT_FAIL;
	}
	if (rec->status)
		fprintf(stderr,
			"ptbench calibrate: warning: run %s exited with status %d (see %s); "
			"its results are used\n",
			rec->dir, rec->status, log);
	return 0;
}

static int run_pairs(const struct calib_args *a, struct pt_aa *k)
{
	double started = now_s();
	char dir[PATH_MAX], name[16];
	int p, side, ret;

	for (p = 0; p < a->pairs; p++) {
		snprintf(name, sizeof(name), "pair-%03d", p + 1);
		if (pt_path_join(dir, sizeof(dir), a->out, name) || pt_mkdir_p(dir, 0755)) {
			fprintf(stderr, "ptbench calibrate: %s/%s: %s\n", a->out, name,
				strerror(errno));
			return PT_EXIT_FAIL;
		}
		for (side = 0; side < 2; side++) {
			struct pt_aa_run *rec = &k->pairs[p].run[side];

			if (pt_path_join(rec->dir, sizeof(rec->dir), dir, side ? "b" : "a")) {
				fprintf(stderr, "ptbench calibrate: %s: %s\n", dir,
					strerror(errno));
				return PT_EXIT_FAIL;
			}
			ret = run_once(a, started, p, side, rec);
			if (ret)
				return ret;
		}
	}
	fmt_duration(now_s() - started, dir, sizeof(dir));
	fprintf(stderr, "calibrate: all %d runs finished in %s; comparing\n", 2 * a->pairs, dir);
	return 0;
}

static int analyse(struct pt_aa *k)
{
	char err[PATH_MAX + 256];
	int p;

	for (p = 0; p < k->npairs; p++)
		if (pt_aa_load(k, p, err, sizeof(err))) {
			fprintf(stderr, "ptbench calibrate: %s\n", err);
			return PT_EXIT_FAIL;
		}
	return pt_aa_analyse(k) ? PT_EXIT_FAIL : 0;
}

static int write_file(const struct pt_aa_report *r, const char *out, const char *name,
		      void (*writer)(const struct pt_aa_report *, FILE *))
{
	char path[PATH_MAX], tmp[PATH_MAX];
	FILE *f = NULL;
	int err;

	if (!pt_path_join(path, sizeof(path), out, name))
		f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f) {
		fprintf(stderr, "ptbench calibrate: %s/%s: %s\n", out, name, strerror(errno));
		return -1;
	}
	writer(r, f);
	err = pt_atomic_commit(f, tmp, path);
	if (err) {
		fprintf(stderr, "ptbench calibrate: %s: %s\n", path, strerror(-err));
		return -1;
	}
	return 0;
}

static int write_outputs(const struct calib_args *a, const struct pt_aa *k)
{
	const struct pt_aa_report r = {
		.k = k,
		.suite = a->suite,
		.reps = a->reps,
		.runner = a->runner,
		.config_path = a->config_path,
		.tool_version = PTBENCH_VERSION,
	};

	if (write_file(&r, a->out, "calibrate.json", pt_aa_write_json) ||
	    write_file(&r, a->out, "calibrate.txt", pt_aa_write_text) ||
	    write_file(&r, a->out, "gate.conf", pt_aa_write_gate_conf))
		return PT_EXIT_FAIL;
	pt_aa_write_text(&r, stdout);
	printf("\nwritten: %s/calibrate.json, %s/calibrate.txt, %s/gate.conf\n", a->out, a->out,
	       a->out);
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calib_args a = { 0 };
	struct pt_cmp_config cfg = { 0 };
	struct pt_aa k = { 0 };
	char outbuf[128], runner[PATH_MAX];
	int ret;

	ret = calib_parse_args(argc, argv, &a);
	if (ret)
		return ret == 1 ? PT_EXIT_OK : ret;
	ret = calib_setup(&a, outbuf, sizeof(outbuf), runner, sizeof(runner), &cfg);
	if (ret)
		goto out;
	if (pt_aa_init(&k, a.pairs, &a.opts, &a.floor)) {
		ret = PT_EXIT_FAIL;
		goto out;
	}
	fprintf(stderr, "calibrate: %d A/A pairs of suite '%s' into %s (runner %s)\n", a.pairs,
		a.suite, a.out, a.runner);
	pt_child_forward_signals();
	ret = run_pairs(&a, &k);
	if (!ret)
		ret = analyse(&k);
	if (!ret)
		ret = write_outputs(&a, &k);
out:
	pt_aa_free(&k);
	pt_cmp_config_free(&cfg);
	return ret;
}
