// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model walk: the trace-driven TLB and page-walk simulator
 * (model/walk_*.h) on synthetic patterns, lackey traces or binary traces;
 * "convert" turns lackey output into the binary format; "calibrate" fits
 * the latencies to a run's tlb sweep and predicts D128 (docs/walk.md);
 * "combine" sets several runs' predictions side by side.
 * This file parses the simulation's options; cmd_walk_sim.c runs it.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cmd_walk.h"
#include "cli/commands.h"
#include "util/units.h"

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: ptbench model walk [options]\n"
		"       ptbench model walk convert --lackey IN|- -o OUT\n"
		"       ptbench model walk calibrate --results DIR [-o FILE] [--structures auto|all]\n"
		"                                   [--config F] [--set K=V]\n"
		"       ptbench model walk combine [-o FILE] RUN RUN...   (several runs' D128/D64)\n"
		"\n"
		"Simulates TLBs, page-walk caches and data caches for D64 and D128 page tables.\n"
		"\n"
		"input (one of):\n"
		"  --pattern chase|dense|seq|stride|random|chase-half|chase-quarter\n"
		"                     synthetic accesses (default chase; chase-half: every\n"
		"                     second page, chase-quarter: every fourth)\n"
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
		"  --stage2 none|d64|d128  nested paging: the host's (stage-2) format; none\n"
		"                     (default) is the one-stage model. --formats is then the\n"
		"                     guest's. Patterns only. Keys stage2.* size the host side\n"
		"  --host-backing 4k|thp   host page for guest memory (stage2.backing; default 4k)\n"
		"  --ipa BITS         guest-physical address size (stage2.ipa.bits; default 48)\n"
		"  --set shadow=on    the hardware walks a shadow of the guest's tables with\n"
		"                     4K leaves (a shadow-paging host such as PVM), alone or\n"
		"                     over --stage2\n"
		"\n"
		"output:\n"
		"  -o FILE            CSV (default stdout), one row per format\n"
		"  --bench            time the simulation; print accesses per second\n"
		"  --bench-reps N     timed runs of the counted accesses, after one warm-up\n"
		"                     (default 5); the median, min and max are printed\n"
		"  --threads 1|2|auto  2: a one-stage pattern run puts one format's data caches\n"
		"                     in a second thread, or spreads several formats over\n"
		"                     two; the counts are the same (auto, the default: 2 when\n"
		"                     this process may run on two CPUs, e.g. not under\n"
		"                     taskset -c 1)\n"
		"\nconfiguration keys and defaults:\n");
	for (i = 0; pt_walk_cfg_key(i); i++) {
		char v[64];
		struct pt_walk_cfg c;

		pt_walk_cfg_default(&c);
		pt_walk_cfg_value(&c, i, v, sizeof(v));
		fprintf(f, "  %-20s %s\n", pt_walk_cfg_key(i), v);
	}
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

static int number_opt(int c, const char *arg, struct walk_opts *o)
{
	uint64_t v;
	int bad;

	if (c == OPT_WS || c == OPT_STRIDE)
		bad = pt_size_parse(arg, &v) || !v;
	else if (c == OPT_ACCESSES)
		/* no accesses would print rates computed over nothing */
		bad = walk_parse_u64(arg, &v) || !v;
	else
		bad = walk_parse_u64(arg, &v);
	if (bad)
		return pt_usage_error(CMD, "bad number '%s' for --%s", arg, walk_opt_name(c));
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

static int other_opt(int c, const char *arg, struct walk_opts *o, const char **formats,
		     char *const *argv)
{
	switch (c) {
	case OPT_PATTERN:
		if (pt_pattern_parse(arg, &o->pattern))
			return pt_usage_error(
				CMD,
				"--pattern %s: use chase, dense, seq, stride, random, chase-half or "
				"chase-quarter",
				arg);
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

		if (walk_parse_u64(arg, &v) || !v || v > BENCH_REPS_MAX)
			return pt_usage_error(CMD, "--bench-reps %s: expected 1 to %d", arg,
					      BENCH_REPS_MAX);
		o->bench_reps = (unsigned)v;
		return 0;
	}
	case OPT_THREADS:
		if (!strcmp(arg, "auto"))
			o->threads = 0;
		else if (!strcmp(arg, "1") || !strcmp(arg, "2"))
			o->threads = (unsigned)(arg[0] - '0');
		else
			return pt_usage_error(CMD, "--threads %s: expected 1, 2 or auto", arg);
		return 0;
	case 'o':
		o->out = arg;
		return 0;
	default:
		return walk_opt_error("", c, argv);
	}
}

static int check_inputs(const struct walk_opts *o)
{
	int n = o->have_pattern + !!o->lackey + !!o->trace;

	if (n > 1)
		return pt_usage_error(CMD, "give one of --pattern, --lackey, --trace");
	if (o->bench && (o->lackey || o->trace))
		return pt_usage_error(CMD, "--bench times a --pattern");
	if (o->threads == 2 && (o->lackey || o->trace || o->cfg.s2.format >= 0))
		return pt_usage_error(CMD, "--threads 2: only a one-stage --pattern run uses two");
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
	while ((c = getopt_long(argc, argv, ":o:h", walk_long_opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return -1;
		}
		if (c >= OPT_WS && c <= OPT_SEED)
			r = number_opt(c, optarg, o);
		else if (walk_is_config_opt(c))
			r = walk_config_opt(c, optarg, o);
		else if (c == OPT_RESULTS || c == OPT_STRUCTURES || c == OPT_STAT || c == OPT_DROP)
			r = pt_usage_error(CMD, "--%s is an option of 'calibrate'; see --help",
					   c == OPT_RESULTS	 ? "results"
					   : c == OPT_STRUCTURES ? "structures"
					   : c == OPT_STAT	 ? "stat"
								 : "drop");
		else if (c == '?' || c == ':')
			r = walk_opt_error("", c, argv);
		else
			r = other_opt(c, optarg, o, &formats, argv);
		if (r)
			return r;
	}
	if (optind < argc)
		return pt_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
	if (check_inputs(o))
		return PT_EXIT_USAGE;
	return make_formats(o, formats);
}

static int walk_run(int argc, char **argv)
{
	struct walk_opts o;
	int r = parse_run_opts(argc, argv, &o);

	if (r)
		return r < 0 ? PT_EXIT_OK : r;
	return walk_simulate(&o);
}

int cmd_model_walk(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "convert"))
		return walk_convert(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "calibrate"))
		return walk_calibrate(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "combine"))
		return walk_combine(argc - 1, argv + 1);
	return walk_run(argc, argv);
}
