// SPDX-License-Identifier: GPL-2.0-only
/*
 * The symbol -> component table. Built from what a 6.18 x86-64 kernel
 * actually has in /proc/kallsyms, plus the out-of-line names other
 * configurations (arm64, older kernels, other inlining decisions) use for
 * the same work. Many of the inner loops are inlined into their callers
 * on 6.18 (copy_pte_range and copy_present_ptes into copy_page_range,
 * zap_pte_range and zap_pmd_range into unmap_page_range,
 * change_pmd_range into change_protection, handle_pte_fault into
 * __handle_mm_fault): their names are listed for kernels that keep them,
 * and their time shows up under the caller, which is in the same
 * component. docs/profile.md says what that means.
 *
 * A pattern ending in '*' matches by prefix; others match the whole name
 * (without its compiler suffix). No prefix may catch unrelated functions:
 * "clear_page*" would take clear_page_dirty_for_io (writeback), so the
 * clear_page variants are listed one by one.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "harness/profile_map.h"

static const char *const comp_names[PT_COMP_N] = {
	[PT_COMP_PT_COPY] = "pt_copy",
	[PT_COMP_PT_CHPROT] = "pt_chprot",
	[PT_COMP_PT_ZAP] = "pt_zap",
	[PT_COMP_PT_FREE] = "pt_free",
	[PT_COMP_PT_ALLOC] = "pt_alloc",
	[PT_COMP_PT_SET] = "pt_set",
	[PT_COMP_ZERO] = "zero",
	[PT_COMP_TLB_FLUSH] = "tlb_flush",
	[PT_COMP_KERNEL_OTHER] = "kernel_other",
	[PT_COMP_USER] = "user",
};

struct comp_pattern {
	const char *pat;
	enum pt_prof_comp comp;
};

static const struct comp_pattern patterns[] = {
	/* fork: dup_mmap -> copy_page_range -> ... -> copy_present_ptes */
	{ "copy_page_range", PT_COMP_PT_COPY },
	{ "copy_p4d_range", PT_COMP_PT_COPY },
	{ "copy_pud_range", PT_COMP_PT_COPY },
	{ "copy_pmd_range", PT_COMP_PT_COPY },
	{ "copy_pte_range", PT_COMP_PT_COPY },
	{ "copy_present_pte", PT_COMP_PT_COPY },
	{ "copy_present_ptes", PT_COMP_PT_COPY },
	{ "copy_present_page", PT_COMP_PT_COPY },
	{ "copy_nonpresent_pte", PT_COMP_PT_COPY },
	{ "copy_huge_pmd", PT_COMP_PT_COPY },
	{ "copy_huge_pud", PT_COMP_PT_COPY },
	{ "copy_hugetlb_page_range", PT_COMP_PT_COPY },
	/* mprotect: change_protection -> change_p*d_range -> change_pte_range */
	{ "change_protection", PT_COMP_PT_CHPROT },
	{ "change_p4d_range", PT_COMP_PT_CHPROT },
	{ "change_pud_range", PT_COMP_PT_CHPROT },
	{ "change_pmd_range", PT_COMP_PT_CHPROT },
	{ "change_pte_range", PT_COMP_PT_CHPROT },
	{ "change_huge_pmd", PT_COMP_PT_CHPROT },
	{ "change_huge_pud", PT_COMP_PT_CHPROT },
	{ "change_prot_numa", PT_COMP_PT_CHPROT },
	{ "hugetlb_change_protection", PT_COMP_PT_CHPROT },
	/* the read-modify-write of one entry, only mprotect and NUMA hinting use */
	{ "ptep_modify_prot_start", PT_COMP_PT_CHPROT },
	{ "ptep_modify_prot_commit", PT_COMP_PT_CHPROT },
	{ "__ptep_modify_prot_start", PT_COMP_PT_CHPROT },
	{ "__ptep_modify_prot_commit", PT_COMP_PT_CHPROT },
	{ "modify_prot_start_ptes", PT_COMP_PT_CHPROT },
	{ "modify_prot_commit_ptes", PT_COMP_PT_CHPROT },
	{ "prot_commit_flush_ptes", PT_COMP_PT_CHPROT },
	{ "can_change_pte_writable", PT_COMP_PT_CHPROT },
	{ "can_change_pmd_writable", PT_COMP_PT_CHPROT },
	/* munmap, MADV_DONTNEED, exit: unmap_vmas -> unmap_page_range -> zap_* */
	{ "unmap_vmas", PT_COMP_PT_ZAP },
	{ "unmap_single_vma", PT_COMP_PT_ZAP },
	{ "unmap_page_range", PT_COMP_PT_ZAP },
	{ "zap_p4d_range", PT_COMP_PT_ZAP },
	{ "zap_pud_range", PT_COMP_PT_ZAP },
	{ "zap_pmd_range", PT_COMP_PT_ZAP },
	{ "zap_pte_range", PT_COMP_PT_ZAP },
	{ "zap_present_ptes", PT_COMP_PT_ZAP },
	{ "zap_present_folio_ptes", PT_COMP_PT_ZAP },
	{ "zap_nonpresent_ptes", PT_COMP_PT_ZAP },
	{ "zap_huge_pmd", PT_COMP_PT_ZAP },
	{ "zap_huge_pud", PT_COMP_PT_ZAP },
	{ "zap_page_range_single", PT_COMP_PT_ZAP },
	{ "zap_page_range_single_batched", PT_COMP_PT_ZAP },
	{ "zap_vma_ptes", PT_COMP_PT_ZAP },
	{ "unmap_hugepage_range", PT_COMP_PT_ZAP },
	{ "__unmap_hugepage_range", PT_COMP_PT_ZAP },
	/* the mmu_gather's page batching, which zap fills entry by entry */
	{ "__tlb_remove_folio_pages", PT_COMP_PT_ZAP },
	{ "__tlb_remove_page_size", PT_COMP_PT_ZAP },
	/* table pages given back */
	{ "free_pgtables", PT_COMP_PT_FREE },
	{ "free_pgd_range", PT_COMP_PT_FREE },
	{ "free_p4d_range", PT_COMP_PT_FREE },
	{ "free_pud_range", PT_COMP_PT_FREE },
	{ "free_pmd_range", PT_COMP_PT_FREE },
	{ "free_pte_range", PT_COMP_PT_FREE },
	{ "pte_free", PT_COMP_PT_FREE },
	{ "pte_free_now", PT_COMP_PT_FREE },
	{ "pte_free_defer", PT_COMP_PT_FREE },
	{ "pmd_free", PT_COMP_PT_FREE },
	{ "pud_free", PT_COMP_PT_FREE },
	{ "___pte_free_tlb", PT_COMP_PT_FREE },
	{ "___pmd_free_tlb", PT_COMP_PT_FREE },
	{ "___pud_free_tlb", PT_COMP_PT_FREE },
	{ "___p4d_free_tlb", PT_COMP_PT_FREE },
	{ "tlb_remove_table", PT_COMP_PT_FREE },
	{ "__tlb_remove_table", PT_COMP_PT_FREE },
	{ "tlb_remove_table_one", PT_COMP_PT_FREE },
	{ "tlb_remove_table_rcu", PT_COMP_PT_FREE },
	{ "__tlb_remove_table_one_rcu", PT_COMP_PT_FREE },
	{ "tlb_remove_table_sync_one", PT_COMP_PT_FREE },
	{ "tlb_table_flush", PT_COMP_PT_FREE },
	{ "pagetable_free", PT_COMP_PT_FREE },
	{ "pagetable_dtor", PT_COMP_PT_FREE },
	{ "pgd_free", PT_COMP_PT_FREE },
	/* table pages allocated (their zeroing is clear_page: "zero") */
	{ "__pte_alloc", PT_COMP_PT_ALLOC },
	{ "__pmd_alloc", PT_COMP_PT_ALLOC },
	{ "__pud_alloc", PT_COMP_PT_ALLOC },
	{ "__p4d_alloc", PT_COMP_PT_ALLOC },
	{ "pte_alloc_one", PT_COMP_PT_ALLOC },
	{ "__pte_alloc_one", PT_COMP_PT_ALLOC },
	{ "pmd_alloc_one", PT_COMP_PT_ALLOC },
	{ "pud_alloc_one", PT_COMP_PT_ALLOC },
	{ "p4d_alloc_one", PT_COMP_PT_ALLOC },
	{ "pmd_install", PT_COMP_PT_ALLOC },
	{ "pagetable_alloc*", PT_COMP_PT_ALLOC },
	{ "pagetable_pte_ctor", PT_COMP_PT_ALLOC },
	{ "pagetable_pmd_ctor", PT_COMP_PT_ALLOC },
	{ "ptlock_alloc", PT_COMP_PT_ALLOC },
	{ "pgd_alloc", PT_COMP_PT_ALLOC },
	/* the fault path down to the entry it sets */
	{ "handle_mm_fault", PT_COMP_PT_SET },
	{ "__handle_mm_fault", PT_COMP_PT_SET },
	{ "handle_pte_fault", PT_COMP_PT_SET },
	{ "do_pte_missing", PT_COMP_PT_SET },
	{ "do_anonymous_page", PT_COMP_PT_SET },
	{ "do_fault", PT_COMP_PT_SET },
	{ "finish_fault", PT_COMP_PT_SET },
	{ "set_pte_range", PT_COMP_PT_SET },
	{ "do_set_pmd", PT_COMP_PT_SET },
	{ "do_huge_pmd_anonymous_page", PT_COMP_PT_SET },
	{ "__do_huge_pmd_anonymous_page", PT_COMP_PT_SET },
	{ "map_anon_folio_pmd", PT_COMP_PT_SET },
	{ "map_anon_folio_pmd_pf", PT_COMP_PT_SET },
	{ "map_anon_folio_pmd_nopf", PT_COMP_PT_SET },
	{ "do_wp_page", PT_COMP_PT_SET },
	{ "wp_page_copy", PT_COMP_PT_SET },
	{ "wp_page_reuse", PT_COMP_PT_SET },
	{ "do_huge_pmd_wp_page", PT_COMP_PT_SET },
	/* zeroing: base pages (clear_page_erms/_rep/_orig on x86) and huge ones */
	{ "clear_page", PT_COMP_ZERO },
	{ "clear_page_erms", PT_COMP_ZERO },
	{ "clear_page_rep", PT_COMP_ZERO },
	{ "clear_page_orig", PT_COMP_ZERO },
	{ "clear_pages", PT_COMP_ZERO },
	{ "clear_huge_page", PT_COMP_ZERO },
	{ "clear_gigantic_page", PT_COMP_ZERO },
	{ "clear_subpage", PT_COMP_ZERO },
	{ "clear_user_highpage", PT_COMP_ZERO },
	{ "clear_highpage", PT_COMP_ZERO },
	{ "clear_user_page", PT_COMP_ZERO },
	{ "folio_zero_user", PT_COMP_ZERO },
	{ "process_huge_page", PT_COMP_ZERO },
	/* arm64 zeroes with DC ZVA in these */
	{ "__clear_page", PT_COMP_ZERO },
	/* TLB invalidation, local and by IPI */
	{ "flush_tlb_mm_range", PT_COMP_TLB_FLUSH },
	{ "flush_tlb_func", PT_COMP_TLB_FLUSH },
	{ "flush_tlb_multi", PT_COMP_TLB_FLUSH },
	{ "flush_tlb_one_user", PT_COMP_TLB_FLUSH },
	{ "flush_tlb_local", PT_COMP_TLB_FLUSH },
	{ "flush_tlb_batched_pending", PT_COMP_TLB_FLUSH },
	{ "flush_tlb_range", PT_COMP_TLB_FLUSH },
	{ "flush_tlb_page", PT_COMP_TLB_FLUSH },
	{ "__flush_tlb_range*", PT_COMP_TLB_FLUSH },
	{ "__flush_tlb_all", PT_COMP_TLB_FLUSH },
	{ "native_flush_tlb_*", PT_COMP_TLB_FLUSH },
	/* paravirtual guests flush through the hypervisor */
	{ "pvm_flush_tlb_*", PT_COMP_TLB_FLUSH },
	{ "kvm_flush_tlb_multi", PT_COMP_TLB_FLUSH },
	{ "hyperv_flush_tlb_multi", PT_COMP_TLB_FLUSH },
	{ "xen_flush_tlb*", PT_COMP_TLB_FLUSH },
	{ "tlb_flush_mmu", PT_COMP_TLB_FLUSH },
	{ "tlb_flush_mmu_tlbonly", PT_COMP_TLB_FLUSH },
	{ "tlb_finish_mmu", PT_COMP_TLB_FLUSH },
	{ "arch_tlbbatch_flush", PT_COMP_TLB_FLUSH },
};

