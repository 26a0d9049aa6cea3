// SPDX-License-Identifier: GPL-2.0-only
/* The host's caches from a fixture sysfs, a hypervisor's odd L3 included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness/hostcache.h"
#include "util/sysfs.h"

static void put(const char *root, unsigned idx, const char *file, const char *value)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%u", root, idx);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", path);
	assert_int_equal(system(cmd), 0);
	strcat(path, "/");
	strcat(path, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", value);
	fclose(f);
}

static void cache(const char *root, unsigned idx, const char *type, const char *level,
		  const char *size, const char *ways)
{
	put(root, idx, "type", type);
	put(root, idx, "level", level);
	put(root, idx, "size", size);
	put(root, idx, "ways_of_associativity", ways);
}

static void test_host_caches(void **state)
{
	char root[] = "/tmp/ptbench-hostcache-XXXXXX", cmd[64];
	struct pt_host_cache c[8];
	struct pt_walk_cfg cfg;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(root));
	cache(root, 0, "Data", "1", "48K", "12");
	cache(root, 1, "Instruction", "1", "32K", "8");
	cache(root, 2, "Unified", "2", "2048K", "16");
	/* 480 MiB, 16-way: 491520 sets, not a power of two */
	cache(root, 3, "Unified", "3", "491520K", "16");
	setenv("PTBENCH_SYSROOT", root, 1);
	pt_sysroot_reload();
	n = pt_host_caches_read(c, 8);
	unsetenv("PTBENCH_SYSROOT");
	pt_sysroot_reload();
	snprintf(cmd, sizeof(cmd), "rm -r %s", root);
	assert_int_equal(system(cmd), 0);

	assert_int_equal(n, 3); /* the instruction cache is not one */
	assert_int_equal(c[0].level, 1);
	assert_int_equal(c[0].sets, 64);
	assert_int_equal(c[0].sim_sets, 64);
	assert_int_equal(c[0].bytes, 48 << 10);
	assert_int_equal(c[1].level, 2);
	assert_int_equal(c[1].bytes, 2 << 20);
	assert_int_equal(c[2].level, 3);
	assert_string_equal(c[2].size, "491520K");
	assert_int_equal(c[2].sets, 491520);
	/* rounded down to the largest power of two that fits */
	assert_int_equal(c[2].sim_sets, 262144);
	assert_int_equal(c[2].bytes, 262144ull * 64 * 16);
	pt_walk_cfg_default(&cfg);
	pt_host_caches_apply(c, n, &cfg);
	assert_int_equal(cfg.cache[0].size_bytes, 48 << 10);
	assert_int_equal(cfg.cache[0].ways, 12);
	assert_int_equal(cfg.cache[2].size_bytes, 256ull << 20);
	assert_int_equal(cfg.cache[2].ways, 16);
}

/*
 * CPUID, on whatever CPU runs the test: never the LLC, never more than max,
 * and each cache one the simulator can index (power-of-two sets). On a CPU
 * without the leaves (or off x86) nothing comes back.
 */
static void test_cpuid_caches(void **state)
{
	struct pt_host_cache c[8];
	size_t n, i;

	(void)state;
	n = pt_host_caches_cpuid(c, 8);
	assert_true(n <= 8);
	for (i = 0; i < n; i++) {
		assert_true(c[i].level == 1 || c[i].level == 2);
		assert_true(c[i].ways > 0);
		assert_int_equal(c[i].sim_sets & (c[i].sim_sets - 1), 0);
		assert_true(c[i].bytes > 0 && c[i].bytes == c[i].sim_sets * 64 * c[i].ways);
	}
	assert_true(pt_host_caches_cpuid(c, 1) <= 1);
}

/* No sysfs cache directory: nothing found, nothing changed. */
static void test_no_caches(void **state)
{
	struct pt_host_cache c[8];

	(void)state;
	setenv("PTBENCH_SYSROOT", "/nonexistent-ptbench-root", 1);
	pt_sysroot_reload();
	assert_int_equal(pt_host_caches_read(c, 8), 0);
	unsetenv("PTBENCH_SYSROOT");
	pt_sysroot_reload();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_caches),
		cmocka_unit_test(test_no_caches),
		cmocka_unit_test(test_cpuid_caches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
