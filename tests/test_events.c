// SPDX-License-Identifier: GPL-2.0-only
/* Event names through libpfm4; PMU-qualified names encode without the PMU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/counters.h"
#include "harness/events.h"
#include "model/tlb_events.h"

#define PERF_TYPE_SOFTWARE_ID 1
#define PERF_TYPE_RAW_ID 4

static void test_software_names(void **state)
{
	struct pt_event_code code;
	char err[160];

	(void)state;
	assert_int_equal(pt_event_resolve("page-faults", &code, err, sizeof(err)), 0);
	assert_int_equal(code.type, PERF_TYPE_SOFTWARE_ID);
	assert_int_equal(code.config, 2); /* PERF_COUNT_SW_PAGE_FAULTS */
	assert_int_equal(pt_event_resolve("perf::minor-faults", &code, err, sizeof(err)), 0);
	assert_int_equal(code.config, 5); /* PERF_COUNT_SW_PAGE_FAULTS_MIN */
}

static void test_unknown_name(void **state)
{
	struct pt_event_code code;
	char err[160] = "";

	(void)state;
	assert_int_equal(pt_event_resolve("no-such-event-anywhere", &code, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no-such-event-anywhere"));
}

static void test_core_pmu_names(void **state)
{
	struct pt_event_code code;
	char err[160];

	(void)state;
#if defined(__x86_64__)
	assert_int_equal(pt_event_resolve("skx::DTLB_LOAD_MISSES:WALK_COMPLETED", &code, err,
					  sizeof(err)),
			 0);
	assert_int_equal(code.type, PERF_TYPE_RAW_ID);
	assert_int_equal(code.config & 0xffff, 0xe08);
	/* perf's spelling with a dot resolves to the same encoding. */
	assert_int_equal(pt_event_resolve("skx::DTLB_LOAD_MISSES.WALK_COMPLETED", &code, err,
					  sizeof(err)),
			 0);
	assert_int_equal(code.config & 0xffff, 0xe08);
	/*
	 * The default set's AMD walk events are real libpfm4 names on Zen 2, 3
	 * and 4 (a typo would only show as a missing counter on those CPUs):
	 * event 0x45, unit masks 0x10, 0x20, 0x40.
	 */
	{
		static const char *const pmus[] = { "amd64_fam17h_zen2", "amd64_fam19h_zen3",
						    "amd64_fam19h_zen4" };
		static const struct {
			const char *name;
			unsigned long long config;
		} amd[] = { { PT_EV_AMD_WALKS_4K, 0x1045 },
			    { PT_EV_AMD_WALKS_COALESCED, 0x2045 },
			    { PT_EV_AMD_WALKS_2M, 0x4045 } };
		char name[160];
		size_t p, e;

		for (p = 0; p < sizeof(pmus) / sizeof(pmus[0]); p++)
			for (e = 0; e < sizeof(amd) / sizeof(amd[0]); e++) {
				snprintf(name, sizeof(name), "%s::%s", pmus[p], amd[e].name);
				assert_int_equal(pt_event_resolve(name, &code, err, sizeof(err)),
						 0);
				assert_int_equal(code.type, PERF_TYPE_RAW_ID);
				assert_int_equal(code.config & 0xffff, amd[e].config);
			}
	}
	assert_int_equal(pt_event_resolve("skx::" PT_EV_INTEL_WALKS, &code, err, sizeof(err)), 0);
#elif defined(__aarch64__)
	assert_int_equal(pt_event_resolve("arm_v2::" PT_EV_ARM_WALKS, &code, err, sizeof(err)), 0);
	assert_int_equal(code.type, PERF_TYPE_RAW_ID);
	assert_int_equal(code.config, 0x34);
	assert_int_equal(pt_event_resolve("arm_v2::" PT_EV_ARM_L1_REFILLS, &code, err, sizeof(err)),
			 0);
	assert_int_equal(code.config, 0x05);
	assert_int_equal(pt_event_resolve("arm_n1::L2D_TLB_REFILL", &code, err, sizeof(err)), 0);
	assert_int_equal(code.config, 0x2d);
#else
	skip();
#endif
}

static void test_default_list(void **state)
{
	const char *names[PT_MAX_EVENTS];
	size_t n, i;
	int found = 0;

	(void)state;
	n = pt_default_events(names, PT_MAX_EVENTS);
	assert_true(n >= 6);
	for (i = 0; i < n; i++)
		found += !strcmp(names[i], "page-faults") || !strcmp(names[i], "task-clock");
	assert_int_equal(found, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_software_names),
		cmocka_unit_test(test_unknown_name),
		cmocka_unit_test(test_core_pmu_names),
		cmocka_unit_test(test_default_list),
	};

	/* Encode names of PMUs this machine does not have (libpfm4 >= 4.11). */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
