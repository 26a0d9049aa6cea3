// SPDX-License-Identifier: GPL-2.0-only
/*
 * The thp workload's mTHP pieces: which sizes a sysroot offers, the knob of
 * a size, and the share of pages faulted in as mTHP folios, the check its
 * mTHP cases make.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/sysfs.h"
#include "workloads/thp.h"
#include "workloads/wl_common.h"

static char root[64];

static void make_size(const char *name, bool knob)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s" THP_SYSFS "/%s", root, name);
	assert_int_equal(mkdir(path, 0755), 0);
	if (!knob)
		return;
	strncat(path, "/enabled", sizeof(path) - strlen(path) - 1);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("always inherit madvise [never]\n", f);
	fclose(f);
}

static int make_root(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/ptbench-wlthp-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s" THP_SYSFS, root);
	if (system(cmd))
		return -1;
	setenv("PTBENCH_SYSROOT", root, 1);
	pt_sysroot_reload();
	return 0;
}

static int remove_root(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	unsetenv("PTBENCH_SYSROOT");
	pt_sysroot_reload();
	return system(cmd) ? -1 : 0;
}

static void test_mthp_sizes(void **state)
{
	uint64_t sizes[8];
	size_t n;

	(void)state;
	n = thp_mthp_sizes(4096, 2u << 20, sizes, 8);
	assert_int_equal(n, 0);
	make_size("hugepages-64kB", true);
	make_size("hugepages-16kB", true);
	make_size("hugepages-1024kB", true);
	make_size("hugepages-2048kB", true); /* the PMD size: not an mTHP size */
	make_size("hugepages-4kB", true); /* a page: neither */
	make_size("hugepages-32kB", false); /* no knob to write */
	make_size("hugepages-128kBx", true); /* not a size */
	n = thp_mthp_sizes(4096, 2u << 20, sizes, 8);
	assert_int_equal(n, 3);
	assert_int_equal(sizes[0], 16u << 10);
	assert_int_equal(sizes[1], 64u << 10);
	assert_int_equal(sizes[2], 1024u << 10);
	/* D128 with 4K pages: the PMD is 1M, so 1024kB is no longer an mTHP size. */
	n = thp_mthp_sizes(4096, 1u << 20, sizes, 8);
	assert_int_equal(n, 2);
	/* max is honoured */
	n = thp_mthp_sizes(4096, 2u << 20, sizes, 1);
	assert_int_equal(n, 1);
}

static void test_mthp_knob(void **state)
{
	char path[160];

	(void)state;
	wl_mthp_knob_path(64u << 10, "enabled", path, sizeof(path));
	assert_string_equal(path, "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled");
}

static void test_mthp_fraction(void **state)
{
	(void)state;
	/* 16K folios (4 pages): 1024 pages in 256 faults, all folios. */
	assert_float_equal(thp_mthp_fraction(1024, 256, 4), 1.0, 1e-9);
	/* Every fault one page: nothing in folios. */
	assert_float_equal(thp_mthp_fraction(1024, 1024, 4), 0.0, 1e-9);
	/* 200 folios (800 pages) and 224 single pages: 424 faults. */
	assert_float_equal(thp_mthp_fraction(1024, 424, 4), 800.0 / 1024, 1e-9);
	/* Nonsense in, 0 out. */
	assert_float_equal(thp_mthp_fraction(0, 0, 4), 0.0, 1e-9);
	assert_float_equal(thp_mthp_fraction(1024, 2048, 4), 0.0, 1e-9);
	assert_float_equal(thp_mthp_fraction(1024, 256, 1), 0.0, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mthp_sizes, make_root, remove_root),
		cmocka_unit_test(test_mthp_knob),
		cmocka_unit_test(test_mthp_fraction),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
