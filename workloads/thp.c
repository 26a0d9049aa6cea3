// SPDX-License-Identifier: GPL-2.0-only
/*
 * Transparent huge pages: the latency of a PMD-size huge-page fault and the
 * share of huge pages actually obtained; MADV_COLLAPSE of a region of base
 * pages; the cost of splitting PMD mappings (MADV_DONTNEED of one base
 * page inside each huge page); and the fault latency of each multi-size
 * THP (mTHP) size, enabled through sysfs for the case and restored after
 * it (and at exit, and on SIGINT/SIGTERM, by util/knobs).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/procmem.h"
#include "util/knobs.h"
#include "util/params.h"
#include "util/sysfs.h"
#include "workloads/thp.h"
#include "workloads/wl_common.h"
#include "workloads/wl_layout.h"
#include "workloads/workload.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define MAX_MTHP_SIZES 16
/*
 * An mTHP repetition faults its region this many times (MADV_DONTNEED in
 * between, untimed): enough faults for a stable cost per fault, and a case
 * long enough that the knob it sets is visibly set while it runs.
 */
#define MTHP_ROUNDS 64
#define MTHP_MIN_FRACTION 0.9

enum thp_op { THP_FAULT = 0, THP_COLLAPSE, THP_SPLIT, THP_MTHP };

struct thp_case {
	enum thp_op op;
};
PT_CASE_DATA(struct thp_case, thp_case)

/* ---- mTHP sizes and their knobs ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool knob_writable(uint64_t size)
{
	char knob[160], real[1024];

	wl_mthp_knob_path(size, "enabled", knob, sizeof(knob));
	return !pt_sys_path(knob, real, sizeof(real)) && !access(real, W_OK);
}

size_t thp_mthp_sizes(uint64_t page, uint64_t pmd, uint64_t *sizes, size_t max)
{
	char dir[1024];
	struct dirent *d;
	size_t n = 0;
	DIR *dp;

	if (pt_sys_path(THP_SYSFS, dir, sizeof(dir)))
		return 0;
	dp = opendir(dir);
	if (!dp)
		return 0;
	while ((d = readdir(dp)) && n < max) {
		unsigned long long kb;
		char tail[8];

		if (sscanf(d->d_name, "hugepages-%llukB%7s", &kb, tail) != 1)
			continue;
		if (kb << 10 <= page || kb << 10 >= pmd || !knob_writable(kb << 10))
			continue;
		sizes[n++] = kb << 10;
	}
	closedir(dp);
	qsort(sizes, n, sizeof(*sizes), cmp_u64);
	return n;
}

double thp_mthp_fraction(uint64_t pages, uint64_t faults, uint64_t folio_pages)
{
	double folios;

	if (!pages || !faults || folio_pages < 2 || faults > pages)
		return 0;
	folios = (double)(pages - faults) / (double)(folio_pages - 1);
	return folios * (double)folio_pages / (double)pages;
}

/* The knob this process set for the current mTHP case, and its old value. */
static char mthp_knob[160];
static char mthp_saved[64];

/* Put the current case's knob back as it was before the case. */
static void mthp_release(void)
{
	if (!mthp_knob[0])
		return;
	pt_knob_set(mthp_knob, mthp_saved);
	mthp_knob[0] = '\0';
}

/*
 * "always" enables the size for every anonymous mapping without advice,
 * which the PMD size (inherit: madvise here) does not cover; the case's
 * mapping has no advice, so only this size can be chosen.
 */
static int mthp_enable(uint64_t size, struct pt_rep *r)
{
	char knob[160];
	int err;

	wl_mthp_knob_path(size, "enabled", knob, sizeof(knob));
	if (!strcmp(knob, mthp_knob))
		return 0;
	mthp_release();
	err = pt_sys_read_choice(knob, mthp_saved, sizeof(mthp_saved));
	if (!err)
		err = pt_knob_set(knob, "always");
	if (err)
		return pt_rep_skip(r, "cannot enable %s: %s", knob, strerror(-err));
	snprintf(mthp_knob, sizeof(mthp_knob), "%s", knob);
	return 0;
}

