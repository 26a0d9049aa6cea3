// SPDX-License-Identifier: GPL-2.0-only
/*
 * munmap workload: populated regions released by munmap (pages and page
 * tables freed) or by MADV_DONTNEED (pages freed, the mapping kept); ns per
 * page released. Small regions are released several at a time so one
 * repetition times enough work.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/procmem.h"
#include "util/params.h"
#include "workloads/wl_common.h"

enum munmap_variant { MU_MUNMAP = 0, MU_DONTNEED };

struct munmap_case {
	enum munmap_variant variant;
};
PT_CASE_DATA(struct munmap_case, munmap_case)

/* Bytes released per repetition, at least (several regions when small). */
#define RELEASE_BYTES (64ull << 20)
#define MAX_REGIONS 64
/* munmap must give back at least this fraction of the page-table growth. */
#define MIN_FREED_FRACTION 0.9

static const char *const variant_names[] = { "munmap", "dontneed" };

static int regions_for(uint64_t size)
{
	uint64_t k = RELEASE_BYTES / size;

	return k < 1 ? 1 : k > MAX_REGIONS ? MAX_REGIONS : (int)k;
}

static int release(const struct pt_case *c, struct pt_rep *r, char **base, int k)
{
	enum munmap_variant v = munmap_case_get(c).variant;
	int i, rc = 0;

	pt_rep_begin(r);
	for (i = 0; i < k && !rc; i++)
		rc = v == MU_MUNMAP ? munmap(base[i], c->size)
				    : madvise(base[i], c->size, MADV_DONTNEED);
	pt_rep_end(r);
	if (v == MU_MUNMAP)
		for (i = 0; i < k; i++)
			base[i] = NULL;
	if (rc)
		return pt_rep_fail(r, "%s: %s", variant_names[v], strerror(errno));
	return 0;
}

/*
 * munmap frees the page tables: at least the PTE table of every PMD span of
 * the regions (a THP keeps one deposited for its split). MADV_DONTNEED must
 * leave nothing present.
 */
static int verify_release(const struct pt_case *c, struct pt_rep *r, char **base, int k,
			  long vmpte_peak)
{
	double pte_kb =
		(double)k * (double)(c->size / pt_pmd_size()) * (double)pt_page_size() / 1024;
	double freed = wl_freed_fraction(vmpte_peak, pt_vmpte_kb(), pte_kb);
	struct pt_pagemap_info p;
	int i;

	if (freed >= 0)
		pt_rep_emit(r, "pgtable_freed_fraction", freed, "ratio", PT_NEITHER);
	if (munmap_case_get(c).variant == MU_MUNMAP) {
		if (freed >= 0 && freed < MIN_FREED_FRACTION)
			return pt_rep_fail(r, "munmap gave back only %.0f%% of the page tables",
					   freed * 100);
		if (freed < 0)
			pt_rep_note(r, "VmPTE is not readable: page-table freeing not verified");
		return 0;
	}
	for (i = 0; i < k; i++) {
		if (pt_pagemap_range(base[i], c->size, &p))
			return pt_rep_fail(r, "cannot read /proc/self/pagemap");
		if (p.present)
			return pt_rep_fail(r, "%llu pages still present after MADV_DONTNEED",
					   (unsigned long long)p.present);
	}
	return 0;
}

static int map_regions(const struct pt_case *c, struct pt_rep *r, char **base, int k)
{
	double frac, min_frac = 1;
	int i, ret = 0;

	for (i = 0; i < k && !ret; i++) {
		/* PMD-aligned for 4K too: each region owns its page-table pages. */
		base[i] = pt_map_anon(c->size, pt_pmd_size(), c->backing);
		if (!base[i])
			return pt_rep_fail(r, "mmap of %llu bytes: %s", (unsigned long long)c->size,
					   strerror(errno));
		pt_touch_pages(base[i], c->size, pt_page_size());
		ret = wl_verify_present(r, base[i], c->size)
			      ?: wl_check_thp(r, c->backing, base[i], c->size, &frac);
		min_frac = frac < min_frac ? frac : min_frac;
	}
	pt_rep_emit(r, "thp_fraction", min_frac, "ratio", PT_NEITHER);
	return ret;
}

