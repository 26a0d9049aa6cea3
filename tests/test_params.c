// SPDX-License-Identifier: GPL-2.0-only
/* The params builder and reader (util/params.h) and the suite names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/params.h"
#include "workloads/suite.h"

/* Keys come out sorted whatever order they went in. */
static void test_render_sorted(void **state)
{
	struct pt_params p;
	char out[192];

	(void)state;
	pt_params_init(&p);
	assert_int_equal(pt_params_int(&p, "tasks", 2), 0);
	assert_int_equal(pt_params_str(&p, "task", "thread"), 0);
	assert_int_equal(pt_params_size(&p, "size", 64ull << 20), 0);
	assert_int_equal(pt_params_str(&p, "kind", "anon-write"), 0);
	assert_int_equal(pt_params_str(&p, "backing", "mthp64K"), 0);
	assert_int_equal(pt_params_render(&p, out, sizeof(out)), 0);
	assert_string_equal(out,
			    "backing=mthp64K;kind=anon-write;size=67108864;task=thread;tasks=2");
}

static void test_render_empty_and_short(void **state)
{
	struct pt_params p;
	char out[16];

	(void)state;
	pt_params_init(&p);
	assert_int_equal(pt_params_render(&p, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	pt_params_str(&p, "backing", "dense");
	pt_params_size(&p, "ws", 1ull << 30);
	/* "backing=dense;ws=1073741824" does not fit in 16 bytes: nothing, not half */
	assert_int_equal(pt_params_render(&p, out, sizeof(out)), -1);
	assert_string_equal(out, "");
}

/* A duplicate, a bad key or value, or one too many poisons the whole set. */
static void test_builder_refuses(void **state)
{
	struct pt_params p;
	char out[512], key[8];
	int i;

	(void)state;
	pt_params_init(&p);
	pt_params_str(&p, "size", "1");
	assert_int_equal(pt_params_str(&p, "size", "2"), -1);
	assert_int_equal(pt_params_render(&p, out, sizeof(out)), -1);
	pt_params_init(&p);
	assert_int_equal(pt_params_str(&p, "a=b", "1"), -1);
	pt_params_init(&p);
	assert_int_equal(pt_params_str(&p, "", "1"), -1);
	pt_params_init(&p);
	assert_int_equal(pt_params_str(&p, "k", "x;y"), -1);
	pt_params_init(&p);
	for (i = 0; i < PT_PARAMS_MAX; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		assert_int_equal(pt_params_int(&p, key, i), 0);
	}
	assert_int_equal(pt_params_int(&p, "z", 1), -1);
	assert_true(p.bad);
}

static void test_reader(void **state)
{
	struct pt_params p;
	uint64_t v;
	long long n;

	(void)state;
	assert_int_equal(pt_params_parse("backing=4k;regions=16;size=4194304;variant=munmap", &p),
			 0);
	assert_int_equal(p.n, 4);
	assert_string_equal(pt_params_get(&p, "backing"), "4k");
	assert_string_equal(pt_params_get(&p, "variant"), "munmap");
	assert_null(pt_params_get(&p, "back"));
	assert_null(pt_params_get(&p, "ws"));
	assert_int_equal(pt_params_get_size(&p, "size", &v), 0);
	assert_int_equal(v, 4194304);
	assert_int_equal(pt_params_get_int(&p, "regions", &n), 0);
	assert_int_equal(n, 16);
	assert_int_equal(pt_params_get_int(&p, "backing", &n), -1);
	assert_int_equal(pt_params_get_size(&p, "ws", &v), -1);
	/* sizes as people write them are accepted too */
	assert_int_equal(pt_params_parse("ws=64M", &p), 0);
	assert_int_equal(pt_params_get_size(&p, "ws", &v), 0);
	assert_int_equal(v, 64ull << 20);
	/* an empty string is no params; a value may be empty */
	assert_int_equal(pt_params_parse("", &p), 0);
	assert_int_equal(p.n, 0);
	assert_int_equal(pt_params_parse("k=", &p), 0);
	assert_string_equal(pt_params_get(&p, "k"), "");
}

static void test_reader_rejects(void **state)
{
	struct pt_params p;

	(void)state;
	assert_int_equal(pt_params_parse("backing", &p), -1);
	assert_int_equal(pt_params_parse("=4k", &p), -1);
	assert_int_equal(pt_params_parse("a=1;a=2", &p), -1);
	assert_int_equal(pt_params_parse("a=1;b=2;c=3;d=4;e=5;f=6;g=7;h=8;i=9", &p), -1);
}

/* What the builder writes, the reader gives back. */
static void test_round_trip(void **state)
{
	struct pt_params a, b;
	char out[192];
	uint64_t v;

	(void)state;
	pt_params_init(&a);
	pt_params_size(&a, "ws", 16ull << 10);
	pt_params_str(&a, "backing", "hugetlb");
	assert_int_equal(pt_params_render(&a, out, sizeof(out)), 0);
	assert_string_equal(out, "backing=hugetlb;ws=16384");
	assert_int_equal(pt_params_parse(out, &b), 0);
	assert_string_equal(pt_params_get(&b, "backing"), "hugetlb");
	assert_int_equal(pt_params_get_size(&b, "ws", &v), 0);
	assert_int_equal(v, 16384);
}

static void test_suite_names(void **state)
{
	enum pt_suite s;
	int i;

	(void)state;
	assert_int_equal(pt_suite_parse("quick", &s), 0);
	assert_int_equal(s, PT_SUITE_QUICK);
	assert_int_equal(pt_suite_parse("full", &s), 0);
	assert_int_equal(s, PT_SUITE_FULL);
	assert_int_equal(pt_suite_parse("ci", &s), 0);
	assert_int_equal(s, PT_SUITE_CI);
	assert_int_equal(pt_suite_parse("Quick", &s), -1);
	assert_int_equal(pt_suite_parse("", &s), -1);
	for (i = 0; i < PT_SUITE_N; i++) {
		assert_int_equal(pt_suite_parse(pt_suite_name((enum pt_suite)i), &s), 0);
		assert_int_equal(s, i);
		assert_non_null(pt_suites[i].summary);
	}
	assert_null(pt_suites[PT_SUITE_N].name);
	assert_string_equal(pt_suite_name(PT_SUITE_N), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_sorted),
		cmocka_unit_test(test_render_empty_and_short),
		cmocka_unit_test(test_builder_refuses),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_reader_rejects),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_suite_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
