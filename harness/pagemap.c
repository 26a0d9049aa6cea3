// SPDX-License-Identifier: GPL-2.0-only
/*
 * A live process's populated extents (see pagemap.h). The fast path asks
 * the kernel for populated ranges only (PAGEMAP_SCAN), so an unpopulated
 * GiB costs nothing; the fallback reads pagemap in 512 KiB chunks.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness/env.h"
#include "harness/pagemap.h"
#include "util/sysfs.h"

#ifndef PAGEMAP_SCAN
/* include/uapi/linux/fs.h, Linux 6.7 */
struct page_region {
	uint64_t start, end, categories;
};

struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PAGE_IS_PRESENT (1 << 3)
#define PAGE_IS_SWAPPED (1 << 4)
#define PAGE_IS_HUGE (1 << 6)
#endif

#define PM_PRESENT (1ull << 63)
#define PM_SWAPPED (1ull << 62)
#define PM_PFN_MASK ((1ull << 55) - 1)
#define KPF_COMPOUND_HEAD 15
#define KPF_HUGE 17
#define KPF_THP 22
#define CHUNK_PAGES 65536 /* pagemap entries per read: 512 KiB */
#define SCAN_REGIONS 4096
#define MAX_HUGETLB_MOUNTS 8

struct reader {
	int pid;
	int pagemap_fd, kpf_fd;
	unsigned page_shift, pmd_shift, huge_default_shift;
	char hugetlb_mounts[MAX_HUGETLB_MOUNTS][128];
	unsigned hugetlb_shift[MAX_HUGETLB_MOUNTS];
	unsigned nmounts;
	struct pt_layout *out;
	struct pt_pagemap_stats *st;
	uint64_t *chunk;
	char *err;
	size_t errlen;
};

static unsigned log2_u64(uint64_t v)
{
	unsigned s = 0;

	while (v > 1) {
		v >>= 1;
		s++;
	}
	return s;
}

int pt_maps_parse_line(const char *line, struct pt_vma *v)
{
	unsigned long long start, end, off, ino;
	char perms[8], dev[32];
	int name_at = 0;

	memset(v, 0, sizeof(*v));
	if (sscanf(line, "%llx-%llx %7s %llx %31s %llu %n", &start, &end, perms, &off, dev, &ino,
		   &name_at) < 6)
		return -1;
	if (end <= start || strlen(perms) != 4)
		return -1;
	v->start = start;
	v->end = end;
	v->file = ino != 0;
	memcpy(v->perms, perms, 5);
	if (name_at > 0) {
		snprintf(v->name, sizeof(v->name), "%s", line + name_at);
		v->name[strcspn(v->name, "\n")] = '\0';
	}
	return 0;
}

static int fail(struct reader *r, const char *fmt, const char *path, int e)
{
	snprintf(r->err, r->errlen, fmt, path, strerror(e));
	return -1;
}

/* hugetlbfs mount points and their page sizes, from /proc/mounts. */
static void load_hugetlb_mounts(struct reader *r)
{
	char line[512], dir[128], type[32], opts[256];
	FILE *f = pt_sys_fopen("/proc/mounts", "r");
	uint64_t kb;

	if (!f)
		return;
	while (r->nmounts < MAX_HUGETLB_MOUNTS && fgets(line, sizeof(line), f)) {
		const char *ps;

		if (sscanf(line, "%*s %127s %31s %255s", dir, type, opts) != 3 ||
		    strcmp(type, "hugetlbfs"))
			continue;
		snprintf(r->hugetlb_mounts[r->nmounts], sizeof(r->hugetlb_mounts[0]), "%s", dir);
		r->hugetlb_shift[r->nmounts] = r->huge_default_shift;
		ps = strstr(opts, "pagesize=");
		if (ps) {
			char unit = 0;

			if (sscanf(ps + 9, "%" SCNu64 "%c", &kb, &unit) >= 1)
				r->hugetlb_shift[r->nmounts] = log2_u64(kb << (unit == 'G'   ? 30
									       : unit == 'M' ? 20
											     : 10));
		}
		r->nmounts++;
	}
	fclose(f);
}

