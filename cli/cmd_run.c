// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "harness/runner.h"
#include "workloads/suite.h"
#include "util/knobs.h"
#include "harness/procmem.h"
#include "harness/steal.h"
#include "util/sysfs.h"
#include "harness/timer.h"

#define MAX_LIST 32

struct run_opts {
	const char *suite;
	enum pt_suite suite_id; /* parsed from suite */
	char *workloads;
	char *events;
	const char *case_glob;
	const char *out;
	const char *tag;
	int reps, warmup, cpu, lock_wait;
	uint64_t max_mem;
	double mem_frac;
	bool aslr;
	bool sequential;
	bool keep_page_reporting;
};

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench run [options]\n\n"
		"Runs a suite (or chosen workloads) and writes DIR/results.csv and DIR/meta.json.\n\n"
		"  --suite NAME        quick (default), full or ci\n"
		"  --workload W,...    only these workloads (see 'ptbench list')\n"
		"  --case GLOB         only cases whose name matches (fnmatch), e.g. 'chase-4k-*'\n"
		"  --reps N            measured repetitions per case (default 10)\n"
		"  --warmup N          unrecorded repetitions before them (default 1)\n"
		"  --sequential        all repetitions of a case before the next case\n"
		"                      (default: interleaved, round r runs repetition r of\n"
		"                      every case, so host noise does not hit one case)\n"
		"  --cpu N             pin to CPU N (OS numbering); default: the last CPU\n"
		"  --events LIST       counters, comma-separated libpfm4 names (default: the\n"
		"                      software events plus this CPU's TLB/walk events)\n"
		"  --max-mem SIZE      largest working set / region (quick, ci: 1G; full: 4G)\n"
		"  --mem-frac F        refuse cases needing more than F of MemAvailable (0.5)\n"
		"  --out DIR           output directory (default results/<UTC time>-<host>)\n"
		"  --tag NAME          a label stored in meta.json\n"
		"  --keep-page-reporting\n"
		"                      leave free page reporting on (default: paused for the\n"
		"                      run where the guest has it, restored at exit)\n"
		"  --lock-wait S       wait up to S seconds for another run's system changes\n"
		"                      to end (default 300), then exit 1\n"
		"  --aslr              keep address-space randomisation (default: off for\n"
		"                      ptbench's own process, so layouts repeat run to run)\n"
		"  -h, --help          this text\n\n"
		"Exit status: 0 every case ran, 1 a measurement or verification failed,\n"
		"2 bad usage (or an explicitly requested case the memory guard refuses).\n");
}

static int parse_int(const char *s, int min, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, 's' },
		{ "workload", required_argument, NULL, 'w' },
		{ "case", required_argument, NULL, 'C' },
		{ "reps", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "events", required_argument, NULL, 'e' },
		{ "max-mem", required_argument, NULL, 'm' },
		{ "mem-frac", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "tag", required_argument, NULL, 't' },
		{ "aslr", no_argument, NULL, 'A' },
		{ "sequential", no_argument, NULL, 'Q' },
		{ "keep-page-reporting", no_argument, NULL, 'K' },
		{ "lock-wait", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->suite = optarg;
			break;
		case 'w':
			o->workloads = optarg;
			break;
		case 'C':
			o->case_glob = optarg;
			break;
		case 'e':
			o->events = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 't':
			o->tag = optarg;
			break;
		case 'Q':
			o->sequential = true;
			break;
		case 'K':
			o->keep_page_reporting = true;
			break;
		case 'A':
			o->aslr = true;
			break;
		case 'r':
			if (parse_int(optarg, 1, &o->reps))
				return pt_usage_error("run",
						      "--reps needs a whole number >= 1, not '%s'",
						      optarg);
			break;
		case 'L':
			if (parse_int(optarg, 0, &o->lock_wait))
				return pt_usage_error(
					"run", "--lock-wait needs whole seconds >= 0, not '%s'",
					optarg);
			break;
		case 'W':
			if (parse_int(optarg, 0, &o->warmup))
				return pt_usage_error(
					"run", "--warmup needs a whole number >= 0, not '%s'",
					optarg);
			break;
		case 'c':
			if (parse_int(optarg, 0, &o->cpu))
				return pt_usage_error("run", "--cpu needs a CPU number, not '%s'",
						      optarg);
			break;
		case 'm':
			if (pt_size_parse(optarg, &o->max_mem) || !o->max_mem)
				return pt_usage_error(
					"run", "--max-mem needs a size like 512M or 4G, not '%s'",
					optarg);
			break;
		case 'f':
			o->mem_frac = strtod(optarg, &end);
			if (*end || end == optarg || o->mem_frac <= 0 || o->mem_frac > 1)
				return pt_usage_error(
					"run", "--mem-frac needs a number in (0, 1], not '%s'",
					optarg);
			break;
		case 'h':
			run_usage(stdout);
			return -1;
		default:
			return pt_usage_error("run", "unknown option");
		}
	}
	if (optind < argc)
		return pt_usage_error("run", "unexpected argument '%s'", argv[optind]);
	if (pt_suite_parse(o->suite, &o->suite_id))
		return pt_usage_error("run", "unknown suite '%s' (quick, full, ci)", o->suite);
	return 0;
}

