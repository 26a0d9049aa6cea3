// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model walk combine RUN...: several calibrations' D128/D64
 * predictions side by side, their envelope, and how often k runs' envelope
 * holds another run's prediction (analysis/walkcombine.c computes; this
 * file reads the files and prints).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/walkcombine.h"
#include "cli/cmd_walk.h"
#include "cli/commands.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/fileio.h"
#include "util/path.h"

#define MAX_CSV_BYTES (64u << 20)
/* coverage is printed for k = 1 .. this (or the runs less one) */
#define MAX_K 10
/* the share of points an envelope should hold to call k runs enough */
#define ENOUGH 0.90

static const char *const stage_name[PT_D128_AT_N] = { "guest", "host", "both" };

static void usage(void)
{
	printf("usage: ptbench model walk combine [-o FILE] RUN RUN...\n"
	       "\n"
	       "Combines the D128/D64 predictions (modelled) of several calibrations\n"
	       "('ptbench model walk calibrate'), e.g. of runs made at different times on\n"
	       "one host. RUN: a run directory holding walk_model.csv, or the file itself;\n"
	       "at least two, at most %d.\n"
	       "\n"
	       "One run's range covers its own repetitions and the configurations that pass\n"
	       "on it; on a host whose state drifts, the next run may choose another\n"
	       "effective LLC and say something outside it. Per case and stage (guest, host,\n"
	       "both) this prints the median of the runs' predictions, their smallest and\n"
	       "largest, and the envelope of their ranges; then, for k = 1 to %d runs,\n"
	       "coverage: over k-subsets of the runs, the share of the other runs'\n"
	       "predictions (cases some run puts at least %.2f from 1) inside the subset's\n"
	       "envelope, and the smallest k whose share is at least %.0f%%.\n"
	       "\n"
	       "  -o FILE   also write the combination as CSV: source, case, backing,\n"
	       "            ws_bytes, runs, d128_over_d64 (the median), _min, _max, _lo, _hi\n"
	       "            (the envelope); created safely, renamed into place\n"
	       "\n"
	       "Exit 2 for fewer than two runs, a run given twice, or a file that is not\n"
	       "walk_model.csv. docs/walk.md, \"Combining runs\".\n",
	       PT_WALKCOMBINE_MAX_RUNS, MAX_K, PT_WALKCOMBINE_EFFECT, ENOUGH * 100);
}

/* RUN as the path of its walk_model.csv: a directory's, or the file named. */
static int csv_path(const char *run, char *path, size_t len)
{
	struct stat st;

	if (stat(run, &st))
		return pt_usage_error(CMD, "combine: %s: %s", run, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		snprintf(path, len, "%s", run);
		return 0;
	}
	if (pt_path_join(path, len, run, "walk_model.csv"))
		return pt_usage_error(CMD, "combine: %s: path too long", run);
	return 0;
}

static int add_run(struct pt_walkcombine *c, const char *run, char (*seen)[PATH_MAX])
{
	char path[PATH_MAX], real[PATH_MAX], err[768];
	size_t len, r;
	char *buf;
	int ret;

	ret = csv_path(run, path, sizeof(path));
	if (ret)
		return ret;
	if (!realpath(path, real))
		return pt_usage_error(CMD, "combine: %s: %s", path, strerror(errno));
	for (r = 0; r < c->nruns; r++)
		if (!strcmp(seen[r], real))
			return pt_usage_error(CMD, "combine: %s: given twice (%s)", run, real);
	buf = pt_read_file(path, MAX_CSV_BYTES, &len, err, sizeof(err));
	if (!buf)
		return pt_usage_error(CMD, "combine: %s", err);
	ret = pt_walkcombine_add(c, buf, len, path, err, sizeof(err));
	free(buf);
	if (ret)
		return pt_usage_error(CMD, "combine: %s", err);
	snprintf(seen[c->nruns - 1], PATH_MAX, "%s", real);
	return 0;
}

static void print_table(const struct pt_walkcombine *c)
{
	struct pt_walkcombine_summary s;
	size_t i, none = 0;
	int e;

	printf("# case                 runs   d128/d64 guest: median (runs' min-max) [envelope]"
	       "   host   both\n");
	for (i = 0; i < c->ncases; i++) {
		bool any = false;

		for (e = 0; e < PT_D128_AT_N; e++)
			any |= pt_walkcombine_has_effect(c, i, e);
		if (!any) {
			none++;
			continue;
		}
		pt_walkcombine_summarize(c, i, PT_D128_BOTH, &s);
		printf("# %-20s %4zu", c->cases[i].name, s.runs);
		for (e = 0; e < PT_D128_AT_N; e++) {
			pt_walkcombine_summarize(c, i, e, &s);
			printf("   %.3f (%.3f-%.3f) [%.3f,%.3f]", s.median, s.pmin, s.pmax, s.lo,
			       s.hi);
		}
		printf("\n");
	}
	printf("# %zu of %zu cases at 1.000 (within %.2f) in every run and stage: in the CSV "
	       "only\n",
	       none, c->ncases, PT_WALKCOMBINE_EFFECT);
}

