// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/page_reporting.h"
#include "util/knobs.h"
#include "util/path.h"
#include "util/sysfs.h"

/* A guest's buddyinfo: orders 0 to 10. */
#define BUDDYINFO                                                                                  \
	"Node 0, zone      DMA      0      0      0      0      0      0      0      0 "           \
	"     1      1      2\n"                                                                   \
	"Node 0, zone    DMA32   1271    863    493    207     72     33     14      5 "           \
	"     2      3    413\n"

static void test_max_order(void **state)
{
	(void)state;
	assert_int_equal(pt_buddy_max_order(BUDDYINFO), 10);
	assert_int_equal(pt_buddy_max_order("Node 0, zone DMA 5 6 7"), 2);
	assert_int_equal(pt_buddy_max_order("Node 0, zone DMA"), -1);
	assert_int_equal(pt_buddy_max_order(""), -1);
}

static void test_choose(void **state)
{
	int want = -1;

	(void)state;
	assert_int_equal(pt_page_reporting_choose("9", 10, true, &want), PT_PR_KEEP);
	assert_int_equal(pt_page_reporting_choose("9", -1, false, &want), PT_PR_UNKNOWN);
	assert_int_equal(want, -1);
	assert_int_equal(pt_page_reporting_choose("9", 10, false, &want), PT_PR_PAUSE);
	assert_int_equal(want, 11);
	/* the largest order itself still reports: paused one above it */
	assert_int_equal(pt_page_reporting_choose("10", 10, false, &want), PT_PR_PAUSE);
	assert_int_equal(want, 11);
	/* above it: another run's pause, left for that run to restore */
	assert_int_equal(pt_page_reporting_choose("11", 10, false, &want), PT_PR_PAUSED_ALREADY);
	assert_int_equal(pt_page_reporting_choose("junk", 10, false, &want), PT_PR_PAUSE);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	assert_int_equal(pt_path_join(path, sizeof(path), root, rel), 0);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(pt_mkdir_p(dir, 0755), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_pause(void **state)
{
	char root[] = "/tmp/ptbench-test-pr-XXXXXX", desc[128], val[32], cmd[PATH_MAX + 16];

	(void)state;
	assert_non_null(mkdtemp(root));
	setenv("PTBENCH_SYSROOT", root, 1);
	pt_sysroot_reload();
	pt_page_reporting_pause(false, desc, sizeof(desc));
	assert_string_equal(desc, "absent");

	put(root, "proc/buddyinfo", BUDDYINFO);
	put(root, PT_PAGE_REPORTING_ORDER + 1, "9\n");
	pt_page_reporting_pause(true, desc, sizeof(desc));
	assert_string_equal(desc, "on (order 9)");
	pt_page_reporting_pause(false, desc, sizeof(desc));
	assert_string_equal(desc, "paused (order 9 -> 11)");
	assert_int_equal(pt_sys_read_choice(PT_PAGE_REPORTING_ORDER, val, sizeof(val)), 0);
	assert_string_equal(val, "11");
	/* a second run sees the first one's pause */
	pt_page_reporting_pause(false, desc, sizeof(desc));
	assert_string_equal(desc, "paused already (order 11)");
	pt_knob_restore_all();
	assert_int_equal(pt_sys_read_choice(PT_PAGE_REPORTING_ORDER, val, sizeof(val)), 0);
	assert_string_equal(val, "9");

	unsetenv("PTBENCH_SYSROOT");
	pt_sysroot_reload();
	snprintf(cmd, sizeof(cmd), "rm -r '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_max_order),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_pause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
