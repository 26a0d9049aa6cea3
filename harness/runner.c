// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <sys/personality.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/runner.h"
#include "harness/procmem.h"
#include "harness/runbudget.h"
#include "harness/steal.h"
#include "harness/timer.h"
#include "util/atomicfile.h"
#include "util/json.h"
#include "util/knobs.h"
#include "util/path.h"
#include "util/stats.h"

void pt_utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void pt_run_new_id(char *buf, size_t len)
{
	struct timespec ts;

	/* the real file, not a fixture's: an id must be unique, not posed */
	FILE *f = fopen("/proc/sys/kernel/random/uuid", "r");

	if (f) {
		bool ok = fgets(buf, (int)len, f) != NULL;

		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		if (ok && strlen(buf) >= 32)
			return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, len, "t%lld-%09ld-p%d", (long long)ts.tv_sec, ts.tv_nsec, (int)getpid());
}

static void record_note(void *ctx, const char *text)
{
	struct pt_case_result *res = ctx;
	size_t used = strlen(res->notes);
	const char *prefix = res->note_prefix ? res->note_prefix : "";
	char full[512];

	snprintf(full, sizeof(full), "%s%s", prefix, text);
	if (strstr(res->notes, full))
		return; /* the same note from every repetition: once */
	snprintf(res->notes + used, sizeof(res->notes) - used, "%s%s", used ? "; " : "", full);
}

static void record_row(void *ctx, const char *metric, double value)
{
	struct pt_case_result *res = ctx;

	if (!strncmp(metric, "profile_", 8))
		res->profile_rows++;

	if (strcmp(metric, pt_case_primary(res->w, &res->c)))
		return;
	res->primary_seen = true;
	if (res->nprimary < 64) {
		res->primary_rep[res->nprimary] = res->current_rep;
		res->primary[res->nprimary++] = value;
	}
}

static void progress(const struct pt_run *run, size_t i, int rep, const char *what)
{
	const struct pt_case_result *res = &run->results[i];

	if (!isatty(STDERR_FILENO))
		return;
	if (what[0] == 'p') /* the one profiled repetition */
		fprintf(stderr, "\r\033[K[%zu/%zu] %s %s: %s", i + 1, run->nresults, res->w->name,
			res->c.name, what);
	else
		fprintf(stderr, "\r\033[K[%zu/%zu] %s %s: %s %d/%d", i + 1, run->nresults,
			res->w->name, res->c.name, what, rep,
			what[0] == 'w' ? run->warmup : run->reps);
}

static void progress_done(const struct pt_run *run, size_t i)
{
	const struct pt_case_result *res = &run->results[i];
	static const char *const status[] = { "ok", "FAILED", "skipped" };
	struct pt_summary s;

	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	fprintf(stderr, "[%zu/%zu] %s %s: %s", i + 1, run->nresults, res->w->name, res->c.name,
		status[res->status]);
	if (res->nprimary && !pt_summarize(res->primary, (size_t)res->nprimary, &s))
		fprintf(stderr, ", %s median %.4g (cv %.1f%%)", pt_case_primary(res->w, &res->c),
			s.median, s.cv * 100);
	if (res->notes[0])
		fprintf(stderr, " (%s)", res->notes);
	fputc('\n', stderr);
}

/* Memory guard: a refused case inside a suite is skipped with a note. */
static bool guard_refuses(struct pt_run *run, struct pt_case_result *res)
{
	char msg[200];

	if (!pt_memory_guard(res->c.mem_bytes, run->mem_frac, msg, sizeof(msg)))
		return false;
	res->status = PT_CASE_SKIPPED;
	record_note(res, msg);
	return true;
}

/* A transient refusal: counted by reason, the first few reasons kept. */
static void record_retry(struct pt_case_result *res, const char *why)
{
	size_t i, n = sizeof(res->retry_reasons) / sizeof(res->retry_reasons[0]);

	res->retries++;
	for (i = 0; i < n; i++) {
		struct pt_retry_reason *rr = &res->retry_reasons[i];

		if (!rr->count)
			snprintf(rr->why, sizeof(rr->why), "%s", why);
		if (!strcmp(rr->why, why)) {
			rr->count++;
			return;
		}
	}
}

/*
 * A profiled repetition: the samples of one run of the workload. The
 * workload's value, or -2 with a note when the sampling could not start.
 */