static int print_coverage(const struct pt_walkcombine *c)
{
	size_t kmax = c->nruns - 1 < MAX_K ? c->nruns - 1 : MAX_K, k;
	int e;

	printf("# coverage: over k-subsets of the %zu runs, each other run's predictions "
	       "inside the subset's envelope (k = 1: one run's own range)\n",
	       c->nruns);
	for (e = 0; e < PT_D128_AT_N; e++) {
		size_t enough = 0;

		for (k = 1; k <= kmax; k++) {
			struct pt_walkcombine_coverage cov;

			if (pt_walkcombine_cover(c, e, k, &cov))
				return -1;
			if (!cov.points)
				continue;
			printf("coverage: stage=%s runs=%zu inside=%.3f points=%zu subsets=%zu%s\n",
			       stage_name[e], k, (double)cov.inside / cov.points, cov.points,
			       cov.subsets, cov.sampled ? " (drawn)" : "");
			if (!enough && (double)cov.inside / cov.points >= ENOUGH)
				enough = k;
		}
		if (enough)
			printf("enough: stage=%s runs=%zu (coverage at least %.2f)\n",
			       stage_name[e], enough, ENOUGH);
		else
			printf("enough: stage=%s none of 1-%zu runs (coverage at least %.2f)\n",
			       stage_name[e], kmax, ENOUGH);
	}
	return 0;
}

static void csv_row(FILE *f, const struct pt_walkcombine *c, size_t i, enum pt_d128_at e)
{
	const struct pt_walkcombine_case *k = &c->cases[i];
	struct pt_walkcombine_summary s;
	char name[sizeof(k->name) * 2 + 3], backing[sizeof(k->backing) * 2 + 3];

	pt_walkcombine_summarize(c, i, e, &s);
	if (pt_csv_escape(k->name, name, sizeof(name)) ||
	    pt_csv_escape(k->backing, backing, sizeof(backing)))
		return;
	fprintf(f, "%s,%s,%s,%llu,%zu", pt_walkcombine_source(e), name, backing,
		(unsigned long long)k->ws, s.runs);
	pt_csv_put_num(f, s.median);
	pt_csv_put_num(f, s.pmin);
	pt_csv_put_num(f, s.pmax);
	pt_csv_put_num(f, s.lo);
	pt_csv_put_num(f, s.hi);
	fputc('\n', f);
}

static int write_csv(const struct pt_walkcombine *c, const char *out)
{
	char tmp[PATH_MAX];
	struct stat st;
	size_t i;
	FILE *f;
	int e, r;

	if (!stat(out, &st) && S_ISDIR(st.st_mode))
		return pt_usage_error(CMD, "combine: -o %s: is a directory; name the CSV file",
				      out);
	f = pt_atomic_open(out, tmp, sizeof(tmp));
	if (!f)
		return pt_usage_error(CMD, "combine: -o %s: cannot create: %s", out,
				      strerror(errno));
	fprintf(f, "source,case,backing,ws_bytes,runs,d128_over_d64,d128_over_d64_min,"
		   "d128_over_d64_max,d128_over_d64_lo,d128_over_d64_hi\n");
	for (e = 0; e < PT_D128_AT_N; e++)
		for (i = 0; i < c->ncases; i++)
			csv_row(f, c, i, e);
	r = pt_atomic_commit(f, tmp, out);
	if (r) {
		fprintf(stderr, "ptbench: %s: write failed: %s\n", out, strerror(-r));
		return PT_EXIT_FAIL;
	}
	return 0;
}

static int combine(char **runs, int n, const char *out)
{
	static char seen[PT_WALKCOMBINE_MAX_RUNS][PATH_MAX];
	struct pt_walkcombine c;
	size_t r;
	int i, ret = 0;

	if (n < 2)
		return pt_usage_error(CMD, "combine: needs at least two runs (RUN: a directory "
					   "with walk_model.csv, or the file)");
	if (n > PT_WALKCOMBINE_MAX_RUNS)
		return pt_usage_error(CMD, "combine: %d runs; at most %d", n,
				      PT_WALKCOMBINE_MAX_RUNS);
	if (pt_walkcombine_init(&c))
		return fprintf(stderr, "ptbench: out of memory\n"), PT_EXIT_FAIL;
	for (i = 0; i < n && !ret; i++)
		ret = add_run(&c, runs[i], seen);
	if (ret)
		goto out;
	printf("# %zu runs' D128/D64 predictions (modelled: the translation model fitted to each "
	       "run's tlb sweep; leaves out what that model leaves out, docs/walk.md)\n",
	       c.nruns);
	for (r = 0; r < c.nruns; r++)
		printf("run: %zu %s hypothesis=%s\n", r + 1, seen[r],
		       c.hyp[r][0] ? c.hyp[r] : "(none)");
	print_table(&c);
	if (print_coverage(&c)) {
		fprintf(stderr, "ptbench: out of memory\n");
		ret = PT_EXIT_FAIL;
		goto out;
	}
	if (out)
		ret = write_csv(&c, out);
out:
	pt_walkcombine_free(&c);
	return ret;
}

int walk_combine(int argc, char **argv)
{
	const char *out = NULL;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", walk_long_opts, NULL)) != -1) {
		if (c == 'h')
			return usage(), PT_EXIT_OK;
		else if (c == 'o')
			out = optarg;
		else
			return walk_opt_error("combine: ", c, argv);
	}
	return combine(argv + optind, argc - optind, out);
}
