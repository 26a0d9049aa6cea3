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

/* A PVM guest's boot line: the kernel names it, and PVM shadows the page tables. */
static void test_klog_pvm(void **state)
{
	struct pt_virt v;

	(void)state;
	memset(&v, 0, sizeof(v));
	pt_virt_from_klog(&v, "<6>[    0.000000] DMI not present or invalid.\n"
			      "<6>[    0.000000] Hypervisor detected: PVM\n"
			      "<6>[    0.000031] pvm-pv: running under PVM (pv-lite)\n");
	assert_true(v.virtualized);
	assert_string_equal(v.hypervisor, "PVM");
	assert_string_equal(v.paging, "shadow");
	assert_non_null(strstr(v.evidence, "kernel log: Hypervisor detected: PVM"));
	memset(&v, 0, sizeof(v));
	pt_virt_from_klog(&v, "<6>[    0.000000] Hypervisor detected: KVM\n");
	assert_string_equal(v.hypervisor, "KVM");
	/* KVM's default two-dimensional paging, said to be assumed */
	assert_string_equal(v.paging, "nested");
	assert_non_null(strstr(v.evidence, "paging nested: KVM's default, assumed"));
	/* detect() asks again after the kernel log: the note is not repeated */
	pt_virt_from_klog(&v, "<6>[    0.000000] Hypervisor detected: KVM\n");
	assert_null(strstr(strstr(v.evidence, "assumed") + 1, "assumed"));
	memset(&v, 0, sizeof(v));
	pt_virt_from_klog(&v, "<6>[    0.000000] Linux version 6.1\n");
	assert_false(v.virtualized);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kvm_guest),
		cmocka_unit_test(test_native),
		cmocka_unit_test(test_klog_pvm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
