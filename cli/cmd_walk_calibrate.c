// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model walk calibrate: choose the machine's structure and fit the
 * walk model's latencies to a run's tlb sweep (analysis/calibpoints.h,
 * analysis/walkcalib.h), print the hypotheses, the fit and held-out errors,
 * each point's D128 ranges and the half-density check, write walk_model.csv.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calibpoints.h"
#include "analysis/walkcalib.h"
#include "cli/cmd_walk.h"
#include "cli/commands.h"
#include "harness/hostcache.h"
#include "util/atomicfile.h"
#include "util/parse.h"

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
	if (n)
		return;
	/* a guest without a sysfs cache directory: its CPU's L1 and L2, never the LLC */
	n = pt_host_caches_cpuid(c, MAX_HOST_CACHES);
	pt_host_caches_apply(c, n, cfg);
	for (i = 0; i < n; i++)
		printf("# L%u from CPUID: %llu KiB, %llu ways\n", c[i].level,
		       (unsigned long long)(c[i].bytes >> 10), (unsigned long long)c[i].ways);
}

static int write_model(const char *path, const struct pt_walkcalib *c)
{
	char tmp[PATH_MAX];
	FILE *f = pt_atomic_open(path, tmp, sizeof(tmp));

	if (!f)
		return pt_usage_error(CMD, "-o %s: cannot create: %s", path, strerror(errno));
	pt_walkcalib_csv(f, c);
	if (pt_atomic_commit(f, tmp, path)) {
		fprintf(stderr, "ptbench: %s: write failed\n", path);
		return PT_EXIT_FAIL;
	}
	printf("# wrote %s\n", path);
	return 0;
}

static int calibrate(const struct walk_opts *o, const struct pt_walkcalib_opts *co, const char *dir,
		     const char *out)
{
	static struct pt_calib_point pts[PT_CALIB_MAX_POINTS];
	char err[1024], path[PATH_MAX];
	struct pt_walkcalib c;
	struct pt_rundir run;
	size_t n;
	int r;

	memset(&run, 0, sizeof(run));
	if (pt_rundir_read(dir, &run, err, sizeof(err)))
		return pt_usage_error(CMD, "--results %s", err);
	if (!out) {
		if (snprintf(path, sizeof(path), "%s/walk_model.csv", dir) >= (int)sizeof(path)) {
			pt_rundir_free(&run);
			return pt_usage_error(CMD, "--results %s: path too long", dir);
		}
		out = path;
	}
	r = pt_calib_points_from_run(&run, co->stat, pts, PT_CALIB_MAX_POINTS, &n, err,
				     sizeof(err));
	if (r) {
		pt_rundir_free(&run);
		return pt_usage_error(CMD, "%s", err);
	}
	/* the repetitions stay in run: the weights and the bootstrap read them */
	r = pt_walkcalib_run(&c, &o->cfg, co, pts, n, &run, err, sizeof(err));
	if (r) {
		r = pt_usage_error(CMD, "%s", err);
	} else {
		walk_calibrate_print(&run, &c, co->stage2_forced);
		r = write_model(out, &c);
	}
	pt_walkcalib_free(&c);
	pt_rundir_free(&run);
	return r;
}