/* Split a comma list in place. */
static size_t split_list(char *s, const char **items, size_t max)
{
	size_t n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
		if (*tok)
			items[n++] = tok;
	return n;
}

static int select_workloads(char *list, const struct pt_workload **sel, size_t *nsel)
{
	const char *names[MAX_LIST];
	size_t n, i;

	*nsel = 0;
	if (!list) {
		for (i = 0; pt_workloads[i] && i < MAX_LIST; i++)
			sel[(*nsel)++] = pt_workloads[i];
		return 0;
	}
	n = split_list(list, names, MAX_LIST);
	for (i = 0; i < n; i++) {
		sel[*nsel] = pt_workload_find(names[i]);
		if (!sel[*nsel])
			return pt_usage_error("run", "unknown workload '%s' (see 'ptbench list')",
					      names[i]);
		(*nsel)++;
	}
	return 0;
}

static int collect_cases(struct pt_run *run, const struct run_opts *o,
			 const struct pt_workload **sel, size_t nsel)
{
	struct pt_suite_opts so;
	struct pt_case *cases = calloc(PT_MAX_CASES, sizeof(*cases));
	size_t i, cap = 0;
	int n, k;

	if (!cases)
		return -1;
	pt_suite_opts_init(&so, o->suite_id, o->max_mem);
	for (i = 0; i < nsel; i++) {
		n = sel[i]->cases(&so, cases, PT_MAX_CASES);
		for (k = 0; k < n; k++) {
			if (o->case_glob && fnmatch(o->case_glob, cases[k].name, 0))
				continue;
			if (run->nresults == cap) {
				cap = cap ? cap * 2 : 64;
				run->results = realloc(run->results, cap * sizeof(*run->results));
				if (!run->results)
					abort();
			}
			memset(&run->results[run->nresults], 0, sizeof(*run->results));
			run->results[run->nresults].w = sel[i];
			run->results[run->nresults++].c = cases[k];
		}
	}
	free(cases);
	return 0;
}

/* An explicit request the memory guard refuses is a usage error. */
static int check_explicit_guard(const struct pt_run *run)
{
	char msg[200];
	size_t i;

	for (i = 0; run->explicit_request && i < run->nresults; i++) {
		const struct pt_case_result *res = &run->results[i];

		if (pt_memory_guard(res->c.mem_bytes, run->mem_frac, msg, sizeof(msg)))
			return pt_usage_error(
				"run", "%s %s refused: %s (lower --max-mem or raise --mem-frac)",
				res->w->name, res->c.name, msg);
	}
	return 0;
}

static int open_counters(struct pt_run *run, char *events)
{
	const char *names[PT_MAX_EVENTS];
	char err[256] = "";
	size_t n = 0;
	int ret;

	if (events)
		n = split_list(events, names, PT_MAX_EVENTS);
	ret = pt_counters_open(&run->ctr, events ? names : NULL, n, err, sizeof(err));
	if (ret == -2)
		return pt_usage_error("run", "--events: %s", err);
	if (ret)
		fprintf(stderr,
			"ptbench run: counters could not be set up; none will be recorded\n");
	return 0;
}

static int make_out_dir(struct pt_run *run, const char *out, char *buf, size_t len)
{
	char host[64] = "host", stamp[32], *p;

	if (!out) {
		pt_utc_now(stamp, sizeof(stamp));
		for (p = stamp; *p; p++)
			if (*p == '-' || *p == ':')
				memmove(p, p + 1, strlen(p));
		gethostname(host, sizeof(host) - 1);
		snprintf(buf, len, "results/%s-%s", stamp, host);
		out = buf;
		mkdir("results", 0755);
	}
	if (!mkdir(out, 0755)) {
		pt_cleanup_dir(out); /* an interrupted run leaves no empty directory */
	} else if (errno != EEXIST) {
		fprintf(stderr, "ptbench run: cannot create output directory '%s': %s\n", out,
			strerror(errno));
		return PT_EXIT_USAGE;
	}
	run->out_dir = out;
	return 0;
}