/*
 * Entry helpers: functions that read, build, test or write one entry for
 * whichever walk called them, out of line because of paravirt (pte_val
 * through _paravirt_ident_64, PVM's pvm_make_pte) or the compiler
 * (set_ptes.isra.0, vm_normal_page). Their samples go to the component of
 * the first caller that is not one (the callchain), so mprotect's
 * get-and-clear and fork's entry reads count as pt_chprot and pt_copy.
 */
static const char *const helpers[] = {
	"pte_val",
	"pmd_val",
	"pud_val",
	"p4d_val",
	"pgd_val",
	"__pte",
	"__pmd",
	"__pud",
	"__p4d",
	"__pgd",
	"_paravirt_ident_64",
	"native_set_pte",
	"native_set_pmd",
	"native_set_pud",
	"native_set_p4d",
	"native_set_pgd",
	"native_ptep_*",
	"native_pmdp_*",
	"native_pudp_*",
	"pvm_make_pte",
	"pvm_make_pmd",
	"pvm_make_pud",
	"pvm_make_p4d",
	"pvm_make_pgd",
	"pvm_pte_val",
	"pvm_pmd_val",
	"pvm_pud_val",
	"pvm_p4d_val",
	"pvm_pgd_val",
	"pvm_set_pte",
	"pvm_set_pmd",
	"pvm_set_pud",
	"pvm_set_p4d",
	"pvm_set_pgd",
	"__raw_callee_save_pvm_make_*",
	"__raw_callee_save_pvm_*_val",
	"__raw_callee_save__paravirt_ident_64",
	"set_pte",
	"set_pmd",
	"set_pud",
	"set_ptes",
	"set_pte_at",
	"set_pmd_at",
	"set_pud_at",
	"ptep_get",
	"ptep_get_lockless",
	"ptep_get_and_clear",
	"ptep_get_and_clear_full",
	"ptep_set_wrprotect",
	"pmdp_set_wrprotect",
	"pmdp_get_and_clear",
	"pte_mkwrite",
	"pmd_mkwrite",
	"mksaveddirty_shift",
	"clear_saveddirty",
	"pte_pfn",
	"pmd_pfn",
	"pud_pfn",
	"vm_normal_page",
	"vm_normal_folio",
	"vm_normal_page_pmd",
	"vm_normal_folio_pmd",
	"vm_normal_page_pud",
	"___pte_offset_map",
	"__pte_offset_map",
	"__pte_offset_map_lock",
	"pte_offset_map_lock",
	"pte_offset_map_ro_nolock",
	"pte_offset_map_rw_nolock",
	"pud_offset",
	"p4d_offset",
	"pgd_none",
	"pgd_none_or_clear_bad",
	"pgd_clear_bad",
	"p4d_clear_bad",
	"pud_clear_bad",
	"pmd_clear_bad",
	"arch_check_zapped_pte",
	"arch_check_zapped_pmd",
	"arch_check_zapped_pud",
	/* arm64's contiguous-PTE wrappers */
	"contpte_*",
	"__contpte_*",
};