static void usage(void)
{
	printf("usage: ptbench model walk calibrate --results DIR [-o FILE] [--no-host-caches]\n"
	       "       [--structures auto|all] [--stat median|gmean] [--drop F]\n"
	       "       [--stage2 none|d64|d128 [--host-backing 4k|thp] [--ipa BITS]]\n"
	       "       [--config F] [--set K=V]\n"
	       "Fits the latencies to DIR/results.csv (workload tlb) and writes "
	       "DIR/walk_model.csv (docs/walk.md). Each case is the statistic --stat of its "
	       "repetitions (gmean, the default: their geometric mean; or median), and with an "
	       "interleaved run each case's prediction the same statistic of its rounds'. "
	       "The data caches are this "
	       "machine's (sysfs; without it, L1 and L2 from CPUID) unless "
	       "--no-host-caches. The structure (one "
	       "stage; a shadow with 4K leaves; nested, host 4K or THP, guest layout "
	       "scatter or linear, with or without the shadow) and "
	       "the effective LLC (1M-32M) are chosen by held-out error unless "
	       "--stage2 fixes the one (a native host: --stage2 none) or --set or "
	       "--config gives cache.llc.size, the only size then tried. Which structures are "
	       "searched, --structures auto (default): what DIR/meta.json "
	       "records, one stage on a native host, the three with a shadow "
	       "where it records shadow paging (PVM), the four nested ones "
	       "without a shadow where it records nested paging (KVM), else "
	       "all eight; all: all "
	       "eight. With --stage2, --set shadow=on "
	       "makes the first stage a shadow with 4K leaves (PVM). The TLB sizes "
	       "(L1 32-96, L2 1024-4096 entries) are chosen the same way unless "
	       "--set or --config gives a tlb.* size; the TLBs' replacement (LRU or "
	       "random at the chosen sizes) unless it gives tlb.replacement, then "
	       "the L1 TLB's alone unless it gives either or tlb.l1.replacement; and "
	       "the LLC's replacement (LRU or random, each at every size) unless it "
	       "gives cache.llc.replacement; then the entries others insert into the "
	       "L2 TLB per lookup (1/64, 1/16, 1/4) unless it gives tlb.l2.evictions; with two "
	       "stages, last, the nested TLB's size (1024-8192 entries) "
	       "unless it gives a stage2.tlb.* key. A structure whose held-out error after its "
	       "LLC and TLB sizes is more than --drop times the best's (default 2; 0: never) "
	       "is searched no further: it cannot pass. Every structure that passes (held-out "
	       "error within 1.25 times the best's) is searched again with data loads filling "
	       "their 128-byte pair, not one line (its name ending -pairs: the LLC's size alone "
	       "searched again, at the structure's TLBs and replacement), unless --set or "
	       "--config gives cache.prefetch.lines, which is then kept. Prints 'fit: rms_rel_err=X', "
	       "'fit_floor: rms_rel_err=F shape=S' (F: the least fit the chosen structure can "
	       "reach, as cases it simulates alike get one cost and their measured differences "
	       "stay; S: the rest, fit^2 = F^2 + S^2; on a guest whose recorded paging "
	       "restricted the structures, where F > S, a comment names --structures all), "
	       "'noise: rms_rel_err=Z' (each case's statistic resampled from its repetitions: "
	       "the fit error a model exact for every case would still show; half= the same "
	       "for the half-density checks), "
	       "'heldout: rms_rel_err=Y huge=A ws=B' (the chosen configuration's: the "
	       "smallest of those tried, so biased low), 'heldout_nested: ...' (the same "
	       "with the choice made without each working set in turn), the D128/D64 "
	       "ranges (guest, "
	       "host, both), 'unsteady:' (the cases whose repetitions differ by more than "
	       "1.5x: the host changed state between them; each case's smallest and largest "
	       "repetition are in the table) and 'half:' lines for chase-half cases "
	       "(never fitted, never used to choose).\n");
}

/* --structures auto|all */
static int structures_opt(const char *arg, bool *all)
{
	if (strcmp(arg, "auto") && strcmp(arg, "all"))
		return pt_usage_error(CMD, "calibrate: --structures '%s': expected auto or all",
				      arg);
	*all = !strcmp(arg, "all");
	return 0;
}

/* --stat median|gmean */
static int stat_opt(const char *arg, enum pt_calib_stat *s)
{
	if (!strcmp(arg, "median"))
		*s = PT_CALIB_MEDIAN;
	else if (!strcmp(arg, "gmean"))
		*s = PT_CALIB_GMEAN;
	else
		return pt_usage_error(CMD, "calibrate: --stat '%s': expected median or gmean", arg);
	return 0;
}

/* --drop F: 0, or a factor at least PT_WALKCALIB_PASS (a structure dropped must not pass) */
static int drop_opt(const char *arg, double *drop)
{
	if (pt_parse_double(arg, 0, 1000, drop) || (*drop > 0 && *drop < PT_WALKCALIB_PASS))
		return pt_usage_error(CMD,
				      "calibrate: --drop '%s': expected 0 (search every structure "
				      "whole) or a factor from %g to 1000",
				      arg, PT_WALKCALIB_PASS);
	return 0;
}