static int profiled_run(struct pt_run *run, struct pt_case_result *res, struct pt_rep *r)
{
	char err[200];
	int ret;

	if (pt_profile_start(run->prof, err, sizeof(err))) {
		record_note(res, err);
		return -2;
	}
	r->prof = run->prof;
	ret = res->w->run(&res->c, r);
	pt_profile_stop(run->prof);
	return ret;
}

static int run_one_rep(struct pt_run *run, struct pt_case_result *res, int rep, bool warmup,
		       bool profiled)
{
	struct pt_sink_mark mark = { 0 };
	int ret, attempt, nprimary;
	struct pt_rep r;

	for (attempt = 0;; attempt++) {
		memset(&r, 0, sizeof(r));
		r.c = &res->c;
		r.workload = res->w->name;
		r.rep = rep;
		r.warmup = warmup;
		r.sink = run->sink;
		r.ctr = run->ctr;
		r.on_note = record_note;
		r.note_ctx = res;
		r.on_emit = record_row;
		r.emit_ctx = res;
		pt_rep_reset(&r);
		if (run->sink)
			mark = pt_sink_mark(run->sink);
		nprimary = res->nprimary;
		res->primary_seen = false;
		res->profile_rows = 0;
		res->current_rep = rep;
		ret = profiled ? profiled_run(run, res, &r) : res->w->run(&res->c, &r);
		if (ret == -2)
			return -1; /* the sampling did not start: noted */
		if (!r.retry)
			break;
		/* a retried repetition leaves no row and no sample behind */
		if (run->sink)
			pt_sink_rewind(run->sink, mark);
		res->nprimary = nprimary;
		if (attempt == PT_REP_RETRIES) {
			char note[sizeof(r.msg) + 64];

			snprintf(note, sizeof(note), "%s (still after %d retries)",
				 r.msg[0] ? r.msg : "transient refusal", PT_REP_RETRIES);
			record_note(res, note);
			return -1;
		}
		record_retry(res, r.msg[0] ? r.msg : "transient refusal");
	}
	if (ret < 0 || r.failed) {
		record_note(res, r.msg[0] ? r.msg : "measurement failed");
		return -1;
	}
	if (ret > 0 || r.skipped) {
		record_note(res, r.msg[0] ? r.msg : "not supported here");
		return 1;
	}
	/*
	 * The gate judges the declared metric: a repetition without it proves
	 * nothing (a warm-up emits no rows at all).
	 */
	if (!warmup && !profiled && !res->primary_seen) {
		char msg[160];

		snprintf(msg, sizeof(msg), "the case's primary metric %s was not emitted",
			 pt_case_primary(res->w, &res->c));
		record_note(res, msg);
		return -1;
	}
	return 0;
}

/* One repetition of case i, with its steal time; marks the case failed or skipped. */
static void case_rep(struct pt_run *run, size_t i, int rep, bool warmup)
{
	struct pt_case_result *res = &run->results[i];
	double steal0, steal1;
	bool steal_known = !pt_steal_read(&steal0);
	double t0 = (double)pt_now_ns() / 1e9;
	int ret;

	if (warmup && res->w->self_warming)
		return;
	progress(run, i, rep + 1, warmup ? "warm-up" : "rep");
	ret = run_one_rep(run, res, warmup ? -1 - rep : rep, warmup, false);
	res->last_rep_s = (double)pt_now_ns() / 1e9 - t0;
	if (steal_known && !pt_steal_read(&steal1))
		res->steal_s = (isnan(res->steal_s) ? 0 : res->steal_s) + steal1 - steal0;
	if (!warmup)
		res->reps_ok += !ret;
	if (ret < 0)
		res->status = PT_CASE_FAILED;
	else if (ret > 0)
		res->status = PT_CASE_SKIPPED;
}

/*
 * The sampled repetition after the timed ones (rep = run->reps): only
 * profile_* rows. Its failure drops its rows and leaves a note; the case
 * keeps the status of its timed repetitions, which verified themselves.
 */
