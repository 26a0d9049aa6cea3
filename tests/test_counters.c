// SPDX-License-Identifier: GPL-2.0-only
/* Counting through libperf: real faults, unknown and unsupported events. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/counters.h"
#include "harness/env.h"

#define PAGES 64

static void test_counts_page_faults(void **state)
{
	static const char *const names[] = { "page-faults", "task-clock" };
	long page = sysconf(_SC_PAGESIZE);
	struct pt_counters *c;
	char err[160], *p;
	double faults;
	int i;

	(void)state;
	if (pt_counters_open(&c, names, 2, err, sizeof(err)) || pt_counters_count(c) < 1) {
		skip(); /* perf_event_open refused (perf_event_paranoid) */
		return;
	}
	p = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	madvise(p, PAGES * page, MADV_NOHUGEPAGE);
	pt_counters_start(c);
	for (i = 0; i < PAGES; i++)
		p[i * page] = 1;
	pt_counters_stop(c);
	faults = pt_counters_value(c, "page-faults");
	/* Every page faults once; the instrumented build may add a few of its own. */
	assert_true(faults >= PAGES);
	assert_true(faults <= PAGES + 16);
	assert_true(pt_counters_value(c, "not-open") < 0);
	munmap(p, PAGES * page);
	pt_counters_close(c);
}

static void test_unknown_event_is_error(void **state)
{
	static const char *const names[] = { "page-faults", "bogus-event-name" };
	struct pt_counters *c = NULL;
	char err[160] = "";

	(void)state;
	assert_int_equal(pt_counters_open(&c, names, 2, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "bogus-event-name"));
}

static void test_unsupported_is_listed_not_zero(void **state)
{
	static const char *const names[] = { "page-faults", "dTLB-load-misses" };
	const struct pt_unsupported *bad;
	struct pt_counter_reading r;
	struct pt_counters *c;
	char err[160];
	bool listed;
	size_t i, n;

	(void)state;
	if (pt_env_has_hw_pmu()) {
		skip(); /* the hardware event opens here */
		return;
	}
	assert_int_equal(pt_counters_open(&c, names, 2, err, sizeof(err)), 0);
	n = pt_counters_unsupported(c, &bad);
	/* Under user-mode emulation even software events may be refused. */
	assert_true(n >= 1);
	for (i = 0, listed = false; i < n; i++) {
		listed |= !strcmp(bad[i].name, "dTLB-load-misses");
		assert_true(strlen(bad[i].reason) > 0);
	}
	assert_true(listed);
	for (i = 0; !pt_counters_get(c, i, &r); i++)
		assert_string_not_equal(r.name, "dTLB-load-misses");
	assert_true(pt_counters_value(c, "dTLB-load-misses") < 0);
	pt_counters_close(c);
}

#define CHASE_PAGES 16384 /* 64 MiB of 4K pages: beyond any x86-64 or arm64 STLB */

/* Links one word in each of 'pages' pages into a cycle in random order. */
static void **link_pages(char *p, size_t pages, long page)
{
	size_t *order = malloc(pages * sizeof(*order)), i, j, t;
	uint64_t x = 88172645463325252ull;
	void **first;

	assert_non_null(order);
	for (i = 0; i < pages; i++)
		order[i] = i;
	for (i = pages - 1; i > 0; i--) { /* Sattolo: one cycle through every page */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % i;
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	/* The word moves by a line per page so the chase does not hit one cache set. */
	for (i = 0; i < pages; i++)
		*(void **)(p + order[i] * page + (order[i] % 64) * 64) =
			p + order[(i + 1) % pages] * page + (order[(i + 1) % pages] % 64) * 64;
	first = (void **)(p + order[0] * page + (order[0] % 64) * 64);
	free(order);
	return first;
}

static double misses_per_load(struct pt_counters *c, void **start, size_t loads)
{
	void **volatile sink;
	void **q = start;
	size_t i;

	pt_counters_reset(c);
	pt_counters_start(c);
	for (i = 0; i < loads; i++)
		q = (void **)*q;
	pt_counters_stop(c);
	sink = q;
	(void)sink;
	return pt_counters_value(c, "dTLB-load-misses") / (double)loads;
}

/*
 * Where the CPU has a PMU the hardware path must count, not just open: a
 * chase with one load per 4K page over 64 MiB misses the data TLB on most
 * loads, and as many loads within 4 pages almost never do.
 */
static void test_hw_dtlb_misses_follow_pages(void **state)
{
	static const char *const names[] = { "dTLB-load-misses" };
	long page = sysconf(_SC_PAGESIZE);
	const struct pt_unsupported *bad;
	double wide, narrow;
	struct pt_counters *c;
	char err[160], *p;
	void **start;

	(void)state;
	if (!pt_env_has_hw_pmu()) {
		skip(); /* no PMU: test_unsupported_is_listed_not_zero covers this machine */
		return;
	}
	assert_int_equal(pt_counters_open(&c, names, 1, err, sizeof(err)), 0);
	if (pt_counters_count(c) < 1) {
		/* A PMU that refuses the event must say why. */
		assert_int_equal(pt_counters_unsupported(c, &bad), 1);
		pt_counters_close(c);
		skip();
		return;
	}
	p = mmap(NULL, CHASE_PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	assert_true(p != MAP_FAILED);
	madvise(p, CHASE_PAGES * page,
		MADV_NOHUGEPAGE); /* 4K pages, or a few 2M entries cover it */
	start = link_pages(p, CHASE_PAGES, page);
	misses_per_load(c, start, CHASE_PAGES); /* one pass to fault in and warm the caches */
	wide = misses_per_load(c, start, 4 * CHASE_PAGES);
	narrow = misses_per_load(c, link_pages(p, 4, page), 4 * CHASE_PAGES);
	print_message("dTLB-load-misses per load: %.3f over 64 MiB, %.4f over 4 pages\n", wide,
		      narrow);
	assert_true(wide >= 0.5);
	assert_true(narrow <= 0.05);
	munmap(p, CHASE_PAGES * page);
	pt_counters_close(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_page_faults),
		cmocka_unit_test(test_unknown_event_is_error),
		cmocka_unit_test(test_unsupported_is_listed_not_zero),
		cmocka_unit_test(test_hw_dtlb_misses_follow_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
