/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the fork, thp and pgtable workloads: where in a region pages are
 * populated (dense, one page per PMD span, one page per PUD span), sized from
 * the running system's geometry, and the checks that a repetition did what
 * it claims. The checks are pure functions so tests can exercise them.
 */
#ifndef PTBENCH_WL_LAYOUT_H
#define PTBENCH_WL_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "harness/procmem.h"
#include "harness/rep.h"
#include "workloads/workload.h"

enum wl_layout {
	WL_DENSE = 0, /* every page (every huge page for THP) */
	WL_SPARSE_PMD, /* one page per PMD span */
	WL_SPARSE_PUD, /* one page per PUD span */
};

/* Sizes of the translation geometry, bytes. */
struct wl_geom {
	uint64_t page, pmd, pud;
};

/* The data of a fork or pgtable case: where its region is populated. */
struct wl_layout_case {
	enum wl_layout layout;
};
PT_CASE_DATA(struct wl_layout_case, wl_layout_case)

const char *wl_layout_name(enum wl_layout l);
/*
 * Fill a fork or pgtable case (zeroed by the caller): its backing, size,
 * layout and params "backing=;layout=;size=". The name is the caller's.
 */
void wl_layout_case_init(struct pt_case *c, enum wl_layout l, enum pt_backing b, uint64_t size);
/* The geometry of the running system (pt_page_size, pt_pmd_size). */
void wl_geom_now(struct wl_geom *g);
/* The geometry a suite was built for. */
void wl_geom_of_suite(struct wl_geom *g, const struct pt_suite_opts *o);
/* Bytes between two touches: a page, a PMD or a PUD span (THP dense: PMD). */
uint64_t wl_layout_stride(enum wl_layout l, enum pt_backing b, const struct wl_geom *g);
/* Alignment of a region so its tables are its own: PUD when it spans one. */
uint64_t wl_layout_align(enum wl_layout l, uint64_t span, const struct wl_geom *g);
/* Touches (pages populated) over span bytes. */
uint64_t wl_layout_touches(enum wl_layout l, enum pt_backing b, uint64_t span,
			   const struct wl_geom *g);
/* Bytes resident after the touches: a page each, a PMD each for THP. */
uint64_t wl_layout_resident(enum wl_layout l, enum pt_backing b, uint64_t span,
			    const struct wl_geom *g);
/*
 * Page-table bytes the layout needs at least: one PTE table (a page) per
 * PMD span holding a 4K page. THP maps at the PMD: 0 (the tables above may
 * be shared with other mappings, and PTE-table deposit is a kernel choice).
 */
uint64_t wl_layout_min_pgtable(enum wl_layout l, enum pt_backing b, uint64_t span,
			       const struct wl_geom *g);
/* Write one byte at every stride of [base, base + span); returns the count. */
uint64_t wl_layout_touch(void *base, uint64_t span, uint64_t stride);

/* What a region should hold, and what smaps said it holds. */
struct wl_expect {
	enum pt_backing backing;
	uint64_t resident; /* bytes expected resident */
};

/*
 * Is the region populated as the case claims? 4K: Rss covers resident, no
 * huge pages. THP: AnonHugePages covers PT_THP_MIN_FRACTION of resident.
 * 0, or -1 with the reason in msg.
 */
int wl_verify_resident(const struct wl_expect *e, const struct pt_smaps_info *s, char *msg,
		       size_t len);
/*
 * Did the software counter see the faults the case claims, within
 * [want * lo, want * hi + slack]? 0, or -1 with the reason in msg.
 */
int wl_verify_faults(const char *what, long faults, uint64_t want, double lo, double hi, long slack,
		     char *msg, size_t len);
/* Did page-table memory grow by at least min_bytes? 0, or -1 with msg. */
int wl_verify_pgtable_growth(long growth_bytes, uint64_t min_bytes, char *msg, size_t len);

/*
 * A copy of r that times a phase on its own: no counters, nothing
 * accumulated yet. Its rows must be emitted through r.
 */
void wl_probe_init(struct pt_rep *probe, const struct pt_rep *r);
/* Read smaps for the range and check it with wl_verify_resident (fails r). */
int wl_check_region(struct pt_rep *r, const void *base, size_t len, const struct wl_expect *e,
		    struct pt_smaps_info *s);

#endif