/* ---- PMD-size THP ---- */

static bool pmd_thp_disabled(uint64_t pmd)
{
	char knob[160], mode[32];

	wl_mthp_knob_path(pmd, "enabled", knob, sizeof(knob));
	if (!pt_sys_read_choice(knob, mode, sizeof(mode)) && strcmp(mode, "inherit"))
		return !strcmp(mode, "never");
	if (pt_sys_read_choice(THP_SYSFS "/enabled", mode, sizeof(mode)))
		return false; /* unknown: try, the verification will tell */
	return !strcmp(mode, "never");
}

struct thp_region {
	char *base;
	size_t len;
	uint64_t huge_pages;
	struct wl_geom g;
};

static int map_region(const struct pt_case *c, struct pt_rep *r, struct thp_region *reg,
		      enum pt_backing b)
{
	wl_geom_now(&reg->g);
	reg->len = (c->size + reg->g.pmd - 1) / reg->g.pmd * reg->g.pmd;
	reg->huge_pages = reg->len / reg->g.pmd;
	reg->base = pt_map_anon(reg->len, reg->g.pmd, b);
	if (!reg->base)
		return pt_rep_fail(r, "mmap of %zu bytes: %s", reg->len, strerror(errno));
	return 0;
}

/*
 * A region short of huge pages after its faults: on a busy machine another
 * allocation can take the free PMD-sized block a fault was about to get, and
 * the next attempt usually succeeds. Made a retry (the runner repeats the
 * repetition, bounded); a shortage that persists still fails the case.
 */
static int huge_short_retry(struct pt_rep *r, int ret, const struct pt_smaps_info *s, size_t len)
{
	/* rss_bytes 0: smaps was not read, nothing transient about that */
	if (!ret || !r->failed || !s->rss_bytes || s->anon_huge_bytes >= len)
		return ret;
	return pt_rep_retry(r, "%s", r->msg);
}

/* Fault in huge pages and check the region is backed by them. */
static int populate_huge(struct pt_rep *r, struct thp_region *reg)
{
	struct wl_expect e = { PT_BACK_THP, reg->len };
	struct pt_smaps_info s = { 0 };
	int ret;

	wl_layout_touch(reg->base, reg->len, reg->g.pmd);
	ret = wl_check_region(r, reg->base, reg->len, &e, &s);
	return huge_short_retry(r, ret, &s, reg->len);
}

static int thp_fault(struct pt_rep *r, struct thp_region *reg)
{
	struct wl_expect e = { PT_BACK_THP, reg->len };
	struct pt_smaps_info s = { 0 };
	uint64_t touched;
	char msg[200];
	int ret;

	pt_rep_begin(r);
	touched = wl_layout_touch(reg->base, reg->len, reg->g.pmd);
	pt_rep_end(r);
	ret = wl_check_region(r, reg->base, reg->len, &e, &s);
	if (ret)
		return huge_short_retry(r, ret, &s, reg->len);
	if (wl_verify_faults("huge-page faults", pt_rep_faults(r), touched, 1.0, 1.0, 2, msg,
			     sizeof(msg)))
		return pt_rep_fail(r, "%s", msg);
	pt_rep_emit(r, "faults_per_huge_page",
		    (double)pt_rep_faults(r) / ((double)s.anon_huge_bytes / (double)reg->g.pmd),
		    "ratio", PT_NEITHER);
	pt_rep_emit_per_op(r, (double)touched, "huge_fault");
	return 0;
}

