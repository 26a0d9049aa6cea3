// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-table memory, measured: a region of a given virtual size populated
 * densely (every page), or sparsely (one page per PMD span, one page per PUD
 * span), with 4K pages or PMD THP; the growth of the process's VmPTE and
 * of PageTables in /proc/meminfo, per GiB populated and per GiB mapped,
 * beside the model's figure for both descriptor formats.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/procmem.h"
#include "util/sysfs.h"
#include "workloads/wl_layout.h"
#include "workloads/workload.h"

#define GIB (1ull << 30)
/* Sparse layouts span 64G of address space (at least one PUD span). */
#define SPARSE_SPAN (64ull << 30)
/* A sparse case needs at least this many touches to say anything. */
#define SPARSE_MIN_TOUCHES 4
/* Waiting for PageTables to settle: at most SETTLE_TRIES reads. */
#define SETTLE_TRIES 30
#define SETTLE_STABLE 3
#define SETTLE_US 10000

struct pgt_sample {
	long vmpte_kb, pagetables_kb;
};

/* PageTables with the per-CPU counters folded first (root only). */
static long pagetables_kb(void)
{
	if (!pt_sysroot()[0] && pt_sys_exists("/proc/sys/vm/stat_refresh"))
		pt_sys_write("/proc/sys/vm/stat_refresh", "1");
	return pt_meminfo_kb("PageTables");
}

/*
 * Page tables are freed an RCU grace period after munmap (some 15 ms here),
 * so those of the last repetition may still be going away: wait until
 * PageTables holds still for SETTLE_STABLE reads SETTLE_US apart.
 */
static void sample(struct pgt_sample *s, bool settle)
{
	long prev = pagetables_kb(), now;
	int i, stable = 0;

	for (i = 0; settle && i < SETTLE_TRIES && stable < SETTLE_STABLE; i++) {
		usleep(SETTLE_US);
		now = pagetables_kb();
		stable = now == prev ? stable + 1 : 0;
		prev = now;
	}
	s->pagetables_kb = prev;
	s->vmpte_kb = pt_vmpte_kb();
}

static int verify(const struct pt_case *c, struct pt_rep *r, const struct wl_geom *g,
		  uint64_t touches, long growth)
{
	char msg[200];

	if (wl_verify_faults("populating", pt_rep_faults(r), touches, 1.0, 1.0, 2, msg,
			     sizeof(msg)) ||
	    wl_verify_pgtable_growth(growth,
				     wl_layout_min_pgtable(wl_layout_case_get(c).layout, c->backing,
							   c->size, g),
				     msg, sizeof(msg)))
		return pt_rep_fail(r, "%s", msg);
	return 0;
}

static void emit_growth(struct pt_rep *r, const struct pt_case *c, const struct pgt_sample *a,
			const struct pgt_sample *b, uint64_t populated)
{
	double growth = (double)(b->vmpte_kb - a->vmpte_kb) * 1024;

	pt_rep_emit(r, "populated_bytes", (double)populated, "bytes", PT_NEITHER);
	pt_rep_emit(r, "pgtable_bytes_per_gib_populated", growth / ((double)populated / GIB),
		    "bytes", PT_LOWER);
	pt_rep_emit(r, "pgtable_bytes_per_gib_mapped", growth / ((double)c->size / GIB), "bytes",
		    PT_LOWER);
	if (a->pagetables_kb >= 0 && b->pagetables_kb >= 0)
		pt_rep_emit(r, "meminfo_pagetables_growth_bytes",
			    (double)(b->pagetables_kb - a->pagetables_kb) * 1024, "bytes",
			    PT_LOWER);
	else
		pt_rep_note(r, "PageTables is not in /proc/meminfo");
}

static int pgtable_run(const struct pt_case *c, struct pt_rep *r)
{
	enum wl_layout l = wl_layout_case_get(c).layout;
	struct wl_expect e = { c->backing, 0 };
	struct pgt_sample before, after;
	struct pt_smaps_info s;
	struct wl_geom g;
	uint64_t touches;
	char *base;
	int ret;

	wl_geom_now(&g);
	e.resident = wl_layout_resident(l, c->backing, c->size, &g);
	base = pt_map_anon(c->size, wl_layout_align(l, c->size, &g), c->backing);
	if (!base)
		return pt_rep_fail(r, "mmap of %llu bytes: %s", (unsigned long long)c->size,
				   strerror(errno));
	sample(&before, true);
	if (before.vmpte_kb < 0) {
		pt_unmap(base, c->size);
		return pt_rep_skip(r, "VmPTE is not in /proc/self/status");
	}
	pt_rep_begin(r);
	touches = wl_layout_touch(base, c->size, wl_layout_stride(l, c->backing, &g));
	pt_rep_end(r);
	sample(&after, false);
	ret = wl_check_region(r, base, c->size, &e, &s);
	if (!ret)
		ret = verify(c, r, &g, touches, (after.vmpte_kb - before.vmpte_kb) * 1024);
	if (!ret) {
		pt_rep_emit_per_op(r, (double)touches, "touch");
		emit_growth(r, c, &before, &after, s.rss_bytes);
		pt_rep_pgtable_point(r, before.vmpte_kb);
	}
	pt_unmap(base, c->size);
	return ret;
}

