// SPDX-License-Identifier: GPL-2.0-only
/* Warming a guest's memory before measuring (harness/guestwarm.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "harness/guestwarm.h"
#include "harness/procmem.h"
#include "harness/runner.h"
#include "harness/virt.h"
#include "util/units.h"

/* Never less than this: a warm-up smaller than one case's churn is noise. */
#define WARM_MIN_BYTES (256ull << 20)
/*
 * Nor more: the spread was measured lower with about this much (the ci
 * suite's 2 x 520 MiB, docs/run.md), and touching costs seconds per GiB
 * on a host that backs lazily.
 */
#define WARM_MAX_BYTES (1ull << 30)

uint64_t pt_guest_warm_auto(bool virtualized, bool reporting_paused, uint64_t peak_case_bytes,
			    uint64_t mem_available, char *why, size_t len)
{
	uint64_t want = 2 * peak_case_bytes, cap = mem_available / 2;

	if (!virtualized) {
		snprintf(why, len, "off (not a guest, or not known to be one)");
		return 0;
	}
	if (!reporting_paused) {
		snprintf(why, len,
			 "off (free page reporting is on: freed frames go back to the host)");
		return 0;
	}
	if (want < WARM_MIN_BYTES)
		want = WARM_MIN_BYTES;
	if (want > WARM_MAX_BYTES)
		want = WARM_MAX_BYTES;
	if (want > cap)
		want = cap;
	want &= ~((1ull << 21) - 1);
	if (!want) {
		snprintf(why, len, "off (too little memory available)");
		return 0;
	}
	why[0] = 0;
	return want;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int pt_guest_warm(uint64_t bytes, struct pt_guest_warm *w)
{
	uint64_t page = pt_page_size();
	char size[32];
	double t0;
	char *p;

	w->bytes = 0;
	w->seconds = 0;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(w->desc, sizeof(w->desc), "failed (mmap of %llu bytes: errno %d)",
			 (unsigned long long)bytes, errno);
		return -1;
	}
	/* base pages: each is a separate frame the allocator may hand out later */
	madvise(p, bytes, MADV_NOHUGEPAGE);
	t0 = now_s();
	pt_touch_pages(p, bytes, page);
	w->seconds = now_s() - t0;
	munmap(p, bytes);
	w->bytes = bytes;
	pt_size_name(bytes, size, sizeof(size));
	snprintf(w->desc, sizeof(w->desc), "%s touched in %.2f s (%.0f ns per %llu-byte page)",
		 size, w->seconds, w->seconds * 1e9 / ((double)bytes / (double)page),
		 (unsigned long long)page);
	return 0;
}

int pt_run_warm_guest(struct pt_run *run, const char *mode, char *err, size_t errlen)
{
	struct pt_guest_warm w;
	struct pt_virt v;
	uint64_t bytes = 0, peak = 0;
	char size[32];
	size_t i;

	if (!strcmp(mode, "off")) {
		snprintf(run->guest_warm, sizeof(run->guest_warm), "off (--warm-guest off)");
		return 0;
	}
	if (strcmp(mode, "auto")) {
		if (pt_size_parse(mode, &bytes) || !bytes) {
			snprintf(err, errlen, "not auto, off or a size");
			return -1;
		}
		if (pt_memory_guard(bytes, run->mem_frac, err, errlen))
			return -1;
	} else {
		for (i = 0; i < run->nresults; i++)
			if (run->results[i].c.mem_bytes > peak)
				peak = run->results[i].c.mem_bytes;
		pt_virt_detect(&v);
		bytes = pt_guest_warm_auto(v.known && v.virtualized,
					   strncmp(run->page_reporting, "on", 2) != 0, peak,
					   pt_mem_available(), run->guest_warm,
					   sizeof(run->guest_warm));
		if (!bytes)
			return 0;
	}
	pt_size_name(bytes, size, sizeof(size));
	fprintf(stderr, "ptbench run: touching %s of guest memory before measuring\n", size);
	pt_guest_warm(bytes, &w);
	snprintf(run->guest_warm, sizeof(run->guest_warm), "%s", w.desc);
	return 0;
}