static void classify_vma(const struct reader *r, struct pt_vma *v)
{
	unsigned i;
	size_t n;

	if (strstr(v->name, "anon_hugepage")) {
		v->hugetlb = true;
		v->huge_shift = r->huge_default_shift;
		return;
	}
	for (i = 0; i < r->nmounts; i++) {
		n = strlen(r->hugetlb_mounts[i]);
		if (!strncmp(v->name, r->hugetlb_mounts[i], n) && v->name[n] == '/') {
			v->hugetlb = true;
			v->huge_shift = r->hugetlb_shift[i];
			return;
		}
	}
}

static int add(struct reader *r, uint64_t start, uint64_t len, enum pt_map_kind kind,
	       unsigned shift)
{
	const struct pt_extent *last = r->out->n ? &r->out->ext[r->out->n - 1] : NULL;

	/* A live process may change under the reader: never overlap the last extent. */
	if (last && start < last->start + last->len) {
		uint64_t cut = last->start + last->len - start;

		if (cut >= len)
			return 0;
		start += cut;
		len -= cut;
	}
	if (pt_layout_add(r->out, start, len, kind, kind == PT_MAP_BASE ? 0 : shift)) {
		snprintf(r->err, r->errlen,
			 "pagemap of %d: extent 0x%" PRIx64 " out of order "
			 "or out of memory",
			 r->pid, start);
		return -1;
	}
	r->st->populated_bytes += len;
	if (kind == PT_MAP_THP || kind == PT_MAP_THP_FILE)
		r->st->thp_bytes += len;
	else if (kind == PT_MAP_HUGETLB)
		r->st->hugetlb_bytes += len;
	return 0;
}

/* Anonymous THP keeps a deposited PTE table; file and shmem THP do not. */
static enum pt_map_kind thp_kind(const struct pt_vma *v)
{
	return v->file ? PT_MAP_THP_FILE : PT_MAP_THP;
}

/* PAGEMAP_SCAN over one VMA: 0 done, 1 not usable here, -1 error. */
static int scan_vma(struct reader *r, const struct pt_vma *v, struct page_region *reg)
{
	struct pm_scan_arg a;
	uint64_t pos = v->start;
	long n, i;

	while (pos < v->end) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.start = pos;
		a.end = v->end;
		a.vec = (uint64_t)(uintptr_t)reg;
		a.vec_len = SCAN_REGIONS;
		a.category_anyof_mask = PAGE_IS_PRESENT | PAGE_IS_SWAPPED;
		a.return_mask = PAGE_IS_PRESENT | PAGE_IS_SWAPPED | PAGE_IS_HUGE;
		n = ioctl(r->pagemap_fd, PAGEMAP_SCAN, &a);
		/*
		 * Not a pagemap (a fixture), a kernel before 6.7, or an emulator
		 * that does not pass the ioctl on: the chunked read takes over
		 * (it clips what this VMA already added).
		 */
		if (n < 0)
			return 1;
		for (i = 0; i < n; i++) {
			bool huge = reg[i].categories & PAGE_IS_HUGE;
			enum pt_map_kind k = !huge	  ? PT_MAP_BASE
					     : v->hugetlb ? PT_MAP_HUGETLB
							  : thp_kind(v);

			if (add(r, reg[i].start, reg[i].end - reg[i].start, k,
				v->hugetlb ? v->huge_shift : r->pmd_shift))
				return -1;
		}
		if (a.walk_end <= pos)
			break;
		pos = a.walk_end;
	}
	return 0;
}

static uint64_t kpageflags(struct reader *r, uint64_t pfn)
{
	uint64_t f;

	if (r->kpf_fd < 0 || pread(r->kpf_fd, &f, sizeof(f), (off_t)(pfn * 8)) != sizeof(f))
		return 0;
	return f;
}

/*
 * With kpageflags: a PMD-aligned run of a whole huge page (head flagged
 * THP or hugetlb, PFNs contiguous and aligned) is taken as PMD-mapped.
 * Returns the pages it covers, 0 when it is not one.
 */
