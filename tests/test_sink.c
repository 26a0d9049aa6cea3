// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/sink.h"
#include "util/csv.h"

static void test_escape(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(pt_csv_escape("plain", out, sizeof(out)), 0);
	assert_string_equal(out, "plain");
	assert_int_equal(pt_csv_escape("a,b", out, sizeof(out)), 0);
	assert_string_equal(out, "\"a,b\"");
	assert_int_equal(pt_csv_escape("say \"hi\"", out, sizeof(out)), 0);
	assert_string_equal(out, "\"say \"\"hi\"\"\"");
	assert_int_equal(pt_csv_escape("two\nlines", out, sizeof(out)), 0);
	assert_string_equal(out, "\"two\nlines\"");
	assert_int_equal(pt_csv_escape("", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(pt_csv_escape("far too long for it", out, 8), -1);
}

static void test_better(void **state)
{
	enum pt_better b;

	(void)state;
	assert_int_equal(pt_better_parse("higher", &b), 0);
	assert_int_equal(b, PT_HIGHER);
	assert_string_equal(pt_better_name(PT_LOWER), "lower");
	assert_int_equal(pt_better_parse("up", &b), -1);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_atomic_rename(void **state)
{
	char dir[] = "/tmp/ptbench-sink-XXXXXX", path[256], *text;
	struct pt_sink *s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	assert_int_equal(pt_sink_open(&s, path), 0);
	assert_int_equal(pt_sink_row(s, "tlb", "chase-4k-1M", "backing=4k;ws=1048576", 0,
				     "ns_per_access", 2.5, "ns", PT_LOWER),
			 0);
	/* NaN is never written: a missing row is not a number. */
	assert_int_not_equal(pt_sink_row(s, "tlb", "x", "", 0, "m", NAN, "ns", PT_LOWER), 0);
	assert_int_equal(pt_sink_row(s, "w", "a,b", "k=\"v\"", 1, "m", 1e-12, "s", PT_NEITHER), 0);
	assert_int_equal(pt_sink_rows(s), 2);
	/* Nothing at the final path until close. */
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(pt_sink_close(s), 0);
	text = slurp(path);
	assert_non_null(text);
	assert_string_equal(text, PT_CSV_HEADER
			    "\n"
			    "tlb,chase-4k-1M,backing=4k;ws=1048576,0,ns_per_access,2.5,ns,lower\n"
			    "w,\"a,b\",\"k=\"\"v\"\"\",1,m,1e-12,s,neither\n");
	/* An aborted sink leaves nothing behind. */
	snprintf(path, sizeof(path), "%s/aborted.csv", dir);
	assert_int_equal(pt_sink_open(&s, path), 0);
	pt_sink_abort(s);
	assert_int_not_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_better),
		cmocka_unit_test(test_atomic_rename),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