static void add_case(struct pt_case *out, size_t max, size_t *n, enum wl_layout l,
		     enum pt_backing b, uint64_t span, const struct wl_geom *g)
{
	struct pt_case *c;
	char sz[16];

	if (*n >= max)
		return;
	if (l != WL_DENSE && wl_layout_touches(l, b, span, g) < SPARSE_MIN_TOUCHES)
		return;
	c = &out[(*n)++];
	memset(c, 0, sizeof(*c));
	pt_size_name(span, sz, sizeof(sz));
	wl_layout_case_init(c, l, b, span);
	snprintf(c->name, sizeof(c->name), "%s-%s-%s", wl_layout_name(l), pt_backing_name(b), sz);
	/* Resident memory and its tables (a page of them per PMD span at most). */
	c->mem_bytes = wl_layout_resident(l, b, span, g) +
		       wl_layout_touches(l, b, span, g) * g->page + (8ull << 20);
}

/*
 * The same span on every geometry, so that a D64 and a D128 run have the
 * same cases and compare series by series: 64G is 64 PUD spans under 4K D64
 * and 256 under 4K D128, where every span holds its own page.
 */
static uint64_t sparse_span(const struct wl_geom *g)
{
	return SPARSE_SPAN > g->pud ? SPARSE_SPAN / g->pud * g->pud : g->pud;
}

static void add_sparse(struct pt_case *out, size_t max, size_t *n, uint64_t span,
		       const struct wl_geom *g)
{
	add_case(out, max, n, WL_SPARSE_PMD, PT_BACK_4K, span, g);
	add_case(out, max, n, WL_SPARSE_PUD, PT_BACK_4K, span, g);
	add_case(out, max, n, WL_SPARSE_PUD, PT_BACK_THP, span, g);
}

static int pgtable_cases(const struct pt_suite_opts *o, struct pt_case *out, size_t max)
{
	uint64_t s, top = o->max_mem;
	struct wl_geom g;
	size_t n = 0;

	wl_geom_of_suite(&g, o);
	if (o->suite == PT_SUITE_CI) {
		add_case(out, max, &n, WL_DENSE, PT_BACK_4K, 256ull << 20, &g);
		add_case(out, max, &n, WL_SPARSE_PMD, PT_BACK_4K, sparse_span(&g) / 4, &g);
		return (int)n;
	}
	if (o->suite == PT_SUITE_FULL) {
		for (s = 64ull << 20; s <= top; s *= 4) {
			add_case(out, max, &n, WL_DENSE, PT_BACK_4K, s, &g);
			add_case(out, max, &n, WL_DENSE, PT_BACK_THP, s, &g);
		}
		for (s = sparse_span(&g) / 64; s <= sparse_span(&g); s *= 8)
			add_sparse(out, max, &n, s, &g);
		return (int)n;
	}
	add_case(out, max, &n, WL_DENSE, PT_BACK_4K, 64ull << 20, &g);
	if (top >= GIB) {
		add_case(out, max, &n, WL_DENSE, PT_BACK_4K, GIB, &g);
		add_case(out, max, &n, WL_DENSE, PT_BACK_THP, GIB, &g);
	}
	add_sparse(out, max, &n, sparse_span(&g), &g);
	return (int)n;
}

const struct pt_workload pt_wl_pgtable = {
	.name = "pgtable",
	.primary_metric = "pgtable_bytes_kernel",
	.summary = "page-table memory (VmPTE, PageTables) per GiB populated and mapped",
	.help = "cases: <layout>-<backing>-<span>\n"
		"  layout: dense (every page; THP: every huge page), sparse-pmd (one 4K page\n"
		"     per PMD span), sparse-pud (one page or huge page per PUD span)\n"
		"  span: the region's virtual size; quick: dense 64M, 1G (4k, thp 1G);\n"
		"     sparse 64G on every geometry; full: dense 64M..\n"
		"     --max-mem by 4x, sparse 1/64, 1/8 and all of that span; ci: dense-4k-256M\n"
		"     and sparse-pmd-4k-16G\n"
		"verified: one fault per write; resident as the layout says (thp >= 90%\n"
		"  huge, 4k none); 4k layouts grew VmPTE by >= one page per populated\n"
		"  PMD span\n"
		"metrics: pgtable_bytes_kernel (VmPTE growth), meminfo_pagetables_growth_bytes,\n"
		"  pgtable_bytes_per_gib_populated, pgtable_bytes_per_gib_mapped,\n"
		"  populated_bytes, ns_per_touch, resident_fraction, thp_fraction,\n"
		"  pgtable_* model rows (SCHEMA.md)",
	.cases = pgtable_cases,
	.run = pgtable_run,
};
