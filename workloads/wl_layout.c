// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "util/params.h"
#include "workloads/wl_layout.h"

const char *wl_layout_name(enum wl_layout l)
{
	static const char *const names[] = { "dense", "sparse-pmd", "sparse-pud" };

	return l <= WL_SPARSE_PUD ? names[l] : "unknown";
}

void wl_layout_case_init(struct pt_case *c, enum wl_layout l, enum pt_backing b, uint64_t size)
{
	struct wl_layout_case d = { l };
	struct pt_params p;

	c->size = size;
	c->backing = b;
	wl_layout_case_set(c, &d);
	pt_params_init(&p);
	pt_params_str(&p, "backing", pt_backing_name(b));
	pt_params_str(&p, "layout", wl_layout_name(l));
	pt_params_size(&p, "size", size);
	pt_params_render(&p, c->params, sizeof(c->params));
}

void wl_geom_now(struct wl_geom *g)
{
	g->page = pt_page_size();
	g->pmd = pt_pmd_size();
	/* A PUD block spans as many PMD blocks as a table has entries. */
	g->pud = g->pmd * (g->pmd / g->page);
}

void wl_geom_of_suite(struct wl_geom *g, const struct pt_suite_opts *o)
{
	g->page = o->page_size;
	g->pmd = o->pmd_size;
	g->pud = o->pud_size;
}

uint64_t wl_layout_stride(enum wl_layout l, enum pt_backing b, const struct wl_geom *g)
{
	switch (l) {
	case WL_SPARSE_PMD:
		return g->pmd;
	case WL_SPARSE_PUD:
		return g->pud;
	default:
		return b == PT_BACK_THP ? g->pmd : g->page;
	}
}

uint64_t wl_layout_align(enum wl_layout l, uint64_t span, const struct wl_geom *g)
{
	if (l == WL_SPARSE_PUD || span >= g->pud)
		return g->pud;
	return g->pmd;
}

uint64_t wl_layout_touches(enum wl_layout l, enum pt_backing b, uint64_t span,
			   const struct wl_geom *g)
{
	uint64_t stride = wl_layout_stride(l, b, g);

	return (span + stride - 1) / stride;
}

uint64_t wl_layout_resident(enum wl_layout l, enum pt_backing b, uint64_t span,
			    const struct wl_geom *g)
{
	return wl_layout_touches(l, b, span, g) * (b == PT_BACK_THP ? g->pmd : g->page);
}

uint64_t wl_layout_min_pgtable(enum wl_layout l, enum pt_backing b, uint64_t span,
			       const struct wl_geom *g)
{
	if (b == PT_BACK_THP)
		return 0;
	/*
	 * Only a PMD span the region covers whole must get a table of its own:
	 * a part span (64M of a 512M span under 64K) may share the table of a
	 * mapping already there.
	 */
	if (l == WL_DENSE)
		return span / g->pmd * g->page;
	return wl_layout_touches(l, b, span, g) * g->page;
}

/*
 * Not instrumented: under AddressSanitizer each store would also read its
 * shadow byte, a fault of its own in a sparse region, and the fault counts
 * the workloads check would no longer be the workload's.
 */
__attribute__((no_sanitize_address)) uint64_t wl_layout_touch(void *base, uint64_t span,
							      uint64_t stride)
{
	volatile char *p = base;
	uint64_t off, n = 0;

	for (off = 0; off < span; off += stride, n++)
		p[off] = 1;
	return n;
}

int wl_verify_resident(const struct wl_expect *e, const struct pt_smaps_info *s, char *msg,
		       size_t len)
{
	double want = (double)e->resident;

	if (e->backing == PT_BACK_THP) {
		if ((double)s->anon_huge_bytes < PT_THP_MIN_FRACTION * want) {
			snprintf(msg, len, "THP: huge pages cover only %llu of %llu bytes",
				 (unsigned long long)s->anon_huge_bytes,
				 (unsigned long long)e->resident);
			return -1;
		}
		return 0;
	}
	if (s->anon_huge_bytes) {
		snprintf(msg, len, "4K region holds %llu bytes of huge pages",
			 (unsigned long long)s->anon_huge_bytes);
		return -1;
	}
	if (s->rss_bytes < e->resident) {
		snprintf(msg, len, "only %llu of %llu bytes resident (smaps Rss)",
			 (unsigned long long)s->rss_bytes, (unsigned long long)e->resident);
		return -1;
	}
	return 0;
}

int wl_verify_faults(const char *what, long faults, uint64_t want, double lo, double hi, long slack,
		     char *msg, size_t len)
{
	double f = (double)faults, w = (double)want;

	if (f >= w * lo && f <= w * hi + (double)slack)
		return 0;
	snprintf(msg, len, "%s: %ld faults counted, expected %llu", what, faults,
		 (unsigned long long)want);
	return -1;
}

int wl_verify_pgtable_growth(long growth_bytes, uint64_t min_bytes, char *msg, size_t len)
{
	if (growth_bytes >= 0 && (uint64_t)growth_bytes >= min_bytes)
		return 0;
	snprintf(msg, len, "page tables grew by %ld bytes, at least %llu expected", growth_bytes,
		 (unsigned long long)min_bytes);
	return -1;
}

void wl_probe_init(struct pt_rep *probe, const struct pt_rep *r)
{
	*probe = *r;
	probe->ctr = NULL;
	probe->prof = NULL; /* a probe's phase is no window of a profiled repetition */
	probe->elapsed_ns = 0;
	probe->elapsed_cycles = 0;
	probe->minflt = probe->majflt = probe->child_minflt = 0;
}

int wl_check_region(struct pt_rep *r, const void *base, size_t len, const struct wl_expect *e,
		    struct pt_smaps_info *s)
{
	char msg[200];

	if (pt_smaps_range(base, len, s))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	if (e->resident) {
		pt_rep_emit(r, "resident_fraction", (double)s->rss_bytes / (double)e->resident,
			    "ratio", PT_NEITHER);
		pt_rep_emit(r, "thp_fraction", (double)s->anon_huge_bytes / (double)e->resident,
			    "ratio", PT_NEITHER);
	}
	if (wl_verify_resident(e, s, msg, sizeof(msg)))
		return pt_rep_fail(r, "%s", msg);
	return 0;
}
