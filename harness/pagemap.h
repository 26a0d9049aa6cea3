/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The populated memory of a live process, as extents for the page-table
 * model: /proc/PID/maps for the VMAs, /proc/PID/pagemap for what is
 * populated (present or swapped: both keep their page-table entries).
 * PMD-mapped THP and hugetlb pages are located with the PAGEMAP_SCAN ioctl
 * (PAGE_IS_HUGE, Linux 6.7+) or, without it, /proc/kpageflags (root only).
 * All paths go through util/sysfs.h, so a fixture sysroot can stand in.
 */
#ifndef PTBENCH_PAGEMAP_H
#define PTBENCH_PAGEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/pgtable.h"

struct pt_regime;

struct pt_vma {
	uint64_t start, end; /* [start, end) */
	char perms[5];
	bool hugetlb; /* a hugetlbfs or MAP_HUGETLB mapping */
	bool file; /* backed by a file or shmem (inode != 0) */
	unsigned huge_shift; /* its page size, log2 bytes */
	char name[64]; /* path or [heap], truncated */
};

struct pt_pagemap_stats {
	uint64_t vmas; /* VMAs scanned */
	uint64_t vma_bytes; /* their virtual size */
	uint64_t populated_bytes; /* present or swapped */
	uint64_t thp_bytes; /* PMD-mapped THP */
	uint64_t hugetlb_bytes;
	uint64_t pagemap_bytes_read; /* 0 with PAGEMAP_SCAN */
	bool used_scan_ioctl;
	bool thp_known; /* huge mappings could be located */
};

/* Parse one line of /proc/PID/maps. 0, or -1 when malformed. */
int pt_maps_parse_line(const char *line, struct pt_vma *v);
#define PT_PAGEMAP_NO_SCAN 0x1u /* read pagemap in chunks even where PAGEMAP_SCAN works */

/*
 * Read process pid (0: this process) into out (initialised here; free with
 * pt_layout_free). -1 with a message naming the file and the problem.
 */
int pt_pagemap_read(int pid, unsigned flags, struct pt_layout *out, struct pt_pagemap_stats *st,
		    char *err, size_t errlen);

/*
 * The geometry of format f at the regime's granule and VA size. VA sizes
 * the Arm formats do not have (x86-64 LA57: 57) fall back to the largest
 * one with the same walk below the start table (52, then 48); the start
 * table differs, the kernel-counted levels do not. 0, or -1 with err.
 */
int pt_regime_geometry(const struct pt_regime *r, enum pt_format f, struct pt_geometry *g,
		       char *err, size_t errlen);

#endif