static int thp_collapse(struct pt_rep *r, struct thp_region *reg)
{
	struct wl_expect e = { PT_BACK_THP, reg->len };
	struct pt_smaps_info s;
	int ret, err;

	pt_touch_pages(reg->base, reg->len, reg->g.page);
	/* Eligible for collapse now; VM_NOHUGEPAGE kept it base pages so far. */
	if (madvise(reg->base, reg->len, MADV_HUGEPAGE))
		return pt_rep_fail(r, "madvise(MADV_HUGEPAGE): %s", strerror(errno));
	if (pt_smaps_range(reg->base, reg->len, &s))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	if (s.anon_huge_bytes || s.rss_bytes < reg->len)
		return pt_rep_fail(r, "before collapse: %llu bytes resident, %llu in huge pages",
				   (unsigned long long)s.rss_bytes,
				   (unsigned long long)s.anon_huge_bytes);
	pt_rep_begin(r);
	ret = madvise(reg->base, reg->len, MADV_COLLAPSE);
	err = errno;
	pt_rep_end(r);
	if (ret && err == EINVAL)
		return pt_rep_skip(r, "MADV_COLLAPSE unsupported by this kernel (EINVAL)");
	/* EAGAIN: a page was locked or busy (a busy machine), not a refusal */
	if (ret && err == EAGAIN)
		return pt_rep_retry(r, "madvise(MADV_COLLAPSE): %s", strerror(err));
	if (ret)
		return pt_rep_fail(r, "madvise(MADV_COLLAPSE): %s", strerror(err));
	ret = wl_check_region(r, reg->base, reg->len, &e, &s);
	if (!ret)
		pt_rep_emit_per_op(r, (double)reg->huge_pages, "collapse");
	return ret;
}

static int thp_split(struct pt_rep *r, struct thp_region *reg)
{
	struct pt_smaps_info before, after;
	uint64_t i;
	int ret = populate_huge(r, reg);

	if (ret)
		return ret;
	if (pt_smaps_range(reg->base, reg->len, &before))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	pt_rep_begin(r);
	for (i = 0; i < reg->huge_pages; i++)
		madvise(reg->base + i * reg->g.pmd + reg->g.page, reg->g.page, MADV_DONTNEED);
	pt_rep_end(r);
	if (pt_smaps_range(reg->base, reg->len, &after))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	pt_rep_emit(r, "thp_fraction_after_split", (double)after.anon_huge_bytes / (double)reg->len,
		    "ratio", PT_NEITHER);
	if (after.anon_huge_bytes)
		return pt_rep_fail(r, "%llu bytes still PMD-mapped after the split",
				   (unsigned long long)after.anon_huge_bytes);
	if (after.rss_bytes + reg->huge_pages * reg->g.page < before.rss_bytes)
		return pt_rep_fail(r, "Rss fell from %llu to %llu bytes: more than one page each",
				   (unsigned long long)before.rss_bytes,
				   (unsigned long long)after.rss_bytes);
	pt_rep_emit_per_op(r, (double)reg->huge_pages, "split");
	return 0;
}

static int thp_run_pmd(const struct pt_case *c, struct pt_rep *r)
{
	struct thp_region reg = { 0 };
	long vmpte0 = pt_vmpte_kb();
	enum thp_op op = thp_case_get(c).op;
	int ret;

	mthp_release();
	if (op != THP_COLLAPSE && pmd_thp_disabled(pt_pmd_size()))
		return pt_rep_skip(r, "PMD-size THP is disabled (transparent_hugepage: never)");
	ret = map_region(c, r, &reg, op == THP_COLLAPSE ? PT_BACK_4K : PT_BACK_THP);
	if (ret)
		return ret;
	if (op == THP_FAULT)
		ret = thp_fault(r, &reg);
	else if (op == THP_COLLAPSE)
		ret = thp_collapse(r, &reg);
	else
		ret = thp_split(r, &reg);
	if (!ret)
		pt_rep_pgtable_point(r, vmpte0);
	pt_unmap(reg.base, reg.len);
	return ret;
}

/* ---- mTHP ---- */

