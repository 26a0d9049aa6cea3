// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/units.h"

static void test_parse(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(pt_size_parse("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(pt_size_parse("64K", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(pt_size_parse("2m", &v), 0);
	assert_int_equal(v, 2u << 20);
	assert_int_equal(pt_size_parse("1GiB", &v), 0);
	assert_int_equal(v, 1u << 30);
	assert_int_equal(pt_size_parse("3TB", &v), 0);
	assert_int_equal(v, 3ull << 40);
	assert_int_equal(pt_size_parse("", &v), -1);
	assert_int_equal(pt_size_parse("K", &v), -1);
	assert_int_equal(pt_size_parse("-4K", &v), -1);
	assert_int_equal(pt_size_parse("12Q", &v), -1);
	assert_int_equal(pt_size_parse("4KX", &v), -1);
	assert_int_equal(pt_size_parse("99999999999999999999", &v), -1);
	assert_int_equal(pt_size_parse("17000000T", &v), -1); /* overflows 64 bits */
}

static void test_name(void **state)
{
	char buf[32];

	(void)state;
	pt_size_name(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4K");
	pt_size_name(1ull << 30, buf, sizeof(buf));
	assert_string_equal(buf, "1G");
	pt_size_name(3ull << 20, buf, sizeof(buf));
	assert_string_equal(buf, "3M");
	pt_size_name(1536, buf, sizeof(buf));
	assert_string_equal(buf, "1536");
	pt_size_name(0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
