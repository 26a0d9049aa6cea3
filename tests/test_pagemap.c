// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/PID/maps and /proc/PID/pagemap reading: on the fixture sysroot
 * tests/fixtures/pagemap/root (made by make_fixture.py there), and live on
 * pages this test maps and touches itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/pagemap.h"
#include "util/sysfs.h"

/*
 * Under AddressSanitizer the process maps terabytes of shadow memory: the
 * chunked pagemap read of all of it is correct but takes minutes.
 */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static void test_maps_lines(void **state)
{
	struct pt_vma v;

	(void)state;
	assert_int_equal(
		pt_maps_parse_line("7f12a0000000-7f12a0021000 rw-p 00000000 00:00 0 \n", &v), 0);
	assert_int_equal(v.start, 0x7f12a0000000ull);
	assert_int_equal(v.end, 0x7f12a0021000ull);
	assert_string_equal(v.perms, "rw-p");
	assert_string_equal(v.name, "");
	assert_int_equal(pt_maps_parse_line("00400000-00452000 r-xp 00000000 08:02 173521    "
					    "  /usr/bin/dbus-daemon\n",
					    &v),
			 0);
	assert_string_equal(v.name, "/usr/bin/dbus-daemon");
	assert_int_equal(pt_maps_parse_line("7ffd4-7ffd5 rw-p 0 00:00 0 [stack]", &v), 0);
	assert_string_equal(v.name, "[stack]");
	/* malformed */
	assert_int_equal(pt_maps_parse_line("", &v), -1);
	assert_int_equal(pt_maps_parse_line("garbage line", &v), -1);
	assert_int_equal(pt_maps_parse_line("2000-1000 rw-p 0 00:00 0", &v), -1);
	assert_int_equal(pt_maps_parse_line("1000-2000 rw-p-x 0 00:00 0", &v), -1);
	assert_int_equal(pt_maps_parse_line("1000-2000 rw-p 0 00:00", &v), -1);
}

static int use_fixture(void)
{
	const char *dir = getenv("PTBENCH_FIXTURES");
	char root[1024];

	if (!dir)
		dir = PTBENCH_SRCDIR "/tests/fixtures";
	snprintf(root, sizeof(root), "%s/pagemap/root", dir);
	if (access(root, F_OK))
		return -1;
	setenv("PTBENCH_SYSROOT", root, 1);
	pt_sysroot_reload();
	return 0;
}

static void leave_fixture(void)
{
	unsetenv("PTBENCH_SYSROOT");
	pt_sysroot_reload();
}

static void expect_extent(const struct pt_extent *e, uint64_t start, uint64_t len, int kind,
			  unsigned shift)
{
	assert_int_equal(e->start, start);
	assert_int_equal(e->len, len);
	assert_int_equal(e->kind, kind);
	assert_int_equal(e->huge_shift, shift);
}

static void test_fixture(void **state)
{
	struct pt_pagemap_stats st;
	struct pt_layout l;
	char err[256];

	(void)state;
	if (sysconf(_SC_PAGESIZE) != 4096)
		skip(); /* the fixture is of a 4K-page machine */
	assert_int_equal(use_fixture(), 0);
	assert_int_equal(pt_pagemap_read(4242, 0, &l, &st, err, sizeof(err)), 0);
	leave_fixture();
	assert_false(st.used_scan_ioctl); /* a plain file: the chunked read */
	assert_true(st.thp_known);
	assert_int_equal(st.vmas, 3); /* [vsyscall] skipped */
	assert_string_equal(l.comm, "fixture");
	assert_int_equal(l.pid, 4242);
	assert_int_equal(l.n, 5);
	expect_extent(&l.ext[0], 0x10000, 0x3000, PT_MAP_BASE, 0);
	expect_extent(&l.ext[1], 0x15000, 0x1000, PT_MAP_BASE, 0); /* swapped */
	expect_extent(&l.ext[2], 0x200000, 0x200000, PT_MAP_THP, 21);
	expect_extent(&l.ext[3], 0x400000, 0xa000, PT_MAP_BASE, 0);
	expect_extent(&l.ext[4], 0x800000, 0x200000, PT_MAP_HUGETLB, 21);
	assert_int_equal(st.populated_bytes, (4 + 512 + 10 + 512) * 4096ull);
	assert_int_equal(st.thp_bytes, 0x200000);
	assert_int_equal(st.hugetlb_bytes, 0x200000);
	pt_layout_free(&l);
}

static void test_bad_pid(void **state)
{
	struct pt_pagemap_stats st;
	struct pt_layout l;
	char err[256] = "";

	(void)state;
	/* pid_max is at most 2^22: this one cannot exist */
	assert_int_equal(pt_pagemap_read(0x3fffffff, 0, &l, &st, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/proc/1073741823/maps"));
	assert_null(l.ext);
}

/* Which of the region's pages does the layout say are populated? */
static void populated_pages(const struct pt_layout *l, uint64_t base, size_t pages, char *out)
{
	size_t i, p;

	memset(out, 0, pages);
	for (i = 0; i < l->n; i++) {
		const struct pt_extent *e = &l->ext[i];

		for (p = 0; p < pages; p++) {
			uint64_t a = base + p * 4096ull;

			if (a >= e->start && a < e->start + e->len)
				out[p] = 1;
		}
	}
}

static void test_live_self(void **state)
{
	const size_t pages = 64, page = (size_t)sysconf(_SC_PAGESIZE);
	char want[64] = { 0 }, got[64];
	unsigned flags[] = { 0, PT_PAGEMAP_NO_SCAN };
	struct pt_pagemap_stats st;
	struct pt_layout l;
	char err[256];
	size_t i, f;
	char *p;

	(void)state;
	if (page != 4096)
		skip();
	p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	madvise(p, pages * page, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		if (i == 0 || i == 3 || (i >= 10 && i < 20) || i == 63) {
			p[i * page] = 1;
			want[i] = 1;
		}
	for (f = 0; f < 2; f++) {
		if (UNDER_ASAN && (flags[f] & PT_PAGEMAP_NO_SCAN))
			continue;
		assert_int_equal(pt_pagemap_read(0, flags[f], &l, &st, err, sizeof(err)), 0);
		assert_int_equal(l.pid, getpid());
		assert_true(st.vmas > 3);
		populated_pages(&l, (uint64_t)(uintptr_t)p, pages, got);
		assert_memory_equal(got, want, pages);
		assert_int_equal(pt_layout_check(&l, err, sizeof(err)), 0);
		pt_layout_free(&l);
	}
	munmap(p, pages * page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maps_lines),
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_bad_pid),
		cmocka_unit_test(test_live_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