/* A configuration option on o (its error, exit 2, is the one reported), then on probe. */
static int config_opt(int c, const char *arg, struct walk_opts *o, struct walk_opts *probe)
{
	int r = walk_config_opt(c, arg, o);

	return r ? r : walk_config_opt(c, arg, probe);
}

int walk_calibrate(int argc, char **argv)
{
	const char *dir = NULL, *out = NULL;
	struct pt_walkcalib_opts co = { .stat = PT_CALIB_GMEAN, .drop = PT_WALKCALIB_DROP };
	struct walk_opts o, probe;
	bool host = true, forced = false, all = false;
	int c, r = 0;

	memset(&o, 0, sizeof(o));
	pt_walk_cfg_default(&o.cfg);
	/*
	 * The same options on a configuration whose TLB sizes are 0: any that
	 * is not 0 afterwards the user gave (--set tlb.*, --config), and the
	 * calibration keeps it instead of searching, whatever its value.
	 */
	probe = o;
	probe.cfg.l1tlb_entries = probe.cfg.l2tlb_entries = 0;
	probe.cfg.l1tlb_ways = probe.cfg.l2tlb_ways = 0;
	/* the same for the LLC's and the TLBs' replacement: o starts LRU, probe random */
	probe.cfg.cache[2].random = true;
	probe.cfg.tlb_random = probe.cfg.l1tlb_random = true;
	probe.cfg.l2tlb_evictions = -1; /* no value a key accepts */
	probe.cfg.s2.tlb_entries = probe.cfg.s2.tlb_ways = 0;
	probe.cfg.cache[2].size_bytes = 0;
	probe.cfg.prefetch_lines = 0; /* no value the key accepts */
	/* first pass: --no-host-caches decides the base the other options modify */
	for (c = 1; c < argc; c++) {
		if (!strcmp(argv[c], "--no-host-caches"))
			host = false;
		/* help is the usage alone, not the host's cache notes before it */
		if (!strcmp(argv[c], "--help") || !strcmp(argv[c], "-h"))
			return usage(), PT_EXIT_OK;
	}
	if (host)
		use_host_caches(&o.cfg);
	optind = 1;
	opterr = 0;
	while (!r && (c = getopt_long(argc, argv, ":o:h", walk_long_opts, NULL)) != -1) {
		/* --stage2 fixes the structure; --set stage2=... only sets the start */
		forced |= c == OPT_STAGE2;
		if (c == 'h')
			return usage(), PT_EXIT_OK;
		else if (c == OPT_NO_HOST_CACHES)
			continue;
		else if (c == OPT_RESULTS)
			dir = optarg;
		else if (c == OPT_STRUCTURES)
			r = structures_opt(optarg, &all);
		else if (c == OPT_STAT)
			r = stat_opt(optarg, &co.stat);
		else if (c == OPT_DROP)
			r = drop_opt(optarg, &co.drop);
		else if (c == 'o')
			out = optarg;
		else if (walk_is_config_opt(c))
			r = config_opt(c, optarg, &o, &probe);
		else
			r = walk_opt_error("calibrate: ", c, argv);
	}
	if (r)
		return r;
	if (!dir || optind < argc)
		return pt_usage_error(CMD, "calibrate: needs --results DIR");
	co.stage2_forced = forced;
	co.all_structures = all;
	co.progress = stderr;
	co.tlb_forced = probe.cfg.l1tlb_entries || probe.cfg.l2tlb_entries ||
			probe.cfg.l1tlb_ways || probe.cfg.l2tlb_ways;
	co.repl_forced = o.cfg.cache[2].random || !probe.cfg.cache[2].random;
	co.tlb_repl_forced = o.cfg.tlb_random || !probe.cfg.tlb_random;
	co.l1tlb_repl_forced = o.cfg.l1tlb_random || !probe.cfg.l1tlb_random;
	co.evictions_forced = probe.cfg.l2tlb_evictions != -1;
	co.ntlb_forced = probe.cfg.s2.tlb_entries || probe.cfg.s2.tlb_ways;
	co.llc_forced = probe.cfg.cache[2].size_bytes != 0;
	co.pairs_forced = probe.cfg.prefetch_lines != 0;
	return calibrate(&o, &co, dir, out);
}