static void join_args(int argc, char **argv, char *buf, size_t len)
{
	size_t used;
	int i;

	used = (size_t)snprintf(buf, len, "ptbench");
	for (i = 0; i < argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, " %s", argv[i]);
}

#define PAGE_REPORTING_ORDER "/sys/module/page_reporting/parameters/page_reporting_order"

/* Largest buddy order: per-order columns of /proc/buddyinfo minus one; -1 unknown. */
static int buddy_max_order(void)
{
	char buf[1024], *save = NULL, *tok;
	int n = 0, i = 0;

	if (pt_sys_read("/proc/buddyinfo", buf, sizeof(buf)) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	/* "Node 0, zone   DMA32   c0 c1 ... cN": four words, then one count per order */
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		n += i++ >= 4;
	return n ? n - 1 : -1;
}

/*
 * A guest with free page reporting (virtio-balloon) hands memory freed for
 * a while back to the host, which drops it; the next touch then faults in
 * the host too. Between repetitions that is most of what a run frees. An
 * order above the buddy allocator's largest means nothing is reported
 * (restored at exit). An order already above it was set by another run
 * still going: left alone, so the two restores cannot cross.
 */
static void pause_page_reporting(struct pt_run *run, bool keep)
{
	char cur[32], want[16];
	int max = buddy_max_order();

	if (pt_sys_read_choice(PAGE_REPORTING_ORDER, cur, sizeof(cur))) {
		snprintf(run->page_reporting, sizeof(run->page_reporting), "absent");
		return;
	}
	if (keep || max < 0) {
		snprintf(run->page_reporting, sizeof(run->page_reporting), "on (order %s%s)", cur,
			 keep ? "" : "; largest buddy order unknown");
		return;
	}
	if (atoi(cur) > max) {
		snprintf(run->page_reporting, sizeof(run->page_reporting),
			 "paused already (order %s)", cur);
		return;
	}
	snprintf(want, sizeof(want), "%d", max + 1);
	if (pt_knob_set(PAGE_REPORTING_ORDER, want))
		snprintf(run->page_reporting, sizeof(run->page_reporting),
			 "on (order %s; cannot pause)", cur);
	else
		snprintf(run->page_reporting, sizeof(run->page_reporting),
			 "paused (order %s -> %d)", cur, max + 1);
}

static int prepare(struct pt_run *run, struct run_opts *o, char *outbuf, size_t outlen)
{
	const struct pt_workload *sel[MAX_LIST];
	char csv[1100];
	size_t nsel;
	int ret;

	ret = select_workloads(o->workloads, sel, &nsel);
	if (!ret)
		ret = open_counters(run, o->events);
	if (ret)
		return ret;
	if (collect_cases(run, o, sel, nsel))
		return PT_EXIT_FAIL;
	if (!run->nresults)
		return pt_usage_error("run", "no case matches the selection");
	ret = check_explicit_guard(run);
	if (ret)
		return ret;
	if (pt_pin_thread(o->cpu, &run->binding) == -2)
		return pt_usage_error("run", "--cpu %d: %s", o->cpu, run->binding.err);
	pause_page_reporting(run, o->keep_page_reporting);
	if (pt_regime_detect(&run->regime))
		fprintf(stderr, "ptbench run: the translation regime could not be derived\n");
	ret = make_out_dir(run, o->out, outbuf, outlen);
	if (ret)
		return ret;
	snprintf(csv, sizeof(csv), "%s/results.csv", run->out_dir);
	if (pt_sink_open(&run->sink, csv)) {
		fprintf(stderr, "ptbench run: cannot write '%s': %s\n", csv, strerror(errno));
		return PT_EXIT_USAGE;
	}
	return 0;
}

static int finish(struct pt_run *run, int failed)
{
	int status = failed ? PT_EXIT_FAIL : PT_EXIT_OK;

	if (pt_sink_close(run->sink)) {
		fprintf(stderr, "ptbench run: writing results.csv in %s failed\n", run->out_dir);
		status = PT_EXIT_FAIL;
	}
	run->sink = NULL;
	if (pt_run_write_meta(run, status)) {
		fprintf(stderr, "ptbench run: writing meta.json in %s failed\n", run->out_dir);
		status = PT_EXIT_FAIL;
	}
	pt_run_print_summary(run);
	printf("\nresults: %s/results.csv\nmeta:    %s/meta.json\nregime:  %s\n", run->out_dir,
	       run->out_dir, run->regime.text);
	if (failed)
		fprintf(stderr, "ptbench run: %d case(s) failed; see the notes in meta.json\n",
			failed);
	return status;
}

/*
 * Address-space randomisation moves every mapping from run to run, and with
 * it the page tables the process needs and where its data lands in the
 * caches (will-it-scale turns it off for this reason). ptbench turns it off
 * for its own process only, with personality(ADDR_NO_RANDOMIZE) and a
 * re-exec, never system-wide. On failure the run goes on randomised;
 * meta.json says which it was.
 */
static void reexec_without_aslr(int argc, char **argv)
{
	int cur = personality(0xffffffff), i;
	char **args;

	if (cur < 0 || (cur & ADDR_NO_RANDOMIZE))
		return;
	args = calloc((size_t)argc + 2, sizeof(*args));
	if (!args || personality((unsigned long)cur | ADDR_NO_RANDOMIZE) < 0) {
		free(args);
		return;
	}
	args[0] = "ptbench";
	for (i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	fflush(NULL);
	execv("/proc/self/exe", args);
	personality((unsigned long)cur);
	free(args);
}

/*
 * Before anything reads a knob: wait for another run's changes to end, and
 * undo what a run killed by SIGKILL left (it would read as the baseline).
 */
static int take_knob_lock(int wait_s)
{
	char note[1200];
	int err = pt_knob_lock(wait_s, note, sizeof(note));

	if (err == -EBUSY) {
		fprintf(stderr, "ptbench run: %s\n", note);
		return PT_EXIT_FAIL;
	}
	/* not root (no /run/ptbench): no knob can change, nothing to own */
	if (!err && note[0])
		fprintf(stderr, "ptbench run: %s\n", note);
	return 0;
}

int cmd_run(int argc, char **argv)
{
	/*
	 * 10 repetitions: the gate's rank test needs 10 samples a side
	 * (2 / C(20, 10) = 1.1e-5) for a Holm-corrected p to reach 0.01 over
	 * the ~400 varying series of a run; with 5 (0.0079) it cannot fire.
	 */
	struct run_opts o = {
		.suite = "quick", .reps = 10, .warmup = 1, .cpu = -1, .mem_frac = 0.5,
		.lock_wait = PT_KNOB_LOCK_WAIT_S
	};
	struct pt_run run;
	char outbuf[256];
	int ret, failed;

	char **orig = calloc((size_t)argc + 1, sizeof(*orig));

	if (!orig)
		return PT_EXIT_FAIL;
	memcpy(orig, argv, (size_t)argc * sizeof(*orig)); /* getopt permutes argv */
	memset(&run, 0, sizeof(run));
	join_args(argc, argv, run.command_line, sizeof(run.command_line));
	ret = parse_args(argc, argv, &o);
	if (!ret && !o.aslr)
		reexec_without_aslr(argc, orig);
	free(orig);
	if (ret)
		return ret < 0 ? PT_EXIT_OK : ret;
	run.suite = o.suite;
	run.reps = o.reps;
	run.warmup = o.warmup;
	run.interleave = !o.sequential;
	run.tag = o.tag;
	run.mem_frac = o.mem_frac;
	run.explicit_request = o.workloads || o.case_glob;
	pt_run_new_id(run.run_id, sizeof(run.run_id));
	pt_utc_now(run.started_utc, sizeof(run.started_utc));
	run.started_mono_s = (double)pt_now_ns() / 1e9;
	if (pt_steal_read(&run.steal_start_s))
		run.steal_start_s = NAN;
	pt_knob_install_handlers();
	ret = take_knob_lock(o.lock_wait);
	if (!ret)
		ret = prepare(&run, &o, outbuf, sizeof(outbuf));
	if (ret) {
		pt_sink_abort(run.sink);
		pt_counters_close(run.ctr);
		free(run.results);
		return ret;
	}
	fprintf(stderr,
		"ptbench run: %zu cases, %d reps (+%d warm-up, %s), pinned to %s, free page "
		"reporting %s, %s\n",
		run.nresults, run.reps, run.warmup, run.interleave ? "interleaved" : "sequential",
		run.binding.ok ? run.binding.cpuset : "nothing", run.page_reporting,
		run.regime.text);
	failed = pt_run_cases(&run);
	pt_cleanup_dir(NULL);
	pt_knob_restore_all();
	ret = finish(&run, failed);
	pt_counters_close(run.ctr);
	free(run.results);
	return ret;
}
