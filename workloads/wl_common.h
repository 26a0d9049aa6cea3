/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pieces the fault, mprotect and munmap workloads share: case-table
 * building, regions of a given backing (with the mTHP knobs a case needs,
 * put back at the end of the repetition), and the checks that a region got
 * the backing it claims.
 */
#ifndef PTBENCH_WORKLOADS_WL_COMMON_H
#define PTBENCH_WORKLOADS_WL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/rep.h"
#include "workloads/workload.h"

#define WL_MAX_KNOBS 3

/* A sysfs knob changed for one repetition and put back at its end. */
struct wl_knob {
	char path[160];
	char old[64];
	bool changed;
};

struct wl_knobs {
	struct wl_knob k[WL_MAX_KNOBS];
	int n;
};

/* Change a knob through pt_knob_set (also restored at exit and on signals). */
int wl_knob_push(struct wl_knobs *ks, const char *path, const char *value);
/* Put back every knob pushed, newest first. */
void wl_knobs_pop(struct wl_knobs *ks);

/* "/sys/kernel/mm/transparent_hugepage/hugepages-<kB>kB/<file>" */
void wl_mthp_knob_path(uint64_t size, const char *file, char *out, size_t len);
/* The mTHP size the suites use (64K) when sysfs has it and we are root; 0 otherwise. */
uint64_t wl_mthp_size(const struct pt_suite_opts *o);

/* The next free case of out[], zeroed, with these fields; NULL when full. */
struct pt_case *wl_case_next(struct pt_case *out, size_t max, size_t *n, enum pt_backing b,
			     uint64_t size);
/* "4k", "thp", "mthp64K": the backing as it appears in case names. */
void wl_backing_label(const struct pt_case *c, char *out, size_t len);

struct wl_region {
	char *base;
	size_t len;
	struct wl_knobs knobs;
};

/*
 * Map len bytes of anonymous memory for the case's backing, aligned to the
 * PMD size for THP and mTHP. mTHP enables c->mthp_size and disables the PMD
 * size for this repetition. 0, or pt_rep_fail / pt_rep_skip's value.
 */
int wl_region_map(struct wl_region *reg, const struct pt_case *c, size_t len, struct pt_rep *r);
void wl_region_unmap(struct wl_region *reg);

/*
 * Emit thp_fraction (AnonHugePages / len) and fail the repetition when a
 * THP region is below PT_THP_MIN_FRACTION or a 4K region has huge pages.
 */
int wl_verify_thp(struct pt_rep *r, enum pt_backing b, const void *base, size_t len);
/* The same check without the row; frac receives the fraction. */
int wl_check_thp(struct pt_rep *r, enum pt_backing b, const void *base, size_t len, double *frac);
/* Fail unless every page of the range is present (pagemap). */
int wl_verify_present(struct pt_rep *r, const void *base, size_t len);

/* Write every page, then check it is present and backed as b claims. */
int wl_populate_verified(struct pt_rep *r, enum pt_backing b, void *base, size_t len);
/* Pick sizes: the largest PMD multiple not above want and max_mem, at least a PMD. */
uint64_t wl_fit_size(const struct pt_suite_opts *o, uint64_t want);

/* Faults inside the timed region: the page-faults counter, else getrusage. */
double wl_faults_taken(const struct pt_rep *r);
/* Page-table kB given back (peak - after) over the kB expected back; -1 if none expected. */
double wl_freed_fraction(long peak_kb, long after_kb, double expected_kb);

#endif
