// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "util/strpool.h"

/* Copies outlive the caller's buffer and stay valid as the pool grows. */
static void test_copies(void **state)
{
	struct pt_strpool p = { 0 };
	const char *first, *s;
	char buf[32];
	int i;

	(void)state;
	snprintf(buf, sizeof(buf), "walk");
	first = pt_strpool_add(&p, buf);
	assert_non_null(first);
	assert_ptr_not_equal(first, buf);
	buf[0] = 'x';
	for (i = 0; i < 3000; i++) { /* past the first 1024 slots */
		snprintf(buf, sizeof(buf), "s%d", i);
		assert_non_null(pt_strpool_add(&p, buf));
	}
	assert_string_equal(first, "walk");
	assert_int_equal(p.n, 3001);
	assert_string_equal(p.s[3000], "s2999");
	s = pt_strpool_add(&p, NULL);
	assert_string_equal(s, "");
	pt_strpool_free(&p);
	assert_null(p.s);
	assert_int_equal(p.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
