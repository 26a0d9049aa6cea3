// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench run: select the cases, set up counters, pinning, the output
 * directory and the kernel knobs a run needs, run them (harness/runner.c)
 * and write results.csv and meta.json. Options: run_opts.c; the cases:
 * run_cases.c.
 */
#include <errno.h>
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
#include "cli/run.h"
#include "harness/guestwarm.h"
#include "harness/page_reporting.h"
#include "util/units.h"
#include "harness/virt.h"
#include "harness/procmem.h"
#include "harness/runner.h"
#include "harness/steal.h"
#include "harness/timer.h"
#include "util/knobs.h"
#include "util/outdir.h"
#include "util/parse.h"
#include "util/path.h"
#include "util/sysfs.h"
#include "workloads/suite.h"

#define MAX_LIST 32

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

/* Probed only when a selected case is profiled: kallsyms is read once, here. */
static int open_profiler(struct pt_run *run, const struct run_opts *o)
{
	const char *off = NULL;
	bool wanted = false;
	size_t i;

	for (i = 0; i < run->nresults; i++)
		wanted = wanted || run->results[i].w->profile;
	if (o->no_profile)
		off = "turned off by --no-profile";
	else if (!wanted)
		off = "no selected workload is profiled";
	run->prof = pt_profile_new(o->profile_period_ns, off);
	if (!run->prof)
		return PT_EXIT_FAIL;
	if (!off && !pt_profile_usable(run->prof))
		fprintf(stderr, "ptbench run: no profiled repetitions: %s\n",
			pt_profile_reason(run->prof));
	return 0;
}