static void case_profile(struct pt_run *run, size_t i)
{
	struct pt_case_result *res = &run->results[i];
	struct pt_sink_mark mark = { 0 };
	int ret;

	if (!res->w->profile || !pt_profile_usable(run->prof) || res->status != PT_CASE_OK)
		return;
	progress(run, i, 0, "profiled repetition");
	if (run->sink)
		mark = pt_sink_mark(run->sink);
	res->note_prefix = "profiled repetition: ";
	ret = run_one_rep(run, res, run->reps, false, true);
	if (!ret && !res->profile_rows) {
		record_note(res, "the workload emitted no per-operation rows to profile");
		ret = -1;
	}
	res->note_prefix = NULL;
	if (!ret) {
		res->profiled = true;
		res->ntop = pt_profile_top(run->prof, res->top, PT_PROF_TOP);
		memcpy(res->stall_ns, pt_profile_tally(run->prof)->stall_ns, sizeof(res->stall_ns));
		return;
	}
	if (run->sink)
		pt_sink_rewind(run->sink, mark);
}

static void run_case(struct pt_run *run, size_t i)
{
	struct pt_case_result *res = &run->results[i];
	int rep;

	for (rep = 0; rep < run->warmup && res->status == PT_CASE_OK; rep++)
		case_rep(run, i, rep, true);
	for (rep = 0; rep < run->reps && res->status == PT_CASE_OK; rep++)
		case_rep(run, i, rep, false);
	case_profile(run, i);
	pt_run_checkpoint(run);
}

/*
 * After round done of an interleaved run with a budget: as many
 * repetitions as the time left holds at the longest round so far, the
 * profiled repetitions (one of each profiled case, estimated at its latest
 * repetition's time) kept out of it. Only ever fewer, never below the
 * rounds already run.
 */
static void fit_budget(struct pt_run *run, int done, double elapsed)
{
	struct pt_budget_in in = { .budget_s = run->budget_s,
				   .elapsed_s = elapsed,
				   .round_s = run->round_max_s,
				   .warmup = run->warmup,
				   .reps = run->reps,
				   .rounds_done = done };
	double est;
	size_t i;
	int reps;

	for (i = 0; i < run->nresults; i++) {
		const struct pt_case_result *res = &run->results[i];

		if (res->status == PT_CASE_OK && res->w->profile && pt_profile_usable(run->prof))
			in.profile_s += res->last_rep_s;
	}
	reps = pt_budget_reps(&in);
	if (reps >= run->reps)
		return;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	est = elapsed + (run->warmup + reps - done) * run->round_max_s + in.profile_s;
	fprintf(stderr,
		"ptbench run: a round takes up to %.0f s and the profiled repetitions about "
		"%.0f s: %d repetitions, not %d, for the %.0f s budget; about %.0f s in all%s "
		"(--budget 0 or --reps N to choose)\n",
		run->round_max_s, in.profile_s, reps, run->reps, run->budget_s, est,
		est > run->budget_s ? ", the fewest repetitions a budget leaves" : "");
	run->reps = reps;
}

size_t pt_run_self_warming(const struct pt_run *run)
{
	size_t i, n = 0;

	for (i = 0; i < run->nresults; i++)
		n += run->results[i].w->self_warming;
	return n;
}

/* Repetition rep of every case still running, in suite order. */
static void run_round(struct pt_run *run, int rep, bool warmup)
{
	double t0 = (double)pt_now_ns() / 1e9, elapsed, took;
	int rounds, done;
	size_t i;

	if (run->pick)
		pt_cpu_pick_round(run->pick, &run->binding);
	for (i = 0; i < run->nresults; i++)
		if (run->results[i].status == PT_CASE_OK)
			case_rep(run, i, rep, warmup);
	if (!warmup)
		pt_run_checkpoint(run);
	done = warmup ? rep + 1 : run->warmup + rep + 1;
	elapsed = (double)pt_now_ns() / 1e9 - run->started_mono_s;
	took = (double)pt_now_ns() / 1e9 - t0;
	if (took > run->round_max_s)
		run->round_max_s = took;
	/* a warm-up round without the self-warming cases says little of a round's time */
	if (run->budget_s > 0 && !(warmup && pt_run_self_warming(run)))
		fit_budget(run, done, elapsed);
	rounds = run->warmup + run->reps;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	fprintf(stderr,
		"ptbench run: round %d/%d (%s %d) done in %.0f s; %.0f s elapsed, about %.0f s left\n",
		done, rounds, warmup ? "warm-up" : "rep", rep + 1, took, elapsed,
		elapsed / done * (rounds - done));
}