const char *pt_prof_comp_name(enum pt_prof_comp c)
{
	return (int)c >= 0 && c < PT_COMP_N ? comp_names[c] : "kernel_other";
}

/* The name without its compiler suffix (".isra.0") or module tag (" [kvm]"). */
static size_t base_len(const char *sym)
{
	return strcspn(sym, ". \t");
}

static bool matches(const char *pat, const char *sym, size_t len)
{
	size_t plen = strlen(pat);

	if (plen && pat[plen - 1] == '*')
		return len >= plen - 1 && !strncmp(pat, sym, plen - 1);
	return plen == len && !strncmp(pat, sym, len);
}

int pt_prof_class_of(const char *sym)
{
	size_t i, len;

	if (!sym)
		return PT_COMP_KERNEL_OTHER;
	len = base_len(sym);
	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		if (matches(patterns[i].pat, sym, len))
			return patterns[i].comp;
	for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
		if (matches(helpers[i], sym, len))
			return PT_PROF_HELPER;
	return PT_COMP_KERNEL_OTHER;
}

enum pt_prof_comp pt_prof_resolve(const int *cls, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (cls[i] == PT_PROF_HELPER)
			continue;
		if (cls[i] < 0 || cls[i] >= PT_COMP_N)
			return PT_COMP_KERNEL_OTHER;
		return (enum pt_prof_comp)cls[i];
	}
	/* helpers all the way up, or no caller known: not a page-table walk's */
	return PT_COMP_KERNEL_OTHER;
}

enum pt_prof_comp pt_prof_comp_of(const char *sym)
{
	int cls = pt_prof_class_of(sym);

	return pt_prof_resolve(&cls, 1);
}