static int mthp_verify(const struct pt_case *c, struct pt_rep *r, uint64_t pages)
{
	uint64_t folio_pages = c->mthp_size / pt_page_size();
	uint64_t faults = (uint64_t)pt_rep_faults(r);
	double frac = thp_mthp_fraction(pages, faults, folio_pages);

	pt_rep_emit(r, "faults_per_page", (double)faults / (double)pages, "ratio", PT_NEITHER);
	pt_rep_emit(r, "mthp_fraction", frac, "ratio", PT_NEITHER);
	if (frac < MTHP_MIN_FRACTION)
		return pt_rep_fail(r, "%llu faults for %llu pages: %.0f%% in %llu kB folios",
				   (unsigned long long)faults, (unsigned long long)pages,
				   frac * 100, (unsigned long long)(c->mthp_size >> 10));
	return 0;
}

static int thp_run_mthp(const struct pt_case *c, struct pt_rep *r)
{
	uint64_t page = pt_page_size(), pages = 0;
	size_t len = c->size + c->mthp_size;
	long vmpte0 = pt_vmpte_kb();
	char *raw, *base;
	int i, ret;

	ret = mthp_enable(c->mthp_size, r);
	if (ret)
		return ret;
	/* No advice: the PMD size (madvise or inherit) stays out of it. */
	raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (raw == MAP_FAILED)
		return pt_rep_fail(r, "mmap of %zu bytes: %s", len, strerror(errno));
	base = (char *)(((uintptr_t)raw + c->mthp_size - 1) / c->mthp_size * c->mthp_size);
	for (i = 0; i < MTHP_ROUNDS; i++) {
		if (i)
			madvise(base, c->size, MADV_DONTNEED);
		pt_rep_begin(r);
		pages += wl_layout_touch(base, c->size, page);
		pt_rep_end(r);
	}
	ret = mthp_verify(c, r, pages);
	if (!ret) {
		pt_rep_emit_per_op(r, (double)pt_rep_faults(r), "mthp_fault");
		pt_rep_pgtable_point(r, vmpte0);
	}
	munmap(raw, len);
	return ret;
}

static int thp_run(const struct pt_case *c, struct pt_rep *r)
{
	if (thp_case_get(c).op == THP_MTHP)
		return thp_run_mthp(c, r);
	return thp_run_pmd(c, r);
}

/* ---- cases ---- */

static void add_case(struct pt_case *out, size_t max, size_t *n, enum thp_op v, uint64_t size,
		     uint64_t mthp)
{
	static const char *const ops[] = { "fault", "collapse", "split", "fault" };
	static const char *const primary[] = { "ns_per_huge_fault", "ns_per_collapse",
					       "ns_per_split", "ns_per_mthp_fault" };
	struct thp_case d = { v };
	struct pt_params p;
	struct pt_case *c;
	char sz[16], msz[16];

	if (*n >= max)
		return;
	c = &out[(*n)++];
	memset(c, 0, sizeof(*c));
	pt_size_name(size, sz, sizeof(sz));
	c->size = size;
	thp_case_set(c, &d);
	c->primary_metric = primary[v];
	c->backing = v == THP_MTHP ? PT_BACK_MTHP : PT_BACK_THP;
	c->mthp_size = mthp;
	c->mem_bytes = size + mthp + (8ull << 20);
	pt_size_name(mthp, msz, sizeof(msz));
	if (v == THP_MTHP)
		snprintf(c->name, sizeof(c->name), "mthp-fault-%s-%s", msz, sz);
	else
		snprintf(c->name, sizeof(c->name), "thp-%s-%s", ops[v], sz);
	pt_params_init(&p);
	pt_params_str(&p, "backing", pt_backing_name(c->backing));
	if (v == THP_MTHP)
		pt_params_size(&p, "mthp_size", mthp);
	pt_params_size(&p, "size", size);
	pt_params_render(&p, c->params, sizeof(c->params));
}

