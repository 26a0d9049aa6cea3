// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/procmem.h"
#include "util/sysfs.h"

#define PM_PRESENT (1ull << 63)
#define PM_PFN_MASK ((1ull << 55) - 1)
#define KPF_THP 22

long pt_vmpte_kb(void)
{
	return pt_sys_kv_kb("/proc/self/status", "VmPTE");
}

long pt_meminfo_kb(const char *key)
{
	return pt_sys_kv_kb("/proc/meminfo", key);
}

uint64_t pt_mem_available(void)
{
	long kb = pt_meminfo_kb("MemAvailable");

	return kb < 0 ? 0 : (uint64_t)kb << 10;
}

uint64_t pt_page_size(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

uint64_t pt_pmd_size(void)
{
	uint64_t v;

	if (!pt_sys_read_u64("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", &v) && v)
		return v;
	return pt_page_size() / 8 * pt_page_size();
}

static void smaps_add_field(struct pt_smaps_info *s, const char *line)
{
	unsigned long long kb;
	char key[64];

	if (sscanf(line, "%63[^:]: %llu kB", key, &kb) != 2)
		return;
	if (!strcmp(key, "Rss"))
		s->rss_bytes += kb << 10;
	else if (!strcmp(key, "AnonHugePages"))
		s->anon_huge_bytes += kb << 10;
	else if (!strcmp(key, "FilePmdMapped") || !strcmp(key, "ShmemPmdMapped"))
		s->file_pmd_bytes += kb << 10;
}

int pt_smaps_range(const void *addr, size_t len, struct pt_smaps_info *s)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	char line[512];
	bool inside = false;
	FILE *f = pt_sys_fopen("/proc/self/smaps", "r");

	memset(s, 0, sizeof(*s));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uintmax_t start, end;

		if (sscanf(line, "%jx-%jx ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			inside = start < hi && end > lo;
			s->vmas += inside;
			continue;
		}
		if (inside)
			smaps_add_field(s, line);
	}
	fclose(f);
	return 0;
}

static int kpageflags_thp(int kfd, uint64_t pfn)
{
	uint64_t flags;

	if (pread(kfd, &flags, sizeof(flags), (off_t)(pfn * sizeof(flags))) != sizeof(flags))
		return -1;
	return (flags >> KPF_THP) & 1;
}

int pt_pagemap_range(const void *addr, size_t len, struct pt_pagemap_info *p)
{
	uint64_t page = pt_page_size(), buf[512], i, first = (uintptr_t)addr / page;
	int fd, kfd;

	memset(p, 0, sizeof(*p));
	p->pages = (len + page - 1) / page;
	fd = pt_sys_open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return -errno;
	kfd = pt_sys_open("/proc/kpageflags", O_RDONLY);
	p->thp_known = kfd >= 0;
	for (i = 0; i < p->pages;) {
		uint64_t n = p->pages - i < 512 ? p->pages - i : 512, k;
		ssize_t got = pread(fd, buf, n * 8, (off_t)((first + i) * 8));

		if (got <= 0)
			break;
		n = (uint64_t)got / 8;
		for (k = 0; k < n; k++) {
			uint64_t pfn = buf[k] & PM_PFN_MASK;

			if (!(buf[k] & PM_PRESENT))
				continue;
			p->present++;
			/* PFNs read as 0 without CAP_SYS_ADMIN: THP unknown then. */
			if (kfd >= 0 && pfn && kpageflags_thp(kfd, pfn) == 1)
				p->thp_pages++;
			else if (kfd >= 0 && !pfn)
				p->thp_known = false;
		}
		i += n;
	}
	if (kfd >= 0)
		close(kfd);
	close(fd);
	return 0;
}

int pt_memory_guard(uint64_t bytes, double frac, char *msg, size_t len)
{
	uint64_t avail = pt_mem_available();

	if (!avail) {
		snprintf(msg, len, "MemAvailable could not be read");
		return -1;
	}
	if ((double)bytes <= frac * (double)avail)
		return 0;
	snprintf(msg, len, "needs %.1f MiB, more than %.0f%% of MemAvailable (%.1f MiB)",
		 (double)bytes / 1048576.0, frac * 100, (double)avail / 1048576.0);
	return -1;
}

void *pt_map_anon(size_t len, size_t align, enum pt_backing b)
{
	size_t total = len + (align > 1 ? align : 0);
	uintptr_t start, aligned;
	void *raw;

	raw = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	start = (uintptr_t)raw;
	aligned = align > 1 ? (start + align - 1) / align * align : start;
	/* Give back the unaligned head and tail. */
	if (aligned > start)
		munmap(raw, aligned - start);
	if (start + total > aligned + len)
		munmap((void *)(aligned + len), start + total - (aligned + len));
	if (b == PT_BACK_4K)
		madvise((void *)aligned, len, MADV_NOHUGEPAGE);
	else if (b == PT_BACK_THP || b == PT_BACK_MTHP)
		madvise((void *)aligned, len, MADV_HUGEPAGE);
	return (void *)aligned;
}

void pt_unmap(void *addr, size_t len)
{
	if (addr)
		munmap(addr, len);
}

void pt_touch_pages(void *addr, size_t len, size_t page)
{
	volatile char *p = addr;
	size_t off;

	for (off = 0; off < len; off += page)
		p[off] = 1;
}
