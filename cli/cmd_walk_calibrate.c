// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model walk calibrate: fit the walk model's latencies to a run's
 * tlb sweep (analysis/calibpoints.h, analysis/walkcalib.h), print them
 * with each point's fit and D128 prediction, write walk_model.csv.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/calibpoints.h"
#include "analysis/walkcalib.h"
#include "cli/cmd_walk.h"
#include "cli/commands.h"
#include "harness/hostcache.h"
#include "util/atomicfile.h"

#define MAX_HOST_CACHES 8

/* This machine's data caches into cfg, saying what was rounded and how many were found. */
static void use_host_caches(struct pt_walk_cfg *cfg)
{
	struct pt_host_cache c[MAX_HOST_CACHES];
	size_t n = pt_host_caches_read(c, MAX_HOST_CACHES), i;

	for (i = 0; i < n; i++) {
		if (c[i].sim_sets == c[i].sets)
			continue;
		printf("# L%u from sysfs: %s in %llu ways is %llu sets, not a power of two: "
		       "simulated with %llu sets (%llu KiB)\n",
		       c[i].level, c[i].size, (unsigned long long)c[i].ways,
		       (unsigned long long)c[i].sets, (unsigned long long)c[i].sim_sets,
		       (unsigned long long)(c[i].bytes / 1024));
	}
	pt_host_caches_apply(c, n, cfg);
	printf("# data caches from this machine's sysfs: %zu levels found\n", n);
}

static void report(const struct pt_calib_point *p, size_t n, const double *lat, double rms,
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

static int write_model(const char *path, const struct pt_calib_point *p, size_t n,
		       const double *lat)
{
	char tmp[PATH_MAX];
	FILE *f = pt_atomic_open(path, tmp, sizeof(tmp));

	if (!f)
		return pt_usage_error(CMD, "-o %s: cannot create: %s", path, strerror(errno));
	pt_walkcalib_csv(f, p, n, lat);
	if (pt_atomic_commit(f, tmp, path)) {
		fprintf(stderr, "ptbench: %s: write failed\n", path);
		return PT_EXIT_FAIL;
	}
	printf("# wrote %s\n", path);
	return 0;
}

static int calibrate(const struct walk_opts *o, const char *dir, const char *out)
{
	static struct pt_calib_point pts[PT_CALIB_MAX_POINTS];
	double lat[PT_LAT_N], rms;
	char err[1024], path[PATH_MAX];
	struct pt_rundir run;
	size_t n;
	int r;

	memset(&run, 0, sizeof(run));
	if (pt_rundir_read(dir, &run, err, sizeof(err)))
		return pt_usage_error(CMD, "--results %s", err);
	r = pt_calib_points_from_run(&run, pts, PT_CALIB_MAX_POINTS, &n, err, sizeof(err));
	pt_rundir_free(&run);
	if (r)
		return pt_usage_error(CMD, "%s", err);
	if (pt_walkcalib_fit(pts, n, &o->cfg, lat, &rms, err, sizeof(err)))
		return pt_usage_error(CMD, "%s", err);
	report(pts, n, lat, rms, o->cfg.ghz);
	if (!out) {
		if (snprintf(path, sizeof(path), "%s/walk_model.csv", dir) >= (int)sizeof(path))
			return pt_usage_error(CMD, "--results %s: path too long", dir);
		out = path;
	}
	return write_model(out, pts, n, lat);
}

static void usage(void)
{
	printf("usage: ptbench model walk calibrate --results DIR [-o FILE] "
	       "[--no-host-caches] [--config F] [--set K=V]\n"
	       "Fits the latencies to DIR/results.csv (workload tlb) and writes "
	       "DIR/walk_model.csv (docs/walk.md). The data caches are this "
	       "machine's (sysfs) unless --no-host-caches.\n");
}

int walk_calibrate(int argc, char **argv)
{
	const char *dir = NULL, *out = NULL;
	struct walk_opts o;
	bool host = true;
	int c, r = 0;

	memset(&o, 0, sizeof(o));
	pt_walk_cfg_default(&o.cfg);
	/* first pass: --no-host-caches decides the base the other options modify */
	for (c = 1; c < argc; c++)
		if (!strcmp(argv[c], "--no-host-caches"))
			host = false;
	if (host)
		use_host_caches(&o.cfg);
	optind = 1;
	opterr = 0;
	while (!r && (c = getopt_long(argc, argv, "o:h", walk_long_opts, NULL)) != -1) {
		if (c == 'h')
			return usage(), PT_EXIT_OK;
		else if (c == OPT_NO_HOST_CACHES)
			continue;
		else if (c == OPT_RESULTS)
			dir = optarg;
		else if (c == 'o')
			out = optarg;
		else if (walk_is_config_opt(c))
			r = walk_config_opt(c, optarg, &o);
		else
			r = pt_usage_error(CMD, "calibrate: unknown option '%s'", argv[optind - 1]);
	}
	if (r)
		return r;
	if (!dir || optind < argc)
		return pt_usage_error(CMD, "calibrate: needs --results DIR");
	return calibrate(&o, dir, out);
}