/*
 * Interleaved (the default): round r runs repetition r of every case, so
 * the samples of a case are spread over the whole run and a few seconds of
 * host noise touch one sample of many cases rather than every sample of
 * one. Sequential: all repetitions of a case, then the next case.
 */
int pt_run_cases(struct pt_run *run)
{
	int failed = 0, rep;
	size_t i;

	for (i = 0; i < run->nresults; i++) {
		run->results[i].status = PT_CASE_OK;
		run->results[i].steal_s = NAN;
	}
	if (run->interleave) {
		for (i = 0; i < run->nresults; i++)
			guard_refuses(run, &run->results[i]);
		for (rep = 0; rep < run->warmup && !run->write_err; rep++)
			run_round(run, rep, true);
		for (rep = 0; rep < run->reps && !run->write_err; rep++)
			run_round(run, rep, false);
		/* round r holds repetition r of every case: the control's is that round's */
		pt_run_emit_norm(run);
		/* then one sampled repetition of each profiled case, after its timed ones */
		for (i = 0; i < run->nresults && !run->write_err; i++)
			case_profile(run, i);
		if (!run->write_err)
			pt_run_checkpoint(run);
	}
	for (i = 0; i < run->nresults; i++) {
		if (!run->interleave && !run->write_err && !guard_refuses(run, &run->results[i])) {
			if (run->pick) /* sequential: one pick per case */
				pt_cpu_pick_round(run->pick, &run->binding);
			run_case(run, i);
		}
		progress_done(run, i);
		failed += run->results[i].status == PT_CASE_FAILED;
	}
	return failed;
}

int pt_run_checkpoint(struct pt_run *run)
{
	int err;

	if (run->write_err)
		return -1;
	err = pt_sink_commit(run->sink);
	if (err) {
		run->write_err = -err;
		fprintf(stderr,
			"\nptbench run: writing %s: %s; the run stops here, with the rows of the "
			"rounds before this one\n",
			pt_sink_path(run->sink), strerror(-err));
		return -1;
	}
	if (pt_run_write_meta(run, -1)) {
		run->write_err = errno ? errno : EIO;
		fprintf(stderr,
			"\nptbench run: writing %s/meta.json: %s; the run stops here, with the "
			"rows of the rounds so far\n",
			run->out_dir, strerror(run->write_err));
		return -1;
	}
	return 0;
}

/* A case still owed repetitions: neither failed, skipped nor done. */
static bool unfinished(const struct pt_run *run, const struct pt_case_result *res)
{
	return res->status == PT_CASE_OK && res->reps_ok < run->reps;
}

/*
 * complete: the run ended and every case has all its rows in results.csv;
 * unfinished: the cases that do not (a run still going, killed, or stopped
 * by a failed write).
 */
