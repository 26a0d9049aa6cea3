// SPDX-License-Identifier: GPL-2.0-only
/* DAMON described from a fixture tree: kdamonds, operations, schemes; none; absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/damon.h"
#include "util/sysfs.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/mm/damon/admin/kdamonds/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void use_root(void)
{
	setenv("PTBENCH_SYSROOT", root, 1);
	pt_sysroot_reload();
}

static void test_damon(void **state)
{
	char out[512], cmd[128];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/ptbench-damon-XXXXXX");
	assert_non_null(mkdtemp(root));
	use_root();
	pt_damon_describe(out, sizeof(out));
	assert_string_equal(out, ""); /* no DAMON interface at all */

	put("nr_kdamonds", "0");
	pt_damon_describe(out, sizeof(out));
	assert_string_equal(out, "none");

	put("nr_kdamonds", "1");
	put("0/state", "on");
	put("0/pid", "79");
	put("0/contexts/nr_contexts", "1");
	put("0/contexts/0/operations", "paddr");
	put("0/contexts/0/schemes/nr_schemes", "1");
	put("0/contexts/0/schemes/0/action", "pageout");
	pt_damon_describe(out, sizeof(out));
	assert_string_equal(out, "kdamond 0 on (pid 79): paddr, schemes pageout");

	/* a small buffer is cut with "...", never overrun */
	pt_damon_describe(out, 16);
	assert_int_equal(strlen(out), 15);
	assert_string_equal(out + 12, "...");

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_damon),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