static unsigned huge_run(struct reader *r, const struct pt_vma *v, uint64_t va, const uint64_t *e,
			 size_t left, enum pt_map_kind *k, unsigned *shift)
{
	unsigned s = v->hugetlb ? v->huge_shift : r->pmd_shift;
	uint64_t pages = (uint64_t)1 << (s - r->page_shift), pfn, flags, i;

	if (r->kpf_fd < 0 || (va & (((uint64_t)1 << s) - 1)) || left < pages || pages > CHUNK_PAGES)
		return 0;
	pfn = e[0] & PM_PFN_MASK;
	if (!(e[0] & PM_PRESENT) || !pfn || (pfn & (pages - 1)))
		return 0;
	flags = kpageflags(r, pfn);
	if (!(flags & (1ull << KPF_COMPOUND_HEAD)) ||
	    !(flags & ((1ull << KPF_THP) | (1ull << KPF_HUGE))))
		return 0;
	for (i = 1; i < pages; i++)
		if (!(e[i] & PM_PRESENT) || (e[i] & PM_PFN_MASK) != pfn + i)
			return 0;
	*k = (flags & (1ull << KPF_HUGE)) ? PT_MAP_HUGETLB : thp_kind(v);
	*shift = s;
	return (unsigned)pages;
}

static int read_chunk(struct reader *r, const struct pt_vma *v, uint64_t va, size_t n)
{
	size_t i = 0, bytes = n * sizeof(uint64_t);
	ssize_t got = pread(r->pagemap_fd, r->chunk, bytes, (off_t)((va >> r->page_shift) * 8));

	if (got != (ssize_t)bytes) {
		snprintf(r->err, r->errlen, "/proc/%d/pagemap: short read at 0x%" PRIx64 " (%s)",
			 r->pid, va, got < 0 ? strerror(errno) : "truncated");
		return -1;
	}
	r->st->pagemap_bytes_read += bytes;
	while (i < n) {
		uint64_t a = va + ((uint64_t)i << r->page_shift);
		enum pt_map_kind k = PT_MAP_BASE;
		unsigned shift = 0, run;

		if (!(r->chunk[i] & (PM_PRESENT | PM_SWAPPED))) {
			i++;
			continue;
		}
		run = huge_run(r, v, a, r->chunk + i, n - i, &k, &shift);
		if (!run)
			run = 1;
		if (add(r, a, (uint64_t)run << r->page_shift, k, shift))
			return -1;
		i += run;
	}
	return 0;
}

/* Chunks end on CHUNK_PAGES boundaries of VA, so huge pages never straddle. */
static int read_vma(struct reader *r, const struct pt_vma *v)
{
	uint64_t span = (uint64_t)CHUNK_PAGES << r->page_shift, va = v->start;

	while (va < v->end) {
		uint64_t next = (va & ~(span - 1)) + span;

		if (next > v->end)
			next = v->end;
		if (read_chunk(r, v, va, (size_t)((next - va) >> r->page_shift)))
			return -1;
		va = next;
	}
	return 0;
}

static int read_comm(struct reader *r)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", r->pid);
	if (pt_sys_read(path, buf, sizeof(buf)) > 0)
		snprintf(r->out->comm, sizeof(r->out->comm), "%.16s", buf);
	return 0;
}

static void reader_setup(struct reader *r)
{
	uint64_t v;
	long kb;

	r->page_shift = log2_u64((uint64_t)sysconf(_SC_PAGESIZE));
	if (pt_sys_read_u64("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", &v) == 0 &&
	    v > ((uint64_t)1 << r->page_shift))
		r->pmd_shift = log2_u64(v);
	else
		r->pmd_shift = 2 * r->page_shift - 3;
	kb = pt_sys_kv_kb("/proc/meminfo", "Hugepagesize");
	r->huge_default_shift = kb > 0 ? log2_u64((uint64_t)kb << 10) : r->pmd_shift;
	load_hugetlb_mounts(r);
	r->kpf_fd = pt_sys_open("/proc/kpageflags", O_RDONLY);
}

/* One VMA: PAGEMAP_SCAN while it works, then the chunked read. */
static int do_vma(struct reader *r, struct pt_vma *v, struct page_region *reg, int *scan_ok)
{
	int rc;

	classify_vma(r, v);
	r->st->vmas++;
	r->st->vma_bytes += v->end - v->start;
	if (*scan_ok) {
		rc = scan_vma(r, v, reg);
		if (rc <= 0)
			return rc;
		*scan_ok = 0;
	}
	if (!r->chunk) {
		r->chunk = malloc(CHUNK_PAGES * sizeof(uint64_t));
		if (!r->chunk) {
			snprintf(r->err, r->errlen, "out of memory");
			return -1;
		}
	}
	return read_vma(r, v);
}

