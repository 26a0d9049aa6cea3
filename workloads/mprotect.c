// SPDX-License-Identifier: GPL-2.0-only
/*
 * mprotect workload: a populated region toggled read-write -> read-only ->
 * read-write (every PTE or PMD rewritten, the TLB flushed), and two
 * mprotects that split: one of a sub-PMD range of each huge page of a THP
 * region (the PMD mapping is split into PTEs), and one of single pages in
 * the middle of a 4K region (the VMA is split in three).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/procmem.h"
#include "util/params.h"
#include "workloads/wl_common.h"

enum mprotect_variant { MP_TOGGLE = 0, MP_SPLIT_HUGE, MP_SPLIT_VMA };

struct mprotect_case {
	enum mprotect_variant variant;
};
PT_CASE_DATA(struct mprotect_case, mprotect_case)

/* Base pages rewritten per repetition of a toggle case, at least. */
#define TOGGLE_PAGES (1u << 18)
#define SPLIT_VMA_CALLS 256u

static int check(struct pt_rep *r, int rc, const char *what)
{
	if (!rc)
		return 0;
	return pt_rep_fail(r, "mprotect (%s): %s", what, strerror(errno));
}

static uint64_t toggles_for(uint64_t pages)
{
	uint64_t t = TOGGLE_PAGES / pages / 2;

	return t < 2 ? 2 : t;
}

/* RW -> RO -> RW, as many times as TOGGLE_PAGES asks. */
static int run_toggle(const struct pt_case *c, struct pt_rep *r, char *base, uint64_t *calls)
{
	uint64_t pages = c->size / pt_page_size(), t, n = toggles_for(pages);
	struct pt_smaps_info s;
	double frac;
	int rc = 0;

	pt_rep_begin(r);
	for (t = 0; t < n && !rc; t++) {
		rc = mprotect(base, c->size, PROT_READ);
		rc = rc ?: mprotect(base, c->size, PROT_READ | PROT_WRITE);
	}
	pt_rep_end(r);
	*calls = 2 * n;
	if (check(r, rc, "toggle"))
		return -1;
	/* The toggle must neither split the VMA nor the huge pages. */
	if (pt_smaps_range(base, c->size, &s))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	pt_rep_emit(r, "vmas_after", s.vmas, "count", PT_NEITHER);
	if (s.vmas != 1)
		return pt_rep_fail(r, "the toggled region is %u VMAs, not 1", s.vmas);
	rc = wl_check_thp(r, c->backing, base, c->size, &frac);
	pt_rep_emit(r, "thp_fraction_after", frac, "ratio", PT_NEITHER);
	return rc;
}

/* One page at the start of every PMD span made read-only. */
static int run_split_huge(const struct pt_case *c, struct pt_rep *r, char *base, uint64_t *calls)
{
	uint64_t pmd = pt_pmd_size(), n = c->size / pmd, i;
	struct pt_smaps_info s;
	int rc = 0;

	pt_rep_begin(r);
	for (i = 0; i < n && !rc; i++)
		rc = mprotect(base + i * pmd, pt_page_size(), PROT_READ);
	pt_rep_end(r);
	*calls = n;
	if (check(r, rc, "split huge page"))
		return -1;
	if (pt_smaps_range(base, c->size, &s))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	pt_rep_emit(r, "thp_fraction_after", (double)s.anon_huge_bytes / (double)c->size, "ratio",
		    PT_NEITHER);
	pt_rep_emit(r, "vmas_after", s.vmas, "count", PT_NEITHER);
	if (s.anon_huge_bytes)
		return pt_rep_fail(r, "%llu bytes still PMD-mapped after the splitting mprotect",
				   (unsigned long long)s.anon_huge_bytes);
	if (s.vmas != 2 * n)
		return pt_rep_fail(r, "%u VMAs after splitting %llu PMDs, expected %llu", s.vmas,
				   (unsigned long long)n, (unsigned long long)(2 * n));
	return 0;
}

/* The middle page of each of SPLIT_VMA_CALLS slices made read-only. */
static int run_split_vma(const struct pt_case *c, struct pt_rep *r, char *base, uint64_t *calls)
{
	uint64_t page = pt_page_size(), pages = c->size / page, i;
	uint64_t n = pages / 2 < SPLIT_VMA_CALLS ? pages / 2 : SPLIT_VMA_CALLS;
	uint64_t slice = pages / n;
	struct pt_smaps_info s;
	int rc = 0;

	pt_rep_begin(r);
	for (i = 0; i < n && !rc; i++)
		rc = mprotect(base + (i * slice + slice / 2) * page, page, PROT_READ);
	pt_rep_end(r);
	*calls = n;
	if (check(r, rc, "split VMA"))
		return -1;
	if (pt_smaps_range(base, c->size, &s))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	pt_rep_emit(r, "vmas_after", s.vmas, "count", PT_NEITHER);
	if (s.vmas != 2 * n + 1)
		return pt_rep_fail(r, "%u VMAs after %llu splitting mprotects, expected %llu",
				   s.vmas, (unsigned long long)n, (unsigned long long)(2 * n + 1));
	return 0;
}

