// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model against the running kernel: populate dense and sparse base-page
 * layouts in this process and check that the model of the running regime
 * (kernel-counted levels, from this process's pagemap) grows as VmPTE does,
 * within one table page per counted level.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/env.h"
#include "harness/pagemap.h"
#include "harness/procmem.h"
#include "model/pgtable.h"

#define MIB (1ull << 20)

/*
 * AddressSanitizer maps shadow pages (and so page tables) behind every
 * access, including the model's own reads: the growth is not this test's.
 */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

struct sample {
	long vmpte_kb;
	uint64_t model_bytes;
};

static struct pt_regime regime;
static struct pt_geometry running;

static void measure(struct sample *s)
{
	struct pt_pagemap_stats st;
	struct pt_layout l;
	struct pt_pgtable p;
	char err[256];

	assert_int_equal(pt_pagemap_read(0, 0, &l, &st, err, sizeof(err)), 0);
	assert_int_equal(pt_pgtable_model(&running, &l, true, &p, err, sizeof(err)), 0);
	s->model_bytes = p.bytes_kernel;
	pt_layout_free(&l);
	s->vmpte_kb = pt_vmpte_kb();
	assert_true(s->vmpte_kb >= 0);
}

static int setup(void **state)
{
	char err[160];

	(void)state;
	if (pt_vmpte_kb() < 0 || pt_regime_detect(&regime) ||
	    pt_regime_geometry(&regime, regime.format, &running, err, sizeof(err)))
		return -1;
	return 0;
}

/* Map span bytes aligned to align, populate one page per stride. */
static void check_layout(uint64_t span, uint64_t stride, const char *what)
{
	uint64_t page = pt_page_size(), align = 1ull << 30, a, slack;
	struct sample before, after;
	int64_t grew_kernel, grew_model, diff;
	char *raw, *p;
	unsigned h, counted = 0;

	raw = mmap(NULL, span + align, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	assert_true(raw != MAP_FAILED);
	p = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
	madvise(p, span, MADV_NOHUGEPAGE);
	measure(&before);
	for (a = 0; a < span; a += stride)
		p[a] = 1;
	measure(&after);
	grew_kernel = (int64_t)(after.vmpte_kb - before.vmpte_kb) * 1024;
	grew_model = (int64_t)after.model_bytes - (int64_t)before.model_bytes;
	for (h = 0; h < running.nlevels; h++)
		counted += pt_pgtable_kernel_counts(&running, h);
	slack = counted * page;
	diff = grew_model - grew_kernel;
	print_message("%s: VmPTE grew %lld B, model grew %lld B (ratio %.4f); whole process: "
		      "VmPTE %ld kB, model %llu kB (ratio %.4f)\n",
		      what, (long long)grew_kernel, (long long)grew_model,
		      grew_kernel ? (double)grew_model / (double)grew_kernel : 0.0, after.vmpte_kb,
		      (unsigned long long)(after.model_bytes / 1024),
		      (double)after.model_bytes / 1024 / (double)after.vmpte_kb);
	assert_true(grew_kernel > 0);
	assert_true(diff <= (int64_t)slack && -diff <= (int64_t)slack);
	munmap(raw, span + align);
}

static void test_dense_4k(void **state)
{
	(void)state;
	check_layout(256 * MIB, pt_page_size(), "dense 256 MiB");
}

static void test_sparse_4k(void **state)
{
	(void)state;
	/* one page per leaf-table span of the running regime */
	check_layout(1024 * MIB, 1ull << (running.level[1].shift),
		     "sparse 1 GiB span, one page per PMD");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dense_4k),
		cmocka_unit_test(test_sparse_4k),
	};

	if (UNDER_ASAN) {
		fprintf(stderr, "test_model_kernel: skipped under AddressSanitizer\n");
		return 77;
	}
	if (setup(NULL)) {
		fprintf(stderr, "test_model_kernel: VmPTE or the regime is not readable\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