static int munmap_run(const struct pt_case *c, struct pt_rep *r)
{
	int k = regions_for(c->size), i, ret;
	uint64_t pages = c->size / pt_page_size() * (uint64_t)k;
	long vmpte0 = pt_vmpte_kb(), peak;
	char *base[MAX_REGIONS] = { 0 };

	ret = map_regions(c, r, base, k);
	if (ret)
		goto out;
	pt_rep_pgtable_point(r, vmpte0);
	peak = pt_vmpte_kb();
	ret = release(c, r, base, k) ?: verify_release(c, r, base, k, peak);
	if (ret)
		goto out;
	pt_rep_emit_per_op(r, (double)pages, "page");
	pt_rep_emit(r, "ns_per_call", (double)r->elapsed_ns / k, "ns", PT_LOWER);
	if (peak >= 0 && vmpte0 >= 0)
		pt_rep_emit(r, "pgtable_bytes_released", (double)(peak - pt_vmpte_kb()) * 1024,
			    "bytes", PT_NEITHER);
out:
	for (i = 0; i < k; i++)
		pt_unmap(base[i], c->size);
	return ret;
}

static void add_case(struct pt_case *out, size_t max, size_t *n, enum munmap_variant v,
		     enum pt_backing b, uint64_t size)
{
	struct munmap_case d = { v };
	struct pt_case *c = wl_case_next(out, max, n, b, size);
	struct pt_params p;
	char sz[16];

	if (!c)
		return;
	munmap_case_set(c, &d);
	c->mem_bytes = size * (uint64_t)regions_for(size) + (8u << 20);
	pt_size_name(size, sz, sizeof(sz));
	snprintf(c->name, sizeof(c->name), "%s-%s-%s", variant_names[v], pt_backing_name(b), sz);
	pt_params_init(&p);
	pt_params_str(&p, "backing", pt_backing_name(b));
	pt_params_int(&p, "regions", regions_for(size));
	pt_params_size(&p, "size", size);
	pt_params_str(&p, "variant", variant_names[v]);
	pt_params_render(&p, c->params, sizeof(c->params));
}

static void add_size(struct pt_case *out, size_t max, size_t *n, uint64_t s)
{
	add_case(out, max, n, MU_MUNMAP, PT_BACK_4K, s);
	add_case(out, max, n, MU_MUNMAP, PT_BACK_THP, s);
	add_case(out, max, n, MU_DONTNEED, PT_BACK_4K, s);
	add_case(out, max, n, MU_DONTNEED, PT_BACK_THP, s);
}

static int munmap_cases(const struct pt_suite_opts *o, struct pt_case *out, size_t max)
{
	static const uint64_t quick[] = { 4ull << 20, 64ull << 20, 256ull << 20 };
	uint64_t s, last = 0;
	size_t n = 0, i;

	if (o->suite == PT_SUITE_FULL) {
		for (s = 4ull << 20; s <= o->max_mem; s *= 4)
			add_size(out, max, &n, s);
		return (int)n;
	}
	for (i = 0; i < sizeof(quick) / sizeof(quick[0]); i++) {
		s = wl_fit_size(o, quick[i]);
		if (s == last || (o->suite == PT_SUITE_CI && i == 2))
			continue;
		add_size(out, max, &n, s);
		last = s;
	}
	return (int)n;
}

const struct pt_workload pt_wl_munmap = {
	.name = "munmap",
	.primary_metric = "ns_per_page",
	.control = "cpu-loop",
	.profile = true,
	.summary = "release of a populated region by munmap or MADV_DONTNEED: ns per page",
	.help = "cases: <munmap|dontneed>-<4k|thp>-<size>\n"
		"  munmap: pages and page tables freed; dontneed: MADV_DONTNEED, the\n"
		"      mapping stays\n"
		"  size: quick 4M 64M 256M, ci 4M 64M, full 4M..--max-mem by 4x; regions\n"
		"      smaller than 64M are released 64M/size at a time (params: regions)\n"
		"verified: every page present and backed as claimed before; munmap gave\n"
		"  back >= 90% of one PTE table per PMD span; after MADV_DONTNEED no page\n"
		"  is present\n"
		"metrics: ns_per_page, ns_per_call, ticks_per_page, <event>_per_page,\n"
		"  pgtable_freed_fraction, pgtable_bytes_released, thp_fraction, pgtable_*",
	.cases = munmap_cases,
	.run = munmap_run,
};