/* All VMAs first: the reader allocates, which changes this process's maps. */
static int load_vmas(struct reader *r, FILE *maps, struct pt_vma **out, size_t *n)
{
	struct pt_vma *v = NULL, *nv;
	size_t cap = 0;
	char line[4096];

	*n = 0;
	while (fgets(line, sizeof(line), maps)) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 128;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				snprintf(r->err, r->errlen, "out of memory");
				return -1;
			}
			v = nv;
		}
		if (pt_maps_parse_line(line, &v[*n])) {
			snprintf(r->err, r->errlen, "/proc/%d/maps: malformed line: %.80s", r->pid,
				 line);
			free(v);
			return -1;
		}
		/* the x86 vsyscall page lies outside the process's page tables */
		if (strcmp(v[*n].name, "[vsyscall]") && v[*n].start < (1ull << 56))
			(*n)++;
	}
	*out = v;
	return 0;
}

static int walk_maps(struct reader *r, FILE *maps, int scan_ok)
{
	struct page_region *reg = NULL;
	struct pt_vma *v = NULL;
	size_t n = 0, i;
	int rc = load_vmas(r, maps, &v, &n);

	if (!rc) {
		reg = malloc(SCAN_REGIONS * sizeof(*reg));
		if (!reg) {
			snprintf(r->err, r->errlen, "out of memory");
			rc = -1;
		}
	}
	for (i = 0; !rc && i < n; i++)
		rc = do_vma(r, &v[i], reg, &scan_ok);
	r->st->used_scan_ioctl = scan_ok && r->st->vmas;
	free(reg);
	free(v);
	return rc;
}

int pt_pagemap_read(int pid, unsigned flags, struct pt_layout *out, struct pt_pagemap_stats *st,
		    char *err, size_t errlen)
{
	struct reader r = { .pid = pid ? pid : (int)getpid(),
			    .out = out,
			    .st = st,
			    .err = err,
			    .errlen = errlen,
			    .pagemap_fd = -1,
			    .kpf_fd = -1 };
	char path[64];
	FILE *maps;
	int rc;

	memset(st, 0, sizeof(*st));
	reader_setup(&r);
	pt_layout_init(out, r.page_shift);
	out->pid = (uint32_t)r.pid;
	snprintf(path, sizeof(path), "/proc/%d/maps", r.pid);
	maps = pt_sys_fopen(path, "r");
	if (!maps) {
		rc = fail(&r, "cannot read %s: %s", path, errno);
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/%d/pagemap", r.pid);
	r.pagemap_fd = pt_sys_open(path, O_RDONLY);
	if (r.pagemap_fd < 0) {
		rc = fail(&r, "cannot read %s: %s", path,
			  r.pagemap_fd == -1 ? errno : -r.pagemap_fd);
		fclose(maps);
		goto out;
	}
	read_comm(&r);
	rc = walk_maps(&r, maps, !(flags & PT_PAGEMAP_NO_SCAN));
	fclose(maps);
	st->thp_known = st->used_scan_ioctl || r.kpf_fd >= 0;
	if (st->thp_known)
		out->flags |= PT_LAYOUT_THP_KNOWN;
out:
	if (r.pagemap_fd >= 0)
		close(r.pagemap_fd);
	if (r.kpf_fd >= 0)
		close(r.kpf_fd);
	free(r.chunk);
	if (rc)
		pt_layout_free(out);
	return rc;
}

int pt_regime_geometry(const struct pt_regime *r, enum pt_format f, struct pt_geometry *g,
		       char *err, size_t errlen)
{
	static const unsigned fallback[] = { 52, 48 };
	unsigned gs = log2_u64(r->page_size ? r->page_size : 4096);
	size_t i;

	if (!pt_geometry_make(g, f, gs, r->va_bits ? r->va_bits : 48, err, errlen))
		return 0;
	for (i = 0; i < sizeof(fallback) / sizeof(fallback[0]); i++)
		if (fallback[i] < r->va_bits &&
		    !pt_geometry_make(g, f, gs, fallback[i], err, errlen))
			return 0;
	return -1;
}