static int make_out_dir(struct pt_run *run, const char *out, bool force, char *buf, size_t len,
			bool *created)
{
	char host[64] = "host", stamp[32], err[PATH_MAX + 200], *p;

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
	if (pt_outdir_prepare(out, force, created, err, sizeof(err)))
		return pt_usage_error("run", "--out %s", err);
	if (*created)
		pt_cleanup_dir(out); /* an interrupted run leaves no empty directory */
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

/*
 * The main thread's CPU: fixed (the last one unless --cpu N), or picked
 * each round (--cpu pick, harness/cpupick.h). The first binding is made
 * either way, for what runs before the rounds.
 */
static int pin_main(struct pt_run *run, const struct run_opts *o)
{
	static struct pt_cpu_pick pick;

	if (o->cpu == RUN_CPU_PICK) {
		if (!pt_cpu_pick_init(&pick))
			run->pick = &pick;
		else
			fprintf(stderr, "ptbench run: --cpu pick: fewer than 2 CPUs to pick from "
					"(or the affinity unreadable); pinned to the last\n");
	}
	if (pt_pin_thread(o->cpu >= 0 ? o->cpu : -1, &run->binding) == -2)
		return pt_usage_error("run", "--cpu %d: %s", o->cpu, run->binding.err);
	return 0;
}

static int prepare(struct pt_run *run, struct run_opts *o, char *outbuf, size_t outlen)
{
	const struct pt_workload *sel[MAX_LIST];
	char csv[PATH_MAX], why[256];
	bool created;
	size_t nsel;
	int ret;

	ret = select_workloads(o->workloads, sel, &nsel);
	if (!ret)
		ret = open_counters(run, o->events);
	if (ret)
		return ret;
	if (run_collect_cases(run, o, sel, nsel))
		return PT_EXIT_FAIL;
	if (!run->nresults)
		return pt_usage_error("run", "no case matches the selection");
	ret = open_profiler(run, o);
	if (ret)
		return ret;
	ret = run_check_explicit_guard(run);
	if (ret)
		return ret;
	ret = pin_main(run, o);
	if (ret)
		return ret;
	/* before a setting changes or guest memory is touched: a refused --out costs nothing */
	ret = make_out_dir(run, o->out, o->force, outbuf, outlen, &created);
	if (ret)
		return ret;
	pt_page_reporting_pause(o->keep_page_reporting, run->page_reporting,
				sizeof(run->page_reporting));
	if (pt_run_warm_guest(run, o->warm_guest ? o->warm_guest : "auto", why, sizeof(why))) {
		if (created)
			rmdir(run->out_dir); /* a refused run leaves no directory behind */
		return pt_usage_error("run", "--warm-guest %s: %s", o->warm_guest, why);
	}
	if (pt_regime_detect(&run->regime))
		fprintf(stderr, "ptbench run: the translation regime could not be derived\n");
	if (pt_path_join(csv, sizeof(csv), run->out_dir, "results.csv"))
		return pt_usage_error("run", "--out %s: %s", run->out_dir, strerror(errno));
	ret = pt_sink_open(&run->sink, csv);
	if (ret) {
		fprintf(stderr, "ptbench run: cannot create %s: %s\n", csv, strerror(-ret));
		return PT_EXIT_FAIL;
	}
	/* meta.json from the start, complete: false, so a killed run says what it was */
	if (pt_run_write_meta(run, -1)) {
		fprintf(stderr, "ptbench run: writing %s/meta.json: %s\n", run->out_dir,
			strerror(errno));
		return PT_EXIT_FAIL;
	}
	return 0;
}

static int finish(struct pt_run *run, int failed)
{
	int status = failed ? PT_EXIT_FAIL : PT_EXIT_OK;

	char csv[PATH_MAX];
	int err;

	snprintf(csv, sizeof(csv), "%s", pt_sink_path(run->sink));
	err = pt_sink_close(run->sink);
	run->sink = NULL;
	if (err) {
		fprintf(stderr, "ptbench run: writing %s: %s\n", csv, strerror(-err));
		run->write_err = -err;
	}
	if (run->write_err)
		status = PT_EXIT_FAIL;
	if (pt_run_write_meta(run, status)) {
		fprintf(stderr,
			"ptbench run: writing %s/meta.json: %s (the last one written says "
			"complete: false)\n",
			run->out_dir, strerror(errno));
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
	struct run_opts o = { .suite = "quick",
			      .reps = 10,
			      .warmup = 1,
			      .budget_s = -1,
			      .cpu = RUN_CPU_LAST,
			      .mem_frac = 0.5,
			      .profile_period_ns = PT_PROFILE_PERIOD_DEFAULT_NS,
			      .lock_wait = PT_KNOB_LOCK_WAIT_S };
	struct pt_run run;
	char outbuf[256], budget[64] = "";
	int ret, failed;

	char **orig = calloc((size_t)argc + 1, sizeof(*orig));

	if (!orig)
		return PT_EXIT_FAIL;
	memcpy(orig, argv, (size_t)argc * sizeof(*orig)); /* getopt permutes argv */
	memset(&run, 0, sizeof(run));
	join_args(argc, argv, run.command_line, sizeof(run.command_line));
	ret = run_parse_args(argc, argv, &o);
	if (!ret && !o.aslr)
		reexec_without_aslr(argc, orig);
	free(orig);
	if (ret)
		return ret < 0 ? PT_EXIT_OK : ret;
	run.suite = o.suite;
	run.reps = o.reps;
	run.reps_planned = o.reps;
	run.budget_s = o.budget_s;
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
		pt_profile_free(run.prof);
		free(run.results);
		return ret;
	}
	/* only self-warming workloads (tlb): no warm-up round to run, and meta.json says 0 */
	if (pt_run_self_warming(&run) == run.nresults)
		run.warmup = 0;
	if (run.budget_s > 0)
		snprintf(budget, sizeof(budget), ", fewer where a %.0f s budget asks",
			 run.budget_s);
	fprintf(stderr,
		"ptbench run: %zu cases, %d reps%s (+%d warm-up, %s), pinned to %s, free page "
		"reporting %s, %s\n",
		run.nresults, run.reps, budget, run.warmup,
		run.interleave ? "interleaved" : "sequential",
		run.pick	 ? "the fastest CPU each round"
		: run.binding.ok ? run.binding.cpuset
				 : "nothing",
		run.page_reporting, run.regime.text);
	failed = pt_run_cases(&run);
	pt_cleanup_dir(NULL);
	pt_knob_restore_all();
	ret = finish(&run, failed);
	pt_counters_close(run.ctr);
	pt_profile_free(run.prof);
	if (run.pick)
		pt_cpu_pick_free(run.pick);
	free(run.results);
	return ret;
}
