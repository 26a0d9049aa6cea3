// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/parse.h"

static void test_u64(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(pt_parse_u64("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(pt_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	errno = 0;
	assert_int_equal(pt_parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(pt_parse_u64("11", 0, 10, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(pt_parse_u64("4", 5, 10, &v), -1);
	assert_int_equal(errno, ERANGE);
	/* what strtoull would take and these refuse */
	assert_int_equal(pt_parse_u64("-1", 0, UINT64_MAX, &v), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(pt_parse_u64(" 1", 0, 10, &v), -1);
	assert_int_equal(pt_parse_u64("+1", 0, 10, &v), -1);
	assert_int_equal(pt_parse_u64("1x", 0, 10, &v), -1);
	assert_int_equal(pt_parse_u64("0x10", 0, 100, &v), -1);
	assert_int_equal(pt_parse_u64("", 0, 10, &v), -1);
	assert_int_equal(pt_parse_u64(NULL, 0, 10, &v), -1);
	assert_int_equal(errno, EINVAL);
	/* 010 is ten, not octal eight */
	assert_int_equal(pt_parse_u64("010", 0, 100, &v), 0);
	assert_int_equal(v, 10);
}

static void test_long(void **state)
{
	long v;
	int i;
	unsigned u;

	(void)state;
	assert_int_equal(pt_parse_long("-5", -10, 10, &v), 0);
	assert_int_equal(v, -5);
	assert_int_equal(pt_parse_long("-0", -10, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(pt_parse_long("-9223372036854775808", LONG_MIN, 0, &v), 0);
	assert_true(v == LONG_MIN);
	assert_int_equal(pt_parse_long("9223372036854775807", 0, LONG_MAX, &v), 0);
	assert_true(v == LONG_MAX);
	errno = 0;
	assert_int_equal(pt_parse_long("9223372036854775808", 0, LONG_MAX, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(pt_parse_long("-9223372036854775809", LONG_MIN, 0, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(pt_parse_long("-1", 0, 10, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(pt_parse_long("-", -10, 10, &v), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(pt_parse_long("--1", -10, 10, &v), -1);
	assert_int_equal(pt_parse_int("2147483647", 0, INT_MAX, &i), 0);
	assert_int_equal(i, INT_MAX);
	assert_int_equal(pt_parse_int("2147483648", 0, INT_MAX, &i), -1);
	assert_int_equal(pt_parse_uint("3", 0, 3, &u), 0);
	assert_int_equal(u, 3);
	assert_int_equal(pt_parse_uint("4", 0, 3, &u), -1);
}

static void test_double(void **state)
{
	static const char *const bad[] = { "",	 ".",	"1..2", "1.2.", "-1",	"+1", " 1",
					   "1 ", "1e3", "inf",	"nan",	"0x10", "2x" };
	double d = -1;
	size_t k;

	(void)state;
	assert_int_equal(pt_parse_double("2", 0, 10, &d), 0);
	assert_true(d == 2);
	assert_int_equal(pt_parse_double("1.25", 0, 10, &d), 0);
	assert_true(d == 1.25);
	assert_int_equal(pt_parse_double(".5", 0, 10, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(pt_parse_double("3.", 0, 10, &d), 0);
	assert_true(d == 3);
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		errno = 0;
		d = -1;
		assert_int_equal(pt_parse_double(bad[k], 0, 10, &d), -1);
		assert_int_equal(errno, EINVAL);
		assert_true(d == -1); /* untouched on failure */
	}
	errno = 0;
	assert_int_equal(pt_parse_double("10.5", 0, 10, &d), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(pt_parse_double("0.5", 1, 10, &d), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(pt_parse_double(NULL, 0, 10, &d), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_double),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
