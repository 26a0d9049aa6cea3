// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/procmem.h"
#include "util/knobs.h"
#include "util/sysfs.h"
#include "workloads/wl_common.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"
#define SUITE_MTHP_SIZE (64u << 10)

int wl_knob_push(struct wl_knobs *ks, const char *path, const char *value)
{
	struct wl_knob *k;
	int err;

	if (ks->n >= WL_MAX_KNOBS)
		return -ENOSPC;
	k = &ks->k[ks->n];
	memset(k, 0, sizeof(*k));
	snprintf(k->path, sizeof(k->path), "%s", path);
	err = pt_sys_read_choice(path, k->old, sizeof(k->old));
	if (err)
		return err;
	ks->n++;
	if (!strcmp(k->old, value))
		return 0;
	err = pt_knob_set(path, value);
	k->changed = !err;
	return err;
}

void wl_knobs_pop(struct wl_knobs *ks)
{
	while (ks->n > 0) {
		struct wl_knob *k = &ks->k[--ks->n];

		if (k->changed)
			pt_knob_set(k->path, k->old);
	}
}

void wl_mthp_knob_path(uint64_t size, const char *file, char *out, size_t len)
{
	snprintf(out, len, THP_DIR "/hugepages-%llukB/%s", (unsigned long long)(size >> 10), file);
}

uint64_t wl_mthp_size(const struct pt_suite_opts *o)
{
	char path[160];

	if (!o->is_root || SUITE_MTHP_SIZE <= o->page_size || SUITE_MTHP_SIZE >= o->pmd_size)
		return 0;
	wl_mthp_knob_path(SUITE_MTHP_SIZE, "enabled", path, sizeof(path));
	return pt_sys_exists(path) ? SUITE_MTHP_SIZE : 0;
}

struct pt_case *wl_case_next(struct pt_case *out, size_t max, size_t *n, enum pt_backing b,
			     uint64_t size)
{
	struct pt_case *c;

	if (*n >= max)
		return NULL;
	c = &out[(*n)++];
	memset(c, 0, sizeof(*c));
	c->backing = b;
	c->size = size;
	return c;
}

void wl_backing_label(const struct pt_case *c, char *out, size_t len)
{
	char size[32];

	if (c->backing != PT_BACK_MTHP) {
		snprintf(out, len, "%s", pt_backing_name(c->backing));
		return;
	}
	pt_size_name(c->mthp_size, size, sizeof(size));
	snprintf(out, len, "mthp%s", size);
}

/* mTHP of one size only: that size on, the PMD size off. */
static int enable_mthp(struct wl_region *reg, const struct pt_case *c, struct pt_rep *r)
{
	char on[160], off[160];

	wl_mthp_knob_path(c->mthp_size, "enabled", on, sizeof(on));
	wl_mthp_knob_path(pt_pmd_size(), "enabled", off, sizeof(off));
	if (!pt_sys_exists(on))
		return pt_rep_skip(r, "no mTHP size %llu kB in sysfs",
				   (unsigned long long)(c->mthp_size >> 10));
	if (wl_knob_push(&reg->knobs, on, "always") ||
	    (pt_sys_exists(off) && wl_knob_push(&reg->knobs, off, "never"))) {
		wl_knobs_pop(&reg->knobs);
		return pt_rep_skip(r, "cannot set the mTHP knobs (%s): not root?", strerror(errno));
	}
	return 0;
}

int wl_region_map(struct wl_region *reg, const struct pt_case *c, size_t len, struct pt_rep *r)
{
	bool huge = c->backing != PT_BACK_4K;
	int ret;

	memset(reg, 0, sizeof(*reg));
	if (c->backing == PT_BACK_MTHP) {
		ret = enable_mthp(reg, c, r);
		if (ret)
			return ret;
	}
	reg->len = len;
	reg->base = pt_map_anon(len, huge ? pt_pmd_size() : pt_page_size(), c->backing);
	if (!reg->base) {
		wl_knobs_pop(&reg->knobs);
		return pt_rep_fail(r, "mmap of %zu bytes: %s", len, strerror(errno));
	}
	return 0;
}

void wl_region_unmap(struct wl_region *reg)
{
	pt_unmap(reg->base, reg->len);
	reg->base = NULL;
	wl_knobs_pop(&reg->knobs);
}

int wl_check_thp(struct pt_rep *r, enum pt_backing b, const void *base, size_t len, double *frac)
{
	struct pt_smaps_info s;

	*frac = 0;
	if (pt_smaps_range(base, len, &s))
		return pt_rep_fail(r, "cannot read /proc/self/smaps");
	*frac = (double)s.anon_huge_bytes / (double)len;
	if (b == PT_BACK_THP && *frac < PT_THP_MIN_FRACTION)
		return pt_rep_fail(r, "THP case got huge pages for only %.0f%% of %zu bytes",
				   *frac * 100, len);
	if (b != PT_BACK_THP && s.anon_huge_bytes)
		return pt_rep_fail(r, "%s case got %llu bytes of PMD-mapped huge pages",
				   pt_backing_name(b), (unsigned long long)s.anon_huge_bytes);
	return 0;
}

int wl_verify_thp(struct pt_rep *r, enum pt_backing b, const void *base, size_t len)
{
	double frac;
	int ret = wl_check_thp(r, b, base, len, &frac);

	pt_rep_emit(r, "thp_fraction", frac, "ratio", PT_NEITHER);
	return ret;
}

int wl_verify_present(struct pt_rep *r, const void *base, size_t len)
{
	struct pt_pagemap_info p;

	if (pt_pagemap_range(base, len, &p))
		return pt_rep_fail(r, "cannot read /proc/self/pagemap");
	if (p.present != p.pages)
		return pt_rep_fail(r, "only %llu of %llu pages present after populating",
				   (unsigned long long)p.present, (unsigned long long)p.pages);
	return 0;
}

double wl_faults_taken(const struct pt_rep *r)
{
	double v = pt_rep_counter(r, "page-faults");

	return v >= 0 ? v : (double)pt_rep_faults(r);
}

double wl_freed_fraction(long peak_kb, long after_kb, double expected_kb)
{
	if (expected_kb <= 0 || peak_kb < 0 || after_kb < 0)
		return -1;
	return (double)(peak_kb - after_kb) / expected_kb;
}

int wl_populate_verified(struct pt_rep *r, enum pt_backing b, void *base, size_t len)
{
	pt_touch_pages(base, len, pt_page_size());
	return wl_verify_present(r, base, len) ?: wl_verify_thp(r, b, base, len);
}

uint64_t wl_fit_size(const struct pt_suite_opts *o, uint64_t want)
{
	uint64_t s = want < o->max_mem ? want : o->max_mem;

	s = s / o->pmd_size * o->pmd_size;
	return s ? s : o->pmd_size;
}