static int mprotect_run(const struct pt_case *c, struct pt_rep *r)
{
	enum mprotect_variant v = mprotect_case_get(c).variant;
	uint64_t pages = c->size / pt_page_size(), calls = 0;
	long vmpte0 = pt_vmpte_kb();
	struct wl_region reg;
	int ret;

	ret = wl_region_map(&reg, c, c->size, r);
	if (ret)
		return ret;
	ret = wl_populate_verified(r, c->backing, reg.base, reg.len);
	if (ret)
		goto out;
	if (v == MP_SPLIT_HUGE)
		ret = run_split_huge(c, r, reg.base, &calls);
	else if (v == MP_SPLIT_VMA)
		ret = run_split_vma(c, r, reg.base, &calls);
	else
		ret = run_toggle(c, r, reg.base, &calls);
	if (ret)
		goto out;
	pt_rep_emit_per_op(r, (double)calls, "call");
	/* Pages the calls covered: all of them for a toggle, one per split call. */
	pt_rep_emit(r, "ns_per_page",
		    (double)r->elapsed_ns / (double)(v == MP_TOGGLE ? calls * pages : calls), "ns",
		    PT_LOWER);
	pt_rep_pgtable_point(r, vmpte0);
out:
	wl_region_unmap(&reg);
	return ret;
}

static const char *const variant_names[] = { "toggle", "split-huge", "split-vma" };

static void add_case(struct pt_case *out, size_t max, size_t *n, enum mprotect_variant v,
		     enum pt_backing b, uint64_t size)
{
	struct mprotect_case d = { v };
	struct pt_case *c = wl_case_next(out, max, n, b, size);
	struct pt_params p;
	char sz[16];

	if (!c)
		return;
	mprotect_case_set(c, &d);
	c->mem_bytes = size + (8u << 20);
	pt_size_name(size, sz, sizeof(sz));
	if (v == MP_TOGGLE)
		snprintf(c->name, sizeof(c->name), "toggle-%s-%s", pt_backing_name(b), sz);
	else
		snprintf(c->name, sizeof(c->name), "%s-%s", variant_names[v], sz);
	pt_params_init(&p);
	pt_params_str(&p, "backing", pt_backing_name(b));
	pt_params_size(&p, "size", size);
	pt_params_str(&p, "variant", variant_names[v]);
	pt_params_render(&p, c->params, sizeof(c->params));
}

static int mprotect_cases(const struct pt_suite_opts *o, struct pt_case *out, size_t max)
{
	static const uint64_t quick[] = { 4ull << 20, 64ull << 20, 256ull << 20 };
	uint64_t s, last = 0;
	size_t n = 0, i;

	if (o->suite == PT_SUITE_FULL) {
		for (s = 4ull << 20; s <= o->max_mem; s *= 4) {
			add_case(out, max, &n, MP_TOGGLE, PT_BACK_4K, s);
			add_case(out, max, &n, MP_TOGGLE, PT_BACK_THP, s);
		}
	} else {
		for (i = 0; i < sizeof(quick) / sizeof(quick[0]); i++) {
			s = wl_fit_size(o, quick[i]);
			if (s == last || (o->suite == PT_SUITE_CI && i == 2))
				continue;
			add_case(out, max, &n, MP_TOGGLE, PT_BACK_4K, s);
			add_case(out, max, &n, MP_TOGGLE, PT_BACK_THP, s);
			last = s;
		}
	}
	add_case(out, max, &n, MP_SPLIT_HUGE, PT_BACK_THP, wl_fit_size(o, 64ull << 20));
	add_case(out, max, &n, MP_SPLIT_VMA, PT_BACK_4K, wl_fit_size(o, 4ull << 20));
	return (int)n;
}

const struct pt_workload pt_wl_mprotect = {
	.name = "mprotect",
	.primary_metric = "ns_per_call",
	.control = "cpu-loop",
	.profile = true,
	.summary = "mprotect of a populated region: RW/RO toggle, huge-page and VMA splits",
	.help = "cases: toggle-<4k|thp>-<size>, split-huge-<size>, split-vma-<size>\n"
		"  toggle: the whole region RW -> RO -> RW, repeated until 256K pages were\n"
		"      rewritten (at least twice); size quick 4M 64M 256M, ci 4M 64M,\n"
		"      full 4M..--max-mem by 4x\n"
		"  split-huge: one page at the start of every PMD of a THP region made RO\n"
		"      (the PMD is split into PTEs and the VMA in two); 64M\n"
		"  split-vma: the middle page of 256 slices of a 4K region made RO (each\n"
		"      call splits a VMA in three); 4M\n"
		"verified: the region present and backed as claimed before; toggle: one\n"
		"  VMA and the same backing after; split-huge: no huge page and 2 VMAs\n"
		"  per PMD after; split-vma: 2 x calls + 1 VMAs\n"
		"metrics: ns_per_call, ns_per_page, ticks_per_call, <event>_per_call,\n"
		"  vmas_after, thp_fraction, thp_fraction_after, pgtable_*",
	.cases = mprotect_cases,
	.run = mprotect_run,
};
