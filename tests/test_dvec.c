// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/dvec.h"

/* Past the first allocation and a doubling, every value stays in order. */
static void test_push_grows(void **state)
{
	struct pt_dvec d = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		assert_int_equal(pt_dvec_push(&d, (double)i / 2), 0);
	assert_int_equal(d.n, 1000);
	assert_true(d.cap >= d.n);
	for (i = 0; i < 1000; i++)
		assert_true(d.v[i] == (double)i / 2);
	pt_dvec_free(&d);
	assert_null(d.v);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.cap, 0);
}

/* n = 0 starts the next series in the same memory. */
static void test_reuse(void **state)
{
	struct pt_dvec d = { 0 };
	double *first;

	(void)state;
	assert_int_equal(pt_dvec_push(&d, 1.5), 0);
	first = d.v;
	d.n = 0;
	assert_int_equal(pt_dvec_push(&d, 2.5), 0);
	assert_ptr_equal(d.v, first);
	assert_int_equal(d.n, 1);
	assert_true(d.v[0] == 2.5);
	pt_dvec_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_grows),
		cmocka_unit_test(test_reuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
