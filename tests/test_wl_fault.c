// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verification logic of the fault, mprotect and munmap workloads: the fault
 * bounds each case checks against, the page-table freeing check, sizes, the
 * case tables and the per-repetition knob save/restore.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/sysfs.h"
#include "workloads/fault.h"
#include "workloads/wl_common.h"

#define K4 4096ull
#define M2 (2ull << 20)

static void bounds(enum fault_kind k, enum pt_backing b, uint64_t pages, uint64_t mthp, double *lo,
		   double *hi)
{
	fault_bounds(k, b, pages, K4, M2, mthp, lo, hi);
	assert_true(*lo <= *hi);
}

static void test_bounds_base_pages(void **state)
{
	double lo, hi;

	(void)state;
	bounds(FAULT_ANON_WRITE, PT_BACK_4K, 16384, 0, &lo, &hi);
	/* One fault per page passes; half of them or twice as many fail. */
	assert_true(lo <= 16384 && 16384 <= hi);
	assert_true(8192 < lo);
	assert_true(32768 > hi);
	assert_true(hi < 16384 * 1.1);
}

static void test_bounds_huge(void **state)
{
	double lo, hi;

	(void)state;
	/* 64M of THP: 32 faults, never one per base page. */
	bounds(FAULT_ANON_WRITE, PT_BACK_THP, 16384, 0, &lo, &hi);
	assert_true(lo <= 32 && 32 <= hi);
	assert_true(hi < 200);
	bounds(FAULT_FILE_SHARED_WRITE, PT_BACK_THP, 16384, 0, &lo, &hi);
	assert_true(lo <= 32 && 32 <= hi && hi < 200);
	/* The huge zero page. */
	bounds(FAULT_ANON_READ, PT_BACK_THP, 16384, 0, &lo, &hi);
	assert_true(lo <= 32 && 32 <= hi && hi < 200);
	/* 64K mTHP: 1024 faults. */
	bounds(FAULT_ANON_WRITE, PT_BACK_MTHP, 16384, 64 << 10, &lo, &hi);
	assert_true(lo <= 1024 && 1024 <= hi && hi < 4096);
	assert_true(lo > 32);
}

static void test_bounds_cow_is_per_page(void **state)
{
	double lo, hi;

	(void)state;
	/* Copy-on-write maps base pages whatever the source was. */
	bounds(FAULT_COW_CHILD, PT_BACK_THP, 16384, 0, &lo, &hi);
	assert_true(lo <= 16384 && 16384 <= hi && lo > 8192);
	bounds(FAULT_FILE_PRIV_WRITE, PT_BACK_THP, 16384, 0, &lo, &hi);
	assert_true(lo <= 16384 && 16384 <= hi && lo > 8192);
	bounds(FAULT_COW_CHILD, PT_BACK_MTHP, 16384, 64 << 10, &lo, &hi);
	assert_true(lo > 8192);
}

static void test_bounds_fault_around(void **state)
{
	double lo, hi;

	(void)state;
	/* Fault-around of 16 pages is accepted, more faults than pages are not. */
	bounds(FAULT_FILE_PRIV_READ, PT_BACK_4K, 16384, 0, &lo, &hi);
	assert_true(lo <= 1024 && 16384 <= hi && hi < 16384 * 1.1);
	assert_true(lo > 0);
}

static void test_freed_fraction(void **state)
{
	(void)state;
	assert_true(wl_freed_fraction(228, 100, 128) == 1.0);
	assert_true(wl_freed_fraction(228, 164, 128) == 0.5);
	assert_true(wl_freed_fraction(228, 228, 128) == 0.0);
	/* A PMD table freed as well: more than expected. */
	assert_true(wl_freed_fraction(232, 100, 128) > 1.0);
	assert_true(wl_freed_fraction(228, 100, 0) < 0);
	assert_true(wl_freed_fraction(-1, 100, 128) < 0);
}

static void test_fit_size(void **state)
{
	struct pt_suite_opts o = { .max_mem = 1ull << 30, .page_size = K4, .pmd_size = M2 };

	(void)state;
	assert_true(wl_fit_size(&o, 64ull << 20) == 64ull << 20);
	o.max_mem = 5ull << 20;
	assert_true(wl_fit_size(&o, 64ull << 20) == 4ull << 20);
	o.max_mem = 1ull << 20;
	assert_true(wl_fit_size(&o, 64ull << 20) == M2);
	o.pmd_size = 1ull << 20; /* a 4K D128 kernel: 1M PMD */
	o.max_mem = 3ull << 20;
	assert_true(wl_fit_size(&o, 64ull << 20) == 3ull << 20);
}

static void test_labels(void **state)
{
	struct pt_case c = { .backing = PT_BACK_MTHP, .mthp_size = 64 << 10 };
	char buf[32];

	(void)state;
	wl_backing_label(&c, buf, sizeof(buf));
	assert_string_equal(buf, "mthp64K");
	c.backing = PT_BACK_THP;
	wl_backing_label(&c, buf, sizeof(buf));
	assert_string_equal(buf, "thp");
	assert_string_equal(fault_kind_name(FAULT_COW_CHILD), "cow-child");
	assert_string_equal(fault_kind_name(FAULT_NKINDS), "unknown");
}

