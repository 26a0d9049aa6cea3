// SPDX-License-Identifier: GPL-2.0-only
/* Virtualization detection on fixture sysroots: a KVM guest and a native x86-64 host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness/virt.h"
#include "util/sysfs.h"

static void pose_as(const char *fixture)
{
	const char *dir = getenv("PTBENCH_FIXTURES");
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures", fixture);
	setenv("PTBENCH_SYSROOT", path, 1);
	pt_sysroot_reload();
}

static void test_kvm_guest(void **state)
{
	struct pt_virt v;

	(void)state;
	pose_as("sysroot-kvm-guest");
	pt_virt_detect(&v);
	assert_true(v.known);
	assert_true(v.virtualized);
	assert_non_null(strstr(v.evidence, "cpuinfo hypervisor flag"));
	assert_non_null(strstr(v.evidence, "dmi QEMU"));
}

static void test_native(void **state)
{
	struct pt_virt v;

	(void)state;
	pose_as("sysroot-x86_64");
	pt_virt_detect(&v);
	assert_true(v.known);
	assert_false(v.virtualized);
	assert_string_equal(v.hypervisor, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kvm_guest),
		cmocka_unit_test(test_native),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
