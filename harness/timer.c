// SPDX-License-Identifier: GPL-2.0-only
#include <time.h>

#include "harness/timer.h"

uint64_t pt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
uint64_t pt_cycles(void)
{
	unsigned int lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

bool pt_cycles_supported(void)
{
	return true;
}

const char *pt_cycle_source(void)
{
	return "rdtsc";
}

static uint64_t arch_cycle_hz(void)
{
	return 0; /* not architectural: measured against the clock */
}
#elif defined(__aarch64__)
uint64_t pt_cycles(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
	return v;
}

bool pt_cycles_supported(void)
{
	return true;
}

const char *pt_cycle_source(void)
{
	return "cntvct_el0";
}

static uint64_t arch_cycle_hz(void)
{
	uint64_t f;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return f;
}
#else
uint64_t pt_cycles(void)
{
	return 0;
}

bool pt_cycles_supported(void)
{
	return false;
}

const char *pt_cycle_source(void)
{
	return "none";
}

static uint64_t arch_cycle_hz(void)
{
	return 0;
}
#endif

/* Ticks per second of the cycle counter, measured over ~20 ms. */
static uint64_t measure_cycle_hz(void)
{
	uint64_t t0 = pt_now_ns(), c0 = pt_cycles(), t1, c1;

	do {
		t1 = pt_now_ns();
	} while (t1 - t0 < 20000000ull);
	c1 = pt_cycles();
	return (uint64_t)((double)(c1 - c0) * 1e9 / (double)(t1 - t0));
}

#define OVERHEAD_LOOPS 10000

static double clock_overhead_ns(void)
{
	uint64_t best = UINT64_MAX, a, b;
	int i;

	for (i = 0; i < OVERHEAD_LOOPS; i++) {
		a = pt_now_ns();
		b = pt_now_ns();
		if (b - a < best)
			best = b - a;
	}
	return (double)best;
}

static double cycle_overhead(void)
{
	uint64_t best = UINT64_MAX, a, b;
	int i;

	for (i = 0; i < OVERHEAD_LOOPS; i++) {
		a = pt_cycles();
		b = pt_cycles();
		if (b - a < best)
			best = b - a;
	}
	return (double)best;
}

const struct pt_timer_info *pt_timer_info(void)
{
	static struct pt_timer_info info;
	static bool done;

	if (done)
		return &info;
	info.clock_overhead_ns = clock_overhead_ns();
	info.cycle_source = pt_cycle_source();
	if (pt_cycles_supported()) {
		info.cycle_hz = arch_cycle_hz();
		if (!info.cycle_hz)
			info.cycle_hz = measure_cycle_hz();
		info.cycle_overhead = cycle_overhead();
	}
	done = true;
	return &info;
}
