// SPDX-License-Identifier: GPL-2.0-only
/* /proc/kallsyms read back: text symbols only, by address, and a hidden table said so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/kallsyms.h"

static void fixture(char *out, size_t len, const char *name)
{
	const char *dir = getenv("PTBENCH_FIXTURES");

	snprintf(out, len, "%s/%s", dir ? dir : PTBENCH_SRCDIR "/tests/fixtures", name);
}

static const char *name_at(const struct pt_ksyms *ks, unsigned long long addr)
{
	return pt_ksyms_name(ks, pt_ksyms_find(ks, addr));
}

static void test_text_symbols_by_address(void **state)
{
	struct pt_ksyms ks;
	char path[512], err[256];

	(void)state;
	fixture(path, sizeof(path), "kallsyms-x86_64.txt");
	assert_int_equal(pt_ksyms_load(&ks, path, err, sizeof(err)), 0);
	assert_false(ks.restricted);
	assert_int_equal(ks.lines, 25);
	/* 25 lines: less 2 data symbols and the weak one at address 0 */
	assert_int_equal(ks.n, 22);
	/* at the start, inside, at the last byte before the next symbol */
	assert_string_equal(name_at(&ks, 0xffffffff812f1240ull), "copy_page_range");
	assert_string_equal(name_at(&ks, 0xffffffff812f2000ull), "copy_page_range");
	assert_string_equal(name_at(&ks, 0xffffffff812f3a7full), "copy_page_range");
	assert_string_equal(name_at(&ks, 0xffffffff812f3a80ull), "__pfx_unmap_page_range");
	assert_string_equal(name_at(&ks, 0xffffffff812f4f20ull), "unmap_page_range.cold");
	assert_string_equal(name_at(&ks, 0xffffffff81306010ull), "vma_mmu_pagesize");
	/* aliases at one address: the later line wins, the same every time */
	assert_string_equal(name_at(&ks, 0xffffffff81000000ull), "_stext");
	/* a module's symbol, without its [module] tag */
	assert_string_equal(name_at(&ks, 0xffffffffc0002010ull), "kvm_flush_tlb_multi");
	/* below the first text symbol: none */
	assert_int_equal(pt_ksyms_find(&ks, 0xffffffff80000000ull), -1);
	assert_null(pt_ksyms_name(&ks, -1));
	pt_ksyms_free(&ks);
}

static void test_restricted(void **state)
{
	struct pt_ksyms ks;
	char path[512], err[256];

	(void)state;
	fixture(path, sizeof(path), "kallsyms-restricted.txt");
	assert_int_equal(pt_ksyms_load(&ks, path, err, sizeof(err)), 0);
	assert_true(ks.restricted);
	assert_int_equal(ks.n, 0);
	assert_int_equal(pt_ksyms_find(&ks, 0xffffffff812f1240ull), -1);
	pt_ksyms_free(&ks);
}

static void test_malformed_line(void **state)
{
	static const char bad[] = "ffffffff81000000 T _stext\nnot an address line\n";
	struct pt_ksyms ks;
	char err[256] = "", *text = strdup(bad);

	(void)state;
	assert_non_null(text);
	assert_int_equal(pt_ksyms_parse(&ks, text, strlen(bad), "fixture", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "fixture:2:"));
	assert_int_equal(ks.n, 0);
}

static void test_empty_and_missing(void **state)
{
	struct pt_ksyms ks;
	char err[256] = "", *text = strdup("");

	(void)state;
	assert_int_equal(pt_ksyms_parse(&ks, text, 0, "empty", err, sizeof(err)), 0);
	assert_int_equal(ks.n, 0);
	assert_false(ks.restricted); /* nothing listed is not "hidden" */
	pt_ksyms_free(&ks);
	assert_int_equal(pt_ksyms_load(&ks, "/nonexistent/kallsyms", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/kallsyms"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_symbols_by_address),
		cmocka_unit_test(test_restricted),
		cmocka_unit_test(test_malformed_line),
		cmocka_unit_test(test_empty_and_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