static void json_progress(struct pt_json *j, const struct pt_run *run, int exit_status)
{
	bool complete = exit_status >= 0 && !run->write_err;
	size_t i;

	for (i = 0; i < run->nresults; i++)
		complete = complete && !unfinished(run, &run->results[i]);
	pt_json_bool(j, "complete", complete);
	pt_json_arr_begin(j, "unfinished");
	for (i = 0; i < run->nresults; i++) {
		const struct pt_case_result *res = &run->results[i];

		if (!unfinished(run, res))
			continue;
		pt_json_obj_begin(j, NULL);
		pt_json_str(j, "workload", res->w->name);
		pt_json_str(j, "case", res->c.name);
		pt_json_int(j, "reps_ok", res->reps_ok);
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
}

static void json_counters(struct pt_json *j, const struct pt_counters *ctr)
{
	const struct pt_unsupported *bad;
	struct pt_counter_reading cr;
	size_t i, n;

	pt_json_obj_begin(j, "counters");
	pt_json_arr_begin(j, "opened");
	for (i = 0; !pt_counters_get(ctr, i, &cr); i++)
		pt_json_str(j, NULL, cr.name);
	pt_json_arr_end(j);
	pt_json_arr_begin(j, "unsupported");
	n = pt_counters_unsupported(ctr, &bad);
	for (i = 0; i < n; i++) {
		pt_json_obj_begin(j, NULL);
		pt_json_str(j, "name", bad[i].name);
		pt_json_str(j, "reason", bad[i].reason);
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
	pt_json_obj_end(j);
}

static void json_regime(struct pt_json *j, const struct pt_regime *r)
{
	pt_json_obj_begin(j, "regime");
	pt_json_str(j, "arch", r->arch);
	pt_json_uint(j, "page_size", r->page_size);
	pt_json_uint(j, "pmd_size", r->pmd_size);
	pt_json_uint(j, "va_bits", r->va_bits);
	pt_json_uint(j, "levels", r->levels);
	pt_json_str(j, "format", pt_format_name(r->format));
	pt_json_bool(j, "config_known", r->config_known);
	pt_json_str(j, "text", r->text);
	pt_json_obj_end(j);
}

static void json_timer_pinning(struct pt_json *j, const struct pt_run *run)
{
	const struct pt_timer_info *t = pt_timer_info();

	pt_json_obj_begin(j, "timer");
	pt_json_str(j, "clock", "CLOCK_MONOTONIC");
	pt_json_num(j, "clock_overhead_ns", t->clock_overhead_ns);
	pt_json_str(j, "cycle_source", t->cycle_source);
	pt_json_uint(j, "cycle_hz", t->cycle_hz);
	pt_json_num(j, "cycle_overhead_ticks", t->cycle_overhead);
	pt_json_obj_end(j);
	pt_json_obj_begin(j, "pinning");
	pt_json_int(j, "requested", run->binding.requested);
	pt_json_int(j, "cpu", run->binding.cpu);
	pt_json_bool(j, "ok", run->binding.ok);
	pt_json_str(j, "cpuset", run->binding.cpuset);
	pt_json_str(j, "error", run->binding.err[0] ? run->binding.err : NULL);
	pt_json_str(j, "mode", run->pick ? "pick" : "fixed");
	if (run->pick)
		pt_cpu_pick_json(j, run->pick);
	pt_json_obj_end(j);
}

/* How often a case's repetitions were run again after a transient refusal, and why. */
static void json_retries(struct pt_json *j, const struct pt_case_result *res)
{
	size_t i, n = sizeof(res->retry_reasons) / sizeof(res->retry_reasons[0]);

	pt_json_int(j, "retries", res->retries);
	pt_json_arr_begin(j, "retry_reasons");
	for (i = 0; i < n && res->retry_reasons[i].count; i++) {
		pt_json_obj_begin(j, NULL);
		pt_json_str(j, "reason", res->retry_reasons[i].why);
		pt_json_int(j, "count", res->retry_reasons[i].count);
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
}

/*
 * The profiled repetition's most sampled kernel functions (what each
 * component holds), and where its stalls ended.
 */
static void json_profile_top(struct pt_json *j, const struct pt_case_result *res)
{
	double stall = 0;
	size_t i;

	pt_json_arr_begin(j, "profile_top");
	for (i = 0; i < res->ntop; i++) {
		pt_json_obj_begin(j, NULL);
		pt_json_str(j, "symbol", res->top[i].symbol);
		pt_json_str(j, "component", res->top[i].cls);
		pt_json_uint(j, "samples", res->top[i].samples);
		pt_json_num(j, "share", res->top[i].share);
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
	for (i = 0; i < PT_COMP_N; i++)
		stall += res->stall_ns[i];
	pt_json_obj_begin(j, "profile_stalls");
	for (i = 0; i < PT_COMP_N && stall > 0; i++)
		if (res->stall_ns[i] > 0)
			pt_json_num(j, pt_prof_comp_name(i), res->stall_ns[i] / stall);
	pt_json_obj_end(j);
}

static void json_cases(struct pt_json *j, const struct pt_run *run)
{
	static const char *const status[] = { "ok", "failed", "skipped" };
	size_t i;

	pt_json_arr_begin(j, "cases");
	for (i = 0; i < run->nresults; i++) {
		const struct pt_case_result *res = &run->results[i];

		pt_json_obj_begin(j, NULL);
		pt_json_str(j, "workload", res->w->name);
		pt_json_str(j, "case", res->c.name);
		pt_json_str(j, "params", res->c.params);
		pt_json_str(j, "primary_metric", pt_case_primary(res->w, &res->c));
		pt_json_str(j, "status", status[res->status]);
		pt_json_int(j, "reps_ok", res->reps_ok);
		pt_json_bool(j, "profiled", res->profiled);
		json_profile_top(j, res);
		pt_json_num(j, "steal_seconds", res->steal_s);
		json_retries(j, res);
		pt_json_arr_begin(j, "notes");
		if (res->notes[0])
			pt_json_str(j, NULL, res->notes);
		pt_json_arr_end(j);
		pt_json_obj_end(j);
	}
	pt_json_arr_end(j);
}

/* Host steal time over the run, absolute and as a share of all CPUs' time. */
static void json_steal(struct pt_json *j, const struct pt_run *run)
{
	double now, wall = (double)pt_now_ns() / 1e9 - run->started_mono_s, steal = NAN, pct = NAN;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (!isnan(run->steal_start_s) && !pt_steal_read(&now)) {
		steal = now - run->steal_start_s;
		if (wall > 0 && ncpu > 0)
			pct = round(steal / (wall * (double)ncpu) * 1e4) / 100;
	}
	pt_json_num(j, "wall_seconds", wall);
	pt_json_num(j, "steal_seconds", steal);
	pt_json_num(j, "steal_pct", pct);
}

static void json_run(struct pt_json *j, const struct pt_run *run, int exit_status)
{
	char now[32];

	pt_utc_now(now, sizeof(now));
	pt_json_obj_begin(j, "tool");
	pt_json_str(j, "name", "ptbench");
	pt_json_str(j, "version", PTBENCH_VERSION);
	pt_json_str(j, "command_line", run->command_line);
	pt_json_obj_end(j);
	pt_json_obj_begin(j, "run");
	pt_json_str(j, "id", run->run_id);
	pt_json_str(j, "suite", run->suite);
	pt_json_int(j, "reps", run->reps);
	pt_json_int(j, "reps_planned", run->reps_planned);
	if (run->budget_s > 0)
		pt_json_num(j, "budget_seconds", run->budget_s);
	else
		pt_json_null(j, "budget_seconds");
	pt_json_int(j, "warmup", run->warmup);
	pt_json_str(j, "order", run->interleave ? "interleaved" : "sequential");
	pt_json_str(j, "free_page_reporting", run->page_reporting);
	pt_json_str(j, "guest_warm", run->guest_warm);
	pt_json_str(j, "knobs_recovered", pt_knob_recovered());
	pt_json_str(j, "tag", run->tag);
	pt_json_str(j, "started_utc", run->started_utc);
	/* null while the run is going: a killed run never finished */
	pt_json_str(j, "finished_utc", exit_status >= 0 ? now : NULL);
	if (exit_status >= 0)
		pt_json_int(j, "exit_status", exit_status);
	else
		pt_json_null(j, "exit_status");
	pt_json_bool(j, "process_aslr",
		     !(personality(0xffffffff) & ADDR_NO_RANDOMIZE) || personality(0xffffffff) < 0);
	json_steal(j, run);
	pt_json_obj_end(j);
}

int pt_run_write_meta(const struct pt_run *run, int exit_status)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	struct pt_json j;
	FILE *f;
	int err;

	if (pt_path_join(path, sizeof(path), run->out_dir, "meta.json"))
		return -1;
	f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f)
		return -1;
	pt_json_init(&j, f);
	pt_json_obj_begin(&j, NULL);
	pt_json_int(&j, "schema_version", PT_SCHEMA_VERSION);
	json_progress(&j, run, exit_status);
	json_run(&j, run, exit_status);
	pt_env_write_json(&j);
	json_regime(&j, &run->regime);
	json_timer_pinning(&j, run);
	json_counters(&j, run->ctr);
	pt_profile_json(run->prof, &j);
	json_cases(&j, run);
	pt_json_obj_end(&j);
	err = pt_atomic_commit(f, tmp, path);
	if (err)
		errno = -err;
	return err ? -1 : 0;
}

void pt_run_print_summary(const struct pt_run *run)
{
	static const char *const status[] = { "ok", "FAILED", "skipped" };
	struct pt_summary s;
	size_t i;

	printf("%-9s %-26s %-8s %-18s %12s %8s %4s\n", "workload", "case", "status", "metric",
	       "median", "cv%", "n");
	for (i = 0; i < run->nresults; i++) {
		const struct pt_case_result *res = &run->results[i];

		printf("%-9s %-26s %-8s", res->w->name, res->c.name, status[res->status]);
		if (res->nprimary && !pt_summarize(res->primary, (size_t)res->nprimary, &s))
			printf(" %-18s %12.4g %8.2f %4zu", pt_case_primary(res->w, &res->c),
			       s.median, s.cv * 100, s.n);
		putchar('\n');
	}
}
