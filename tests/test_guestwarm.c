// SPDX-License-Identifier: GPL-2.0-only
/* --warm-guest auto: when it warms, how much, and the touch itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "harness/guestwarm.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

static void test_auto(void **state)
{
	char why[128];

	(void)state;
	/* twice the largest case, at most 1 GiB */
	assert_int_equal(pt_guest_warm_auto(true, true, 300 * MIB, 20 * GIB, why, sizeof(why)),
			 600 * MIB);
	assert_int_equal(pt_guest_warm_auto(true, true, GIB, 20 * GIB, why, sizeof(why)), GIB);
	assert_string_equal(why, "");
	/* at least 256M, at most half of what is available, in 2M steps */
	assert_int_equal(pt_guest_warm_auto(true, true, MIB, 20 * GIB, why, sizeof(why)),
			 256 * MIB);
	assert_int_equal(pt_guest_warm_auto(true, true, 4 * GIB, GIB + MIB, why, sizeof(why)),
			 512 * MIB);
	/* not a guest, or freed frames go back to the host: off, saying why */
	assert_int_equal(pt_guest_warm_auto(false, true, GIB, 20 * GIB, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "not a guest"));
	assert_int_equal(pt_guest_warm_auto(true, false, GIB, 20 * GIB, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "reporting"));
	assert_int_equal(pt_guest_warm_auto(true, true, GIB, MIB, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "too little"));
}

static void test_touch(void **state)
{
	struct pt_guest_warm w;

	(void)state;
	assert_int_equal(pt_guest_warm(4 * MIB, &w), 0);
	assert_int_equal(w.bytes, 4 * MIB);
	assert_true(w.seconds >= 0);
	assert_non_null(strstr(w.desc, "touched"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_touch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
