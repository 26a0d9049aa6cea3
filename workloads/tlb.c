// SPDX-License-Identifier: GPL-2.0-only
/*
 * TLB-miss workload: a dependent pointer chase over one random cyclic
 * permutation of the pages of a working set, one load per page, the offset
 * within each page varied so the loads spread over the cache sets. A dense
 * control chases the same number of cache lines packed into as few (huge)
 * pages as possible, separating translation cost from cache cost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/procmem.h"
#include "util/knobs.h"
#include "util/params.h"
#include "util/sysfs.h"
#include "workloads/tlb.h"
#include "workloads/workload.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older C libraries lack the name */
#endif

#define LINE 64
#define MIN_LOADS (1u << 20)
#define CYCLES_PER_SAMPLE 4

/*
 * TLB_HALF: the chase over every second 4K page, so each 64-byte line of
 * leaf descriptors holds 4 that are used of its 8 D64 ones, as D128 does at
 * stride 1 (a check of the walk model's D128 prediction on D64 hardware).
 * TLB_QUARTER: every fourth page, which the walk calibration fits: it
 * misses the L2 TLB with few pages (16 pages per used set at 2048 pages),
 * so its miss cost shows how many pages' host translations the machine
 * keeps, which contiguous chases, missing only with many pages, cannot;
 * the stride-2 chase stays a check the fit never sees.
 */
enum tlb_pattern { TLB_CHASE = 0, TLB_DENSE = 1, TLB_HALF = 2, TLB_QUARTER = 3 };

/* Pages between a pattern's loads (the dense control: one page's worth of lines each). */
static unsigned pages_per_load(enum tlb_pattern pat)
{
	return pat == TLB_HALF ? 2 : pat == TLB_QUARTER ? 4 : 1;
}

/* A case's data: chase one load per page, per second or fourth page, or the dense control. */
struct tlb_case {
	enum tlb_pattern pattern;
};
PT_CASE_DATA(struct tlb_case, tlb_case)

static bool is_dense(const struct pt_case *c)
{
	return tlb_case_get(c).pattern == TLB_DENSE;
}

static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

void tlb_cyclic_permutation(uint32_t *next, uint32_t n, uint64_t seed)
{
	uint32_t *order, i;

	if (n == 1) {
		next[0] = 0;
		return;
	}
	order = malloc((size_t)n * sizeof(*order));
	if (!order)
		abort();
	for (i = 0; i < n; i++)
		order[i] = i;
	/* Sattolo's algorithm: a uniformly random permutation with one cycle. */
	for (i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(xorshift64(&seed) % i), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++)
		next[order[i]] = order[(i + 1) % n];
	free(order);
}

/*
 * Byte offset of element i: one per stride, its cache line varied within
 * the first span bytes (the page it is in: a half-density element never
 * touches the page it skips).
 */
static size_t elem_offset(uint32_t i, size_t stride, size_t span)
{
	size_t lines = span / LINE;

	return (size_t)i * stride + (lines > 1 ? ((size_t)i * 37 % lines) * LINE : 0);
}

/* Store in element i the address of element next[i]. */
static void build_chain(char *base, uint32_t n, size_t stride, size_t span, uint64_t seed)
{
	uint32_t *next = malloc((size_t)n * sizeof(*next)), i;

	if (!next)
		abort();
	tlb_cyclic_permutation(next, n, seed);
	for (i = 0; i < n; i++)
		*(void **)(base + elem_offset(i, stride, span)) =
			base + elem_offset(next[i], stride, span);
	free(next);
}

void *tlb_chase(void *p, uint64_t loads)
{
	void **q = p;

	for (; loads >= 8; loads -= 8) {
		q = *q;
		q = *q;
		q = *q;
		q = *q;
		q = *q;
		q = *q;
		q = *q;
		q = *q;
	}
	while (loads--)
		q = *q;
	return q;
}

struct tlb_region {
	char *base;
	size_t len;
	bool hugetlb;
};

static int reserve_hugetlb(uint64_t pmd, uint64_t count, struct pt_rep *r)
{
	char path[128], val[32];
	uint64_t have = 0, want;

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages",
		 (unsigned long long)(pmd >> 10));
	if (pt_sys_read_u64(path, &have))
		return pt_rep_skip(r, "no hugetlb pool of %llu kB",
				   (unsigned long long)(pmd >> 10));
	if (have >= count)
		return 0;
	want = count;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)want);
	if (pt_knob_set(path, val))
		return pt_rep_skip(r, "cannot reserve %llu hugetlb pages (%s): not root?",
				   (unsigned long long)want, strerror(errno));
	if (pt_sys_read_u64(path, &have) || have < want)
		return pt_rep_skip(r, "hugetlb pool reserved only %llu of %llu pages",
				   (unsigned long long)have, (unsigned long long)want);
	return 0;
}