/* quick: 4 and 16 pages (16K, 64K on 4K pages); full: every size. */
static void add_mthp(const struct pt_suite_opts *o, struct pt_case *out, size_t max, size_t *n)
{
	uint64_t sizes[MAX_MTHP_SIZES];
	size_t i, k = thp_mthp_sizes(o->page_size, o->pmd_size, sizes, MAX_MTHP_SIZES);
	bool full = o->suite == PT_SUITE_FULL;

	for (i = 0; i < k; i++)
		if (full || sizes[i] == 4 * o->page_size || sizes[i] == 16 * o->page_size)
			add_case(out, max, n, THP_MTHP, 16ull << 20, sizes[i]);
}

/*
 * A region of about bytes, the same on every geometry so that D64 and D128
 * runs have the same cases (64M is 32 huge pages of 2M, or 64 of 1M), but
 * whole PMD blocks and at least 8 of them.
 */
static uint64_t thp_size(uint64_t bytes, uint64_t pmd)
{
	uint64_t s = bytes < 8 * pmd ? 8 * pmd : bytes;

	return (s + pmd - 1) / pmd * pmd;
}

static int thp_cases(const struct pt_suite_opts *o, struct pt_case *out, size_t max)
{
	uint64_t s, pmd = o->pmd_size, top = o->max_mem, small = thp_size(64ull << 20, pmd);
	size_t n = 0;

	if (o->suite == PT_SUITE_CI) {
		add_case(out, max, &n, THP_FAULT, small, 0);
		return (int)n;
	}
	/* First, so the PMD cases after them put the last mTHP knob back. */
	add_mthp(o, out, max, &n);
	if (o->suite == PT_SUITE_FULL) {
		for (s = thp_size(16ull << 20, pmd); s <= top; s *= 4)
			add_case(out, max, &n, THP_FAULT, s, 0);
		for (s = small; s <= top && s <= 4 * small; s *= 4) {
			add_case(out, max, &n, THP_COLLAPSE, s, 0);
			add_case(out, max, &n, THP_SPLIT, s, 0);
		}
		return (int)n;
	}
	for (s = small; s <= 4 * small && s <= top; s *= 4)
		add_case(out, max, &n, THP_FAULT, s, 0);
	add_case(out, max, &n, THP_COLLAPSE, small, 0);
	add_case(out, max, &n, THP_SPLIT, small, 0);
	return (int)n;
}

const struct pt_workload pt_wl_thp = {
	.name = "thp",
	.primary_metric = "ns_per_huge_fault",
	.control = "cpu-loop",
	.profile = true,
	.summary = "THP: huge-page fault, MADV_COLLAPSE, split, mTHP fault latency",
	.help = "cases (S: bytes, whole PMD blocks, at least 8 of them):\n"
		"  thp-fault-<S>     fault in S bytes of PMD THP, one write per huge page\n"
		"                    (quick 64M, 256M; full 16M.. --max-mem by 4x; ci 64M)\n"
		"  thp-collapse-<S>  MADV_COLLAPSE of S bytes of base pages (quick 64M)\n"
		"  thp-split-<S>     MADV_DONTNEED of one base page in each huge page:\n"
		"                    the PMD mapping is split (quick 64M)\n"
		"  mthp-fault-<N>-16M  fault latency of mTHP size N, enabled ('always') for the\n"
		"                    case when the knob is writable (root), restored after;\n"
		"                    quick: 4 and 16 pages; full: every size below P\n"
		"verified: thp-fault one fault per huge page and >= 90% huge; collapse\n"
		"  from no huge page to >= 90%; split leaves no PMD mapping; mthp\n"
		"  mthp_fraction >= 0.9\n"
		"metrics: ns_per_huge_fault, thp_fraction, faults_per_huge_page,\n"
		"  ns_per_collapse, ns_per_split, thp_fraction_after_split, ns_per_mthp_fault,\n"
		"  mthp_fraction, faults_per_page, resident_fraction, pgtable_* (SCHEMA.md)",
	.cases = thp_cases,
	.run = thp_run,
};