/* params: key=value pairs, keys sorted. */
static void check_params_sorted(const char *params)
{
	char prev[64] = "", key[64];
	const char *p = params;

	while (*p) {
		size_t n = strcspn(p, "=");

		assert_true(n > 0 && n < sizeof(key));
		memcpy(key, p, n);
		key[n] = '\0';
		assert_true(strcmp(prev, key) < 0);
		strcpy(prev, key);
		p += strcspn(p, ";");
		if (*p == ';')
			p++;
	}
}

static void check_suite(const struct pt_workload *w, enum pt_suite suite, uint64_t max_mem,
			bool root, int ncpus)
{
	struct pt_suite_opts o = { .suite = suite,
				   .max_mem = max_mem,
				   .page_size = K4,
				   .pmd_size = M2,
				   .pud_size = 1ull << 30,
				   .ncpus = ncpus,
				   .is_root = root };
	struct pt_case *cases = calloc(PT_MAX_CASES, sizeof(*cases));
	int n, i, j;

	assert_non_null(cases);
	n = w->cases(&o, cases, PT_MAX_CASES);
	assert_true(n > 0 && n < PT_MAX_CASES);
	for (i = 0; i < n; i++) {
		const struct pt_case *c = &cases[i];
		int tasks = strcmp(w->name, "fault") ? 1 : fault_case_get(c).tasks;

		assert_true(c->name[0] && c->params[0]);
		check_params_sorted(c->params);
		assert_true(c->size >= M2 && c->size % M2 == 0);
		assert_true(c->size <= max_mem);
		assert_true(c->mem_bytes >= c->size * (uint64_t)tasks);
		assert_true(!root ? c->backing != PT_BACK_MTHP : true);
		assert_true(tasks <= ncpus);
		for (j = 0; j < i; j++)
			assert_string_not_equal(c->name, cases[j].name);
	}
	free(cases);
}

static void test_case_tables(void **state)
{
	static const char *const names[] = { "fault", "mprotect", "munmap" };
	size_t w;
	int s;

	(void)state;
	for (w = 0; w < 3; w++) {
		const struct pt_workload *wl = pt_workload_find(names[w]);

		assert_non_null(wl);
		for (s = 0; s < PT_SUITE_N; s++) {
			check_suite(wl, (enum pt_suite)s, 1ull << 30, false, 2);
			check_suite(wl, (enum pt_suite)s, 4ull << 30, true, 8);
			check_suite(wl, (enum pt_suite)s, 4ull << 20, false, 2);
		}
	}
}

/* arm64 64K: a 512M PMD is order 13, past what the page cache holds: no file THP cases. */
static void test_no_file_thp_under_64k(void **state)
{
	struct pt_suite_opts o = { .suite = PT_SUITE_QUICK,
				   .max_mem = 1ull << 30,
				   .page_size = 64 << 10,
				   .pmd_size = 512ull << 20,
				   .ncpus = 2,
				   .is_root = true };
	const struct pt_workload *wl = pt_workload_find("fault");
	struct pt_case *cases = calloc(PT_MAX_CASES, sizeof(*cases));
	int n, i, file_thp = 0, anon_thp = 0;

	(void)state;
	assert_non_null(wl);
	assert_non_null(cases);
	n = wl->cases(&o, cases, PT_MAX_CASES);
	for (i = 0; i < n; i++) {
		if (cases[i].backing != PT_BACK_THP)
			continue;
		if (!strncmp(cases[i].name, "file-", 5))
			file_thp++;
		else
			anon_thp++;
	}
	assert_int_equal(file_thp, 0);
	assert_true(anon_thp > 0);
	/* 16K: a 32M PMD is order 11, which it holds. */
	o.page_size = 16 << 10;
	o.pmd_size = 32ull << 20;
	n = wl->cases(&o, cases, PT_MAX_CASES);
	for (i = 0; i < n; i++)
		if (cases[i].backing == PT_BACK_THP && !strncmp(cases[i].name, "file-", 5))
			file_thp++;
	assert_int_equal(file_thp, 3);
	free(cases);
}

/* A knob pushed for one repetition comes back when popped, in a fixture sysroot. */
static void test_knob_push_pop(void **state)
{
	char root[] = "/tmp/ptbench-wlknob-XXXXXX", dir[256], path[320], cmd[400], buf[64];
	const char *knob = "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled";
	struct wl_knobs ks = { 0 };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/sys/kernel/mm/transparent_hugepage/hugepages-64kB", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/enabled", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("always inherit madvise [never]\n", f);
	fclose(f);
	setenv("PTBENCH_SYSROOT", root, 1);
	pt_sysroot_reload();
	assert_int_equal(wl_knob_push(&ks, knob, "always"), 0);
	assert_true(pt_sys_read(knob, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, "always");
	wl_knobs_pop(&ks);
	assert_int_equal(ks.n, 0);
	assert_true(pt_sys_read(knob, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, "never");
	unsetenv("PTBENCH_SYSROOT");
	pt_sysroot_reload();
	snprintf(cmd, sizeof(cmd), "rm -r %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_base_pages),
		cmocka_unit_test(test_no_file_thp_under_64k),
		cmocka_unit_test(test_bounds_huge),
		cmocka_unit_test(test_bounds_cow_is_per_page),
		cmocka_unit_test(test_bounds_fault_around),
		cmocka_unit_test(test_freed_fraction),
		cmocka_unit_test(test_fit_size),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_case_tables),
		cmocka_unit_test(test_knob_push_pop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
