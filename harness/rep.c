// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "harness/rep.h"
#include "harness/case.h"
#include "harness/profile.h"
#include "harness/timer.h"

void pt_rep_reset(struct pt_rep *r)
{
	r->elapsed_ns = 0;
	r->elapsed_cycles = 0;
	r->minflt = r->majflt = r->child_minflt = 0;
	r->cpu_ns = 0;
	r->failed = r->skipped = r->retry = false;
	r->msg[0] = '\0';
	pt_counters_reset(r->ctr);
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

static void faults_now(long *minflt, long *majflt, long *child_minflt, uint64_t *cpu_ns)
{
	struct rusage self, children;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	*minflt = self.ru_minflt;
	*majflt = self.ru_majflt;
	*child_minflt = children.ru_minflt;
	*cpu_ns = tv_ns(self.ru_utime) + tv_ns(self.ru_stime) + tv_ns(children.ru_utime) +
		  tv_ns(children.ru_stime);
}

void pt_rep_begin(struct pt_rep *r)
{
	/* sampling on before the clock is read: the window starts sampled */
	if (r->prof)
		pt_profile_window_open(r->prof);
	faults_now(&r->minflt0, &r->majflt0, &r->child_minflt0, &r->cpu0_ns);
	pt_counters_start(r->ctr);
	r->t0_cycles = pt_cycles();
	r->t0_ns = pt_now_ns();
	if (r->prof)
		pt_profile_window_begin(r->prof, r->t0_ns);
}

void pt_rep_end(struct pt_rep *r)
{
	uint64_t t1 = pt_now_ns(), c1 = pt_cycles();
	long minflt, majflt, child;
	uint64_t cpu;

	pt_counters_stop(r->ctr);
	faults_now(&minflt, &majflt, &child, &cpu);
	r->elapsed_ns += t1 - r->t0_ns;
	r->elapsed_cycles += c1 - r->t0_cycles;
	r->minflt += minflt - r->minflt0;
	r->majflt += majflt - r->majflt0;
	r->child_minflt += child - r->child_minflt0;
	r->cpu_ns += cpu - r->cpu0_ns;
	if (r->prof)
		pt_profile_window_end(r->prof, t1);
}

long pt_rep_faults(const struct pt_rep *r)
{
	return r->minflt + r->majflt;
}

double pt_rep_counter(const struct pt_rep *r, const char *name)
{
	return pt_counters_value(r->ctr, name);
}

void pt_rep_emit(struct pt_rep *r, const char *metric, double value, const char *unit,
		 enum pt_better better)
{
	if (r->warmup || !r->sink)
		return;
	/* a sampled repetition's timing is perturbed: only its profile rows count */
	if (r->prof && strncmp(metric, "profile_", 8))
		return;
	if (r->on_emit)
		r->on_emit(r->emit_ctx, metric, value);
	pt_sink_row(r->sink, r->workload, r->c->name, r->c->params, r->rep, metric, value, unit,
		    better);
}

void pt_rep_emit_profile(struct pt_rep *r, double ops, const char *per)
{
	struct pt_prof_row rows[PT_PROF_MAX_ROWS];
	size_t n, i;

	if (!r->prof || !(ops > 0))
		return;
	pt_profile_drain(r->prof);
	n = pt_tally_rows(pt_profile_tally(r->prof), ops, per, pt_profile_resolved(r->prof),
			  r->cpu_ns, rows, PT_PROF_MAX_ROWS);
	for (i = 0; i < n; i++)
		pt_rep_emit(r, rows[i].metric, rows[i].value, rows[i].unit, PT_NEITHER);
}

void pt_rep_emit_per_op(struct pt_rep *r, double ops, const char *per)
{
	struct pt_counter_reading cr;
	char metric[160];
	size_t i;

	if (ops <= 0)
		return;
	if (r->prof) {
		pt_rep_emit_profile(r, ops, per);
		return;
	}
	snprintf(metric, sizeof(metric), "ns_per_%s", per);
	pt_rep_emit(r, metric, (double)r->elapsed_ns / ops, "ns", PT_LOWER);
	if (pt_cycles_supported() && r->elapsed_cycles) {
		snprintf(metric, sizeof(metric), "ticks_per_%s", per);
		pt_rep_emit(r, metric, (double)r->elapsed_cycles / ops, pt_cycle_source(),
			    PT_LOWER);
	}
	for (i = 0; !pt_counters_get(r->ctr, i, &cr); i++) {
		/* Opened but never scheduled on a counter: nothing was counted, so no row. */
		if (!(cr.running_ratio > 0))
			continue;
		snprintf(metric, sizeof(metric), "%s_per_%s", cr.name, per);
		pt_rep_emit(r, metric, cr.value / ops, "count", PT_LOWER);
		if (cr.running_ratio < 1.0) {
			snprintf(metric, sizeof(metric), "%s_running_ratio", cr.name);
			pt_rep_emit(r, metric, cr.running_ratio, "ratio", PT_NEITHER);
		}
	}
}

int pt_rep_fail(struct pt_rep *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	r->failed = true;
	return -1;
}

int pt_rep_retry(struct pt_rep *r, const char *fmt, ...)
{
	char why[sizeof(r->msg)];
	va_list ap;

	/* formatted aside first: a caller may pass r->msg itself */
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	memcpy(r->msg, why, sizeof(r->msg));
	r->failed = false;
	r->retry = true;
	return -1;
}

int pt_rep_skip(struct pt_rep *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	r->skipped = true;
	return 1;
}

void pt_rep_note(struct pt_rep *r, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (r->on_note)
		r->on_note(r->note_ctx, text);
}
