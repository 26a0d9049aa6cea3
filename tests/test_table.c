// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/table.h"

static char *print(struct pt_table *t, const char *indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	pt_table_print(t, f, indent);
	fclose(f);
	return buf;
}

static void test_width(void **state)
{
	(void)state;
	assert_int_equal(pt_display_width(""), 0);
	assert_int_equal(pt_display_width("abc"), 3);
	assert_int_equal(pt_display_width("±5%"), 3); /* ± is two bytes */
	assert_int_equal(pt_display_width("1.5µ"), 4);
}

static void test_align(void **state)
{
	struct pt_table t = { .ncol = 3, .right = { false, true, false } };
	char *out;

	(void)state;
	assert_int_equal(pt_table_row(&t, "name", "value", "note"), 0);
	assert_int_equal(pt_table_row(&t, "a", "±1", ""), 0);
	assert_int_equal(pt_table_row(&t, "longer", "12345", "x"), 0);
	out = print(&t, "> ");
	/*
	 * Left columns padded, right ones padded in front, counted in
	 * characters; a row's empty trailing cells and its last padding go.
	 */
	assert_string_equal(out, "> name    value  note\n"
				 "> a          ±1\n"
				 "> longer  12345  x\n");
	free(out);
	assert_int_equal(t.nrow, 0);
	assert_null(t.cell);
}

static void test_many_rows(void **state)
{
	struct pt_table t = { .ncol = 1 };
	char *out, cell[8];
	int i;

	(void)state;
	for (i = 0; i < 100; i++) {
		snprintf(cell, sizeof(cell), "%d", i);
		assert_int_equal(pt_table_row(&t, cell), 0);
	}
	assert_int_equal(t.nrow, 100);
	out = print(&t, "");
	assert_non_null(strstr(out, "\n99\n"));
	assert_int_equal(strlen(out), 10 * 2 + 90 * 3);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_align),
		cmocka_unit_test(test_many_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
