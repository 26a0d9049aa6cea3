// SPDX-License-Identifier: GPL-2.0-only
/* Counting through libperf: real faults, unknown and unsupported events. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_page_faults),
		cmocka_unit_test(test_unknown_event_is_error),
		cmocka_unit_test(test_unsupported_is_listed_not_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