static int map_region(const struct pt_case *c, struct pt_rep *r, struct tlb_region *reg)
{
	uint64_t pmd = pt_pmd_size();
	bool huge = c->backing != PT_BACK_4K || is_dense(c);
	size_t span = is_dense(c) ? c->size / pt_page_size() * LINE : c->size;

	reg->len = huge ? (span + pmd - 1) / pmd * pmd : span;
	reg->hugetlb = c->backing == PT_BACK_HUGETLB;
	if (reg->hugetlb) {
		int ret = reserve_hugetlb(pmd, reg->len / pmd, r);

		if (ret)
			return ret;
		reg->base = mmap(NULL, reg->len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (reg->base == MAP_FAILED)
			return pt_rep_skip(r, "MAP_HUGETLB of %zu bytes: %s", reg->len,
					   strerror(errno));
		return 0;
	}
	reg->base =
		pt_map_anon(reg->len, huge ? pmd : pt_page_size(), huge ? PT_BACK_THP : PT_BACK_4K);
	if (!reg->base)
		return pt_rep_fail(r, "mmap of %zu bytes: %s", reg->len, strerror(errno));
	return 0;
}

/* Huge pages really used? 4K really not? Records thp_fraction. */
static int verify_backing(const struct pt_case *c, struct pt_rep *r, struct tlb_region *reg)
{
	struct pt_smaps_info s;
	double frac;

	if (reg->hugetlb)
		return 0; /* MAP_HUGETLB cannot fall back to base pages */
	if (pt_smaps_range(reg->base, reg->len, &s))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	frac = (double)s.anon_huge_bytes / (double)reg->len;
	pt_rep_emit(r, "thp_fraction", frac, "ratio", PT_NEITHER);
	if (c->backing == PT_BACK_4K && !is_dense(c) && s.anon_huge_bytes)
		return pt_rep_fail(r, "4K case got %llu bytes of huge pages",
				   (unsigned long long)s.anon_huge_bytes);
	if ((c->backing == PT_BACK_THP || is_dense(c)) && frac < PT_THP_MIN_FRACTION)
		return pt_rep_fail(r, "THP case got huge pages for only %.0f%% of %zu bytes",
				   frac * 100, reg->len);
	return 0;
}

/*
 * Populate (the VM backs fresh memory lazily) and check the faults taken.
 * MADV_POPULATE_WRITE (Linux 5.14) faults the range in from the kernel
 * without an exception per page: on this project's PVM guest 1G of 4K pages
 * took 1.5 s so, against 3 s for a memset, and the quick sweep's 4K chases
 * spend most of their time here. A write to each page follows: the first
 * user access that a shadow-paging host traps anyway, and the population
 * itself where the advice is refused (EINVAL before 5.14) or ignored (an
 * emulator). Both count each page's fault once, so the check below holds.
 */
static int warm(const struct pt_case *c, struct pt_rep *r, struct tlb_region *reg)
{
	uint64_t page = pt_page_size();
	struct pt_rep probe = *r;
	double expect, per;
	size_t off;

	probe.ctr = NULL;
	probe.elapsed_ns = 0;
	probe.minflt = probe.majflt = 0;
	pt_rep_begin(&probe);
	madvise(reg->base, reg->len, MADV_POPULATE_WRITE);
	for (off = 0; off < reg->len; off += page)
		((volatile char *)reg->base)[off] = 0;
	pt_rep_end(&probe);
	expect = (double)reg->len / (double)page;
	per = (double)pt_rep_faults(&probe) / expect;
	pt_rep_emit(r, "touch_faults_per_page", per, "ratio", PT_NEITHER);
	if (c->backing == PT_BACK_4K && !is_dense(c) && per < 0.99)
		return pt_rep_fail(r, "touching %.0f pages took only %ld faults", expect,
				   pt_rep_faults(&probe));
	return 0;
}

static uint64_t loads_for(uint32_t n)
{
	uint64_t loads = (uint64_t)n * CYCLES_PER_SAMPLE;

	return loads < MIN_LOADS ? MIN_LOADS : loads;
}

static int tlb_run(const struct pt_case *c, struct pt_rep *r)
{
	uint64_t page = pt_page_size();
	enum tlb_pattern pat = tlb_case_get(c).pattern;
	size_t stride = pat == TLB_DENSE ? LINE : pages_per_load(pat) * page;
	/* dense: as many loads as the chase, one per line */
	uint32_t n = (uint32_t)(c->size / page / pages_per_load(pat));
	long vmpte0 = pt_vmpte_kb();
	struct tlb_region reg = { 0 };
	uint64_t loads = loads_for(n);
	static void *volatile sink;
	int ret;

	ret = map_region(c, r, &reg);
	if (ret)
		return ret;
	ret = warm(c, r, &reg);
	if (!ret)
		ret = verify_backing(c, r, &reg);
	if (ret)
		goto out;
	build_chain(reg.base, n, stride, pat == TLB_DENSE ? LINE : page,
		    0x9e3779b97f4a7c15ull ^ (uint64_t)(r->rep + 1000));
	sink = tlb_chase(reg.base, n); /* one full cycle: steady state */
	pt_rep_begin(r);
	sink = tlb_chase(sink, loads);
	pt_rep_end(r);
	pt_rep_emit_per_op(r, (double)loads, "access");
	pt_rep_pgtable_point(r, vmpte0);
out:
	munmap(reg.base, reg.len);
	return ret;
}

static int add_case(const struct pt_suite_opts *o, struct pt_case *out, size_t max, size_t *n,
		    uint64_t ws, enum pt_backing b, enum tlb_pattern pattern)
{
	struct tlb_case d = { pattern };
	struct pt_params p;
	/* the huge variants map whole PMD blocks: 512M each under 64K */
	bool huge = (b != PT_BACK_4K || pattern == TLB_DENSE) && o->pmd_size;
	uint64_t span = huge ? (ws + o->pmd_size - 1) / o->pmd_size * o->pmd_size : ws;
	struct pt_case *c;
	char size[32];

	if (*n >= max)
		return -1;
	c = &out[(*n)++];
	memset(c, 0, sizeof(*c));
	pt_size_name(ws, size, sizeof(size));
	c->size = ws;
	c->backing = b;
	tlb_case_set(c, &d);
	if (pattern == TLB_DENSE)
		snprintf(c->name, sizeof(c->name), "dense-%s", size);
	else if (pattern == TLB_HALF)
		snprintf(c->name, sizeof(c->name), "chase-half-%s", size);
	else if (pattern == TLB_QUARTER)
		snprintf(c->name, sizeof(c->name), "chase-quarter-%s", size);
	else
		snprintf(c->name, sizeof(c->name), "chase-%s-%s", pt_backing_name(b), size);
	/*
	 * The walk calibration (analysis/calibpoints.c) reads backing, ws and
	 * stride (pages between loads, written only when not 1) back.
	 */
	pt_params_init(&p);
	pt_params_str(&p, "backing", pattern == TLB_DENSE ? "dense" : pt_backing_name(b));
	if (pattern == TLB_HALF || pattern == TLB_QUARTER)
		pt_params_int(&p, "stride", pages_per_load(pattern));
	pt_params_size(&p, "ws", ws);
	pt_params_render(&p, c->params, sizeof(c->params));
	/* The mapped span, its page tables (8 bytes a page), slack. */
	c->mem_bytes = span + ws / o->page_size * 8 + (8u << 20);
	return 0;
}

static void add_size(const struct pt_suite_opts *o, struct pt_case *out, size_t max, size_t *n,
		     uint64_t ws)
{
	/* one load per page: a working set under one page has no chain */
	if (ws < o->page_size)
		return;
	add_case(o, out, max, n, ws, PT_BACK_4K, TLB_CHASE);
	add_case(o, out, max, n, ws, PT_BACK_THP, TLB_CHASE);
	if (o->is_root && o->suite != PT_SUITE_CI)
		add_case(o, out, max, n, ws, PT_BACK_HUGETLB, TLB_CHASE);
	add_case(o, out, max, n, ws, PT_BACK_4K, TLB_DENSE);
	if (ws >= 2 * o->page_size && o->suite != PT_SUITE_CI)
		add_case(o, out, max, n, ws, PT_BACK_4K, TLB_HALF);
	/*
	 * 4M to 64M (256 to 4096 pages, 1024 to 16384 pages spanned): either
	 * side of the 1024 pages a 4096-entry L2 TLB holds at this stride,
	 * with few pages, so what a miss costs there tells how many pages'
	 * host translations are kept (the nested TLB). It populates its whole
	 * region, as the half chase does: larger ones cost the quick suite
	 * 28 s of its 180 (2026-12-05) and told nothing more.
	 */
	if (ws >= (4u << 20) && ws <= (64u << 20) && o->suite != PT_SUITE_CI)
		add_case(o, out, max, n, ws, PT_BACK_4K, TLB_QUARTER);
}

static int tlb_cases(const struct pt_suite_opts *o, struct pt_case *out, size_t max)
{
	uint64_t ws, top = 1ull << 30;
	size_t n = 0;

	/*
	 * ci: working sets where the cost is flat, so that a gate sees the
	 * kernel and not where the host's TLBs and cache share put a step.
	 * 4M (1024 pages) is inside the L2 TLB's reach of current x86-64 and
	 * arm64 server cores (1280 to 4096 entries); 32M (8192 pages) is
	 * beyond it, its leaf tables (64 KiB) held in the L2 cache. Over 27
	 * quick runs of this project's PVM guest (2026-12-05 and 06) the
	 * spread between runs left after the run effect was 1.5-2.0% at 4M
	 * and 7.0-19.7% at 32M, where 16M (the L2 TLB's reach there) gave
	 * 3.0-16.0% and 256M (the cache share's step) 28.9-45.0%
	 * (results/gate-tlb-ws/NOTES.md).
	 */
	if (o->suite == PT_SUITE_CI) {
		add_size(o, out, max, &n, 4ull << 20);
		add_size(o, out, max, &n, 32ull << 20);
		return (int)n;
	}
	if (o->suite == PT_SUITE_FULL) {
		top = o->max_mem;
		for (ws = 16 << 10; ws <= top; ws *= 2)
			add_size(o, out, max, &n, ws);
		return (int)n;
	}
	/*
	 * 4x steps up to 256K (64 pages), where the L1 TLB still holds
	 * everything, then 2x steps: each TLB size and cache the walk
	 * calibration chooses among has a working set on either side of it
	 * (docs/walk.md), the L1's (32 to 96 entries) included.
	 */
	for (ws = 16 << 10; ws <= top && ws <= o->max_mem; ws *= ws < (256u << 10) ? 4 : 2)
		add_size(o, out, max, &n, ws);
	return (int)n;
}

const struct pt_workload pt_wl_tlb = {
	.name = "tlb",
	.primary_metric = "ns_per_access",
	.control = "mem-chase",
	.self_warming = true, /* map, populate, one full cycle, then the timed cycles */
	.summary = "dependent pointer chase, one load per page: ns per access vs working set",
	.help = "cases: chase-4k-<ws>, chase-thp-<ws>, chase-hugetlb-<ws> (root), dense-<ws>,\n"
		"  chase-half-<ws> (not ci), chase-quarter-<ws> (not ci; 4M..64M by 2x)\n"
		"  ws: working set; quick 16K..256K by 4x, then by 2x to 1G; full\n"
		"      16K..--max-mem by 2x; ci 4M and 32M\n"
		"  dense-<ws>: the same number of loads, one per 64-byte line, packed into\n"
		"      huge pages (the cache-cost control)\n"
		"  chase-half-<ws>: base pages, one load on every second page, so 4 of\n"
		"      the 8 D64 PTEs in each line are used, as D128 uses all 4 of its\n"
		"      at stride 1: the walk model predicts it without fitting it\n"
		"      (params stride=2)\n"
		"  chase-quarter-<ws>: one load on every fourth page (params stride=4),\n"
		"      2 of the 8 D64 PTEs in each line used; the walk model fits it:\n"
		"      it misses the L2 TLB with few pages, so it shows what a miss\n"
		"      costs when the host's translations of them can be kept\n"
		"verified: 4k took >= 0.99 faults per page touched and got no huge page;\n"
		"  thp got huge pages for >= 90% of the region; hugetlb is skipped when\n"
		"  the pool cannot be reserved\n"
		"warm-up: none; each repetition populates its region and chases one full\n"
		"  cycle before the timed ones\n"
		"metrics: ns_per_access, ticks_per_access, <event>_per_access,\n"
		"  thp_fraction, touch_faults_per_page, pgtable_* (see SCHEMA.md)",
	.cases = tlb_cases,
	.run = tlb_run,
};
