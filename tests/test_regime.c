// SPDX-License-Identifier: GPL-2.0-only
/* The translation regime derived from fixture trees posing as other machines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/env.h"
#include "util/sysfs.h"

static void pose_as(const char *fixture)
{
	const char *dir = getenv("PTBENCH_FIXTURES");
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures", fixture);
	setenv("PTBENCH_SYSROOT", path, 1);
	pt_sysroot_reload();
}

static void expect(const char *fixture, const char *text, unsigned levels, enum pt_format f,
		   uint64_t page, uint64_t pmd, unsigned va)
{
	struct pt_regime r;

	pose_as(fixture);
	assert_int_equal(pt_regime_detect(&r), 0);
	assert_string_equal(r.text, text);
	assert_int_equal(r.levels, levels);
	assert_int_equal(r.format, f);
	assert_int_equal(r.page_size, page);
	assert_int_equal(r.pmd_size, pmd);
	assert_int_equal(r.va_bits, va);
}

static void test_x86_64(void **state)
{
	(void)state;
	/* CONFIG_PGTABLE_LEVELS=5 but no la57: the kernel runs 4-level. */
	expect("sysroot-x86_64", "x86-64 4-level (same geometry as arm64 4K D64 VA48)", 4, PT_D64,
	       4096, 2097152, 48);
	expect("sysroot-x86_64-la57", "x86-64 5-level", 5, PT_D64, 4096, 2097152, 57);
}

static void test_arm64_4k(void **state)
{
	(void)state;
	expect("sysroot-arm64-4k-d64", "arm64 4K D64 VA48, 4 levels", 4, PT_D64, 4096, 2097152, 48);
	expect("sysroot-arm64-4k-d128", "arm64 4K D128 VA48, 5 levels", 5, PT_D128, 4096, 1048576,
	       48);
}

static void test_arm64_d128_without_config(void **state)
{
	struct pt_regime r;

	(void)state;
	/* Only hpage_pmd_size = 1M tells: 4K pages, 16-byte descriptors. */
	expect("sysroot-arm64-4k-d128-noconfig", "arm64 4K D128 VA48, 5 levels", 5, PT_D128, 4096,
	       1048576, 48);
	assert_int_equal(pt_regime_detect(&r), 0);
	assert_false(r.config_known);
}

static void test_arm64_64k(void **state)
{
	(void)state;
	expect("sysroot-arm64-64k", "arm64 64K D64 VA52, 3 levels", 3, PT_D64, 65536, 536870912,
	       52);
}

static void test_kconfig(void **state)
{
	char v[32];

	(void)state;
	pose_as("sysroot-arm64-4k-d128");
	assert_int_equal(pt_kconfig_get("CONFIG_ARM64_D128", v, sizeof(v)), 0);
	assert_string_equal(v, "y");
	assert_int_equal(pt_kconfig_get("CONFIG_NOT_THERE", v, sizeof(v)), -1);
	pose_as("sysroot-arm64-4k-d64");
	/* "# CONFIG_ARM64_D128 is not set" is not a value. */
	assert_int_equal(pt_kconfig_get("CONFIG_ARM64_D128", v, sizeof(v)), -1);
	pose_as("sysroot-arm64-4k-d128-noconfig");
	assert_int_equal(pt_kconfig_get("CONFIG_ARM64_D128", v, sizeof(v)), -2);
}

static void test_sysfs_accessor(void **state)
{
	char buf[64], real[1024];

	(void)state;
	pose_as("sysroot-arm64-4k-d128");
	assert_true(pt_sys_read_choice("/sys/kernel/mm/transparent_hugepage/enabled", buf,
				       sizeof(buf)) == 0);
	assert_string_equal(buf, "madvise");
	/* Process files the fixture lacks are the live ones. */
	assert_int_equal(pt_sys_path("/proc/self/status", real, sizeof(real)), 0);
	assert_string_equal(real, "/proc/self/status");
	assert_int_equal(pt_sys_path("/proc/meminfo", real, sizeof(real)), 0);
	assert_non_null(strstr(real, "sysroot-arm64-4k-d128/proc/meminfo"));
	assert_int_equal(pt_sys_kv_kb("/proc/meminfo", "MemAvailable"), 20000000);
	assert_int_equal(pt_sys_kv_kb("/proc/meminfo", "NoSuchKey"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_64),
		cmocka_unit_test(test_arm64_4k),
		cmocka_unit_test(test_arm64_d128_without_config),
		cmocka_unit_test(test_arm64_64k),
		cmocka_unit_test(test_kconfig),
		cmocka_unit_test(test_sysfs_accessor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
