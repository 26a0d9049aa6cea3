// SPDX-License-Identifier: GPL-2.0-only
/* The UTC timestamps of meta.json and a history (util/utctime.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/utctime.h"

static void test_valid(void **state)
{
	double t;

	(void)state;
	assert_int_equal(pt_utc_parse("1970-01-01T00:00:00Z", &t), 0);
	assert_true(t == 0);
	/* python3 -c 'import calendar; print(calendar.timegm((2026, 12, 6, 0, 7, 48)))' */
	assert_int_equal(pt_utc_parse("2026-12-06T00:07:48Z", &t), 0);
	assert_true(t == 1796515668.0);
	assert_int_equal(pt_utc_parse("2024-02-29T23:59:59Z", &t), 0);
	assert_true(t == 1709251199.0);
	assert_int_equal(pt_utc_parse("2026-12-06T00:07:48.250Z", &t), 0);
	assert_true(fabs(t - 1796515668.25) < 1e-6);
}

static void test_invalid(void **state)
{
	static const char *const bad[] = {
		"",
		"2026-12-06T00:07:48", /* no Z */
		"2026-12-06 00:07:48Z", /* a space for the T */
		"2026-13-06T00:07:48Z", /* month 13 */
		"2023-02-29T00:00:00Z", /* not a leap year */
		"2026-12-06T24:00:00Z", /* hour 24 */
		"2026-12-06T00:60:00Z", /* minute 60 */
		"2026-12-06T00:07:48Zx", /* after the Z */
		"+026-12-06T00:07:48Z", /* a sign */
		"2026-12-6T00:07:48Z", /* a short field */
		"2026-12-06T00:07:48e1Z", /* an exponent */
		"2026-12-06T00:07:48.1.2Z" /* two points */
	};
	size_t i;
	double t = 0;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(pt_utc_parse(bad[i], &t), -1);
		assert_true(isnan(t));
	}
	assert_int_equal(pt_utc_parse(NULL, &t), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
