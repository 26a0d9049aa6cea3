// SPDX-License-Identifier: GPL-2.0-only
/*
 * The symbol -> component table: the component names the D128 model reads,
 * compiler suffixes, prefixes that must not over-reach, and entry helpers
 * that take their caller's component.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "harness/profile_map.h"

static void test_names_are_the_contract(void **state)
{
	static const char *const want[PT_COMP_N] = {
		"pt_copy", "pt_chprot", "pt_zap",    "pt_free",	     "pt_alloc",
		"pt_set",  "zero",	"tlb_flush", "kernel_other", "user",
	};
	int c;

	(void)state;
	for (c = 0; c < PT_COMP_N; c++)
		assert_string_equal(pt_prof_comp_name(c), want[c]);
}

static void test_exact_names(void **state)
{
	(void)state;
	assert_int_equal(pt_prof_comp_of("copy_page_range"), PT_COMP_PT_COPY);
	assert_int_equal(pt_prof_comp_of("copy_huge_pmd"), PT_COMP_PT_COPY);
	assert_int_equal(pt_prof_comp_of("change_protection"), PT_COMP_PT_CHPROT);
	assert_int_equal(pt_prof_comp_of("change_pte_range"), PT_COMP_PT_CHPROT);
	assert_int_equal(pt_prof_comp_of("__ptep_modify_prot_start"), PT_COMP_PT_CHPROT);
	assert_int_equal(pt_prof_comp_of("unmap_page_range"), PT_COMP_PT_ZAP);
	assert_int_equal(pt_prof_comp_of("zap_huge_pmd"), PT_COMP_PT_ZAP);
	assert_int_equal(pt_prof_comp_of("free_pgtables"), PT_COMP_PT_FREE);
	assert_int_equal(pt_prof_comp_of("tlb_remove_table"), PT_COMP_PT_FREE);
	assert_int_equal(pt_prof_comp_of("__pte_alloc"), PT_COMP_PT_ALLOC);
	assert_int_equal(pt_prof_comp_of("pte_alloc_one"), PT_COMP_PT_ALLOC);
	assert_int_equal(pt_prof_comp_of("__handle_mm_fault"), PT_COMP_PT_SET);
	assert_int_equal(pt_prof_comp_of("do_huge_pmd_anonymous_page"), PT_COMP_PT_SET);
	assert_int_equal(pt_prof_comp_of("clear_page_erms"), PT_COMP_ZERO);
	assert_int_equal(pt_prof_comp_of("folio_zero_user"), PT_COMP_ZERO);
	assert_int_equal(pt_prof_comp_of("flush_tlb_mm_range"), PT_COMP_TLB_FLUSH);
}

static void test_suffixes_and_prefixes(void **state)
{
	(void)state;
	assert_int_equal(pt_prof_comp_of("unmap_page_range.cold"), PT_COMP_PT_ZAP);
	assert_int_equal(pt_prof_comp_of("copy_pte_range.isra.0"), PT_COMP_PT_COPY);
	assert_int_equal(pt_prof_comp_of("change_pmd_range.constprop.0"), PT_COMP_PT_CHPROT);
	assert_int_equal(pt_prof_comp_of("zap_pte_range.part.0"), PT_COMP_PT_ZAP);
	assert_int_equal(pt_prof_comp_of("unmap_single_vma.isra.0"), PT_COMP_PT_ZAP);
	/* a module symbol as kallsyms writes it */
	assert_int_equal(pt_prof_comp_of("kvm_flush_tlb_multi\t[kvm]"), PT_COMP_TLB_FLUSH);
	/* prefix patterns */
	assert_int_equal(pt_prof_comp_of("native_flush_tlb_one_user"), PT_COMP_TLB_FLUSH);
	assert_int_equal(pt_prof_comp_of("native_flush_tlb_multi"), PT_COMP_TLB_FLUSH);
	assert_int_equal(pt_prof_comp_of("pagetable_alloc_noprof"), PT_COMP_PT_ALLOC);
	/* a longer name that merely starts like a listed one is not it */
	assert_int_equal(pt_prof_comp_of("clear_page_dirty_for_io"), PT_COMP_KERNEL_OTHER);
	assert_int_equal(pt_prof_comp_of("copy_page_range_extra"), PT_COMP_KERNEL_OTHER);
	assert_int_equal(pt_prof_comp_of("__pfx_copy_page_range"), PT_COMP_KERNEL_OTHER);
}

static void test_unknown(void **state)
{
	(void)state;
	assert_int_equal(pt_prof_comp_of("folio_remove_rmap_ptes"), PT_COMP_KERNEL_OTHER);
	assert_int_equal(pt_prof_comp_of("schedule"), PT_COMP_KERNEL_OTHER);
	assert_int_equal(pt_prof_comp_of(""), PT_COMP_KERNEL_OTHER);
	assert_int_equal(pt_prof_comp_of(NULL), PT_COMP_KERNEL_OTHER);
	assert_string_equal(pt_prof_comp_name((enum pt_prof_comp)99), "kernel_other");
}

static void test_entry_helpers_take_the_caller(void **state)
{
	int chain[4];

	(void)state;
	assert_int_equal(pt_prof_class_of("pte_val"), PT_PROF_HELPER);
	assert_int_equal(pt_prof_class_of("set_ptes.isra.0"), PT_PROF_HELPER);
	assert_int_equal(pt_prof_class_of("__raw_callee_save_pvm_make_pte"), PT_PROF_HELPER);
	assert_int_equal(pt_prof_class_of("vm_normal_page"), PT_PROF_HELPER);
	/* alone, a helper belongs to no walk */
	assert_int_equal(pt_prof_comp_of("pte_val"), PT_COMP_KERNEL_OTHER);
	/* pvm_make_pte <- its thunk <- change_pte_range */
	chain[0] = pt_prof_class_of("pvm_make_pte");
	chain[1] = pt_prof_class_of("__raw_callee_save_pvm_make_pte");
	chain[2] = pt_prof_class_of("change_pte_range");
	assert_int_equal(pt_prof_resolve(chain, 3), PT_COMP_PT_CHPROT);
	/* the first caller that is not a helper decides, even kernel_other */
	chain[0] = pt_prof_class_of("vm_normal_page");
	chain[1] = pt_prof_class_of("folio_walk_start");
	chain[2] = pt_prof_class_of("unmap_page_range");
	assert_int_equal(pt_prof_resolve(chain, 3), PT_COMP_KERNEL_OTHER);
	/* a component leaf never looks up */
	chain[0] = pt_prof_class_of("copy_page_range");
	chain[1] = pt_prof_class_of("unmap_page_range");
	assert_int_equal(pt_prof_resolve(chain, 2), PT_COMP_PT_COPY);
	/* helpers all the way, or no chain */
	chain[0] = chain[1] = PT_PROF_HELPER;
	assert_int_equal(pt_prof_resolve(chain, 2), PT_COMP_KERNEL_OTHER);
	assert_int_equal(pt_prof_resolve(chain, 0), PT_COMP_KERNEL_OTHER);
	chain[0] = 42; /* not a class */
	assert_int_equal(pt_prof_resolve(chain, 1), PT_COMP_KERNEL_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_are_the_contract),
		cmocka_unit_test(test_exact_names),
		cmocka_unit_test(test_suffixes_and_prefixes),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_entry_helpers_take_the_caller),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
