// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ptops replicas: the 64- and 128-bit primitives (an exchange returns
 * what was there, a CAS that does not match changes nothing), the
 * descriptor bits against the FEAT_D128 series' layout, each loop in both
 * formats on small tables with its end state, each check failing on a
 * table one entry off, and every 4M case of the workload run through.
 * Also run under qemu-aarch64 (CASP, SWP, LDP/STP; SWPP only where the CPU
 * has FEAT_LSE128).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/ptops_desc.h"
#include "workloads/ptops_ops.h"
#include "workloads/workload.h"

#define BASE 0x1234ull
#define NTABLES 3

/* The atomics variants this CPU can run, the base one first. */
static size_t variants(enum ptops_atomics *v)
{
	size_t n = 0;

	v[n++] = PTOPS_AT_BASE;
#if defined(__aarch64__)
	if (ptops_caps()->at >= PTOPS_AT_LSE)
		v[n++] = PTOPS_AT_LSE;
	if (ptops_caps()->at == PTOPS_AT_LSE128)
		v[n++] = PTOPS_AT_LSE128;
#endif
	return n;
}

static void test_d64_primitives(void **state)
{
	enum ptops_atomics v[3];
	size_t i, n = variants(v);

	(void)state;
	for (i = 0; i < n; i++) {
		uint64_t x = 0x1111, seen;

		d64_set(&x, 0xa0a0);
		assert_int_equal(d64_get(&x), 0xa0a0);
		assert_int_equal(d64_xchg(&x, 0xb0b0, v[i]), 0xa0a0);
		assert_int_equal(x, 0xb0b0);
		seen = d64_cas(&x, 0xdead, 0xc0c0, v[i]); /* a mismatch */
		assert_int_equal(seen, 0xb0b0);
		assert_int_equal(x, 0xb0b0);
		seen = d64_cas(&x, 0xb0b0, 0xc0c0, v[i]);
		assert_int_equal(seen, 0xb0b0);
		assert_int_equal(x, 0xc0c0);
	}
}

static void test_d128_primitives(void **state)
{
	const struct pt128 a = { 0x1111000011110000ull, 0x2222 };
	const struct pt128 b = { 0x3333, 0x4444000044440000ull };
	const struct pt128 c = { 0x5555, 0x6666 };
	enum ptops_atomics v[3];
	size_t i, n = variants(v);

	(void)state;
	if (!ptops_caps()->d128)
		skip();
	for (i = 0; i < n; i++) {
		struct pt128 x = { 0, 0 }, seen;

		if (v[i] == PTOPS_AT_BASE && ptops_caps()->at != PTOPS_AT_BASE)
			continue; /* arm64: D128 needs CASP */
		d128_set(&x, a);
		assert_true(x.lo == a.lo && x.hi == a.hi);
		assert_true(pt128_eq(d128_get(&x), a));
		seen = d128_xchg(&x, b, v[i]);
		assert_true(pt128_eq(seen, a));
		assert_true(pt128_eq(x, b));
		/* a mismatch in either half changes nothing and returns what is there */
		seen = d128_cas(&x, (struct pt128){ b.lo, b.hi ^ 1 }, c, v[i]);
		assert_true(pt128_eq(seen, b));
		assert_true(pt128_eq(x, b));
		seen = d128_cas(&x, (struct pt128){ b.lo ^ 1, b.hi }, c, v[i]);
		assert_true(pt128_eq(seen, b));
		assert_true(pt128_eq(x, b));
		seen = d128_cas(&x, b, c, v[i]);
		assert_true(pt128_eq(seen, b));
		assert_true(pt128_eq(x, c));
	}
}

/* Bit positions as the FEAT_D128 series and pgtable-hwdef.h number them. */
static void test_descriptor_bits(void **state)
{
	struct pt128 e = d128_mk(BASE, true), w;
	uint64_t d = d64_mk(BASE, true);

	(void)state;
	assert_true(e.hi & (1ull << (116 - 64))); /* PTE_WRITE (DBM) */
	assert_true(e.hi & (1ull << (115 - 64))); /* PTE_USER */
	assert_true(e.hi & (1ull << (91 - 64))); /* PTE_DIRTY */
	assert_true(e.lo & (1ull << 10)); /* PTE_AF */
	assert_false(e.lo & (1ull << 7)); /* nDirty clear: writable, dirty */
	assert_int_equal(d128_pfn(e), BASE);
	w = d128_wrprotect(e);
	assert_false(w.hi & (1ull << (116 - 64)));
	assert_true(w.lo & (1ull << 7));
	assert_true(w.hi & (1ull << (91 - 64)));
	assert_int_equal(d128_pfn(w), BASE);
	assert_false(d128_mkold(e).lo & (1ull << 10));

	assert_true(d & (1ull << 51));
	assert_true(d & (1ull << 55));
	assert_false(d & (1ull << 7));
	assert_int_equal(d64_pfn(d), BASE);
	assert_false(d64_wrprotect(d) & (1ull << 51));
	assert_true(d64_wrprotect(d) & (1ull << 7));
	assert_ptr_equal(d64_table_page(d64_table((void *)0x7f0000123000)), (void *)0x7f0000123000);
	assert_ptr_equal(d128_table_page(d128_table((void *)0x7f0000123000)),
			 (void *)0x7f0000123000);
}

static struct pt128 at(const struct ptops_pt *pt, size_t i)
{
	if (pt->fmt == PTOPS_D64)
		return (struct pt128){ ((uint64_t *)pt->pages)[i], 0 };
	return ((struct pt128 *)pt->pages)[i];
}

static void put(struct ptops_pt *pt, size_t i, struct pt128 e)
{
	if (pt->fmt == PTOPS_D64)
		((uint64_t *)pt->pages)[i] = e.lo;
	else
		((struct pt128 *)pt->pages)[i] = e;
}

static bool writable(enum ptops_fmt f, struct pt128 e)
{
	return f == PTOPS_D64 ? d64_write(e.lo) : d128_write(e);
}

static uint64_t pfn(enum ptops_fmt f, struct pt128 e)
{
	return f == PTOPS_D64 ? d64_pfn(e.lo) : d128_pfn(e);
}

static void mapped(struct ptops_pt *pt, enum ptops_fmt f)
{
	assert_int_equal(ptops_pt_map(pt, f, NTABLES), 0);
	assert_int_equal(ptops_pt_entries(pt), NTABLES * (f == PTOPS_D64 ? 512 : 256));
	ptops_pt_link(pt);
}

/* A writable or read-only entry of format f for page pfn. */
static struct pt128 mk(enum ptops_fmt f, uint64_t pfn, bool writable)
{
	return f == PTOPS_D64 ? (struct pt128){ d64_mk(pfn, writable), 0 } : d128_mk(pfn, writable);
}

/* fn once per format this CPU has: D64, and D128 where it has FEAT_D128. */
static void each_format(void (*fn)(enum ptops_fmt f))
{
	enum ptops_fmt f;

	for (f = PTOPS_D64; f < PTOPS_NFMT; f++)
		if (f != PTOPS_D128 || ptops_caps()->d128)
			fn(f);
}

static void copy_one(enum ptops_fmt f)
{
	struct ptops_pt src, dst;
	char msg[200];
	size_t i;

	mapped(&src, f);
	mapped(&dst, f);
	ptops_pt_fill(&src, BASE, true);
	ptops_copy(&src, &dst, ptops_caps()->at);
	assert_int_equal(ptops_check_copy(&src, &dst, BASE, true, msg, sizeof(msg)), 0);
	for (i = 0; i < ptops_pt_entries(&src); i++) {
		assert_false(writable(f, at(&src, i)));
		assert_false(writable(f, at(&dst, i)));
		assert_int_equal(pfn(f, at(&dst, i)), BASE + i);
		assert_false(at(&dst, i).lo & (1ull << 10)); /* old */
	}
	/* a read-only entry (i % 3 == 0) is copied unchanged but old */
	assert_true(at(&src, 3).lo & (1ull << 10));
	/* a destination entry left young is caught */
	put(&dst, 5, at(&src, 5));
	assert_int_equal(ptops_check_copy(&src, &dst, BASE, true, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "destination entry 5"));
	/* a writable source entry left writable is caught */
	ptops_pt_fill(&src, BASE, true);
	assert_int_equal(ptops_check_copy(&src, &dst, BASE, true, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "source entry 1"));
	ptops_pt_unmap(&src);
	ptops_pt_unmap(&dst);
}

static void test_copy(void **state)
{
	(void)state;
	each_format(copy_one);
}

static void chprot_one(enum ptops_fmt f)
{
	struct ptops_pt pt;
	char msg[200];
	size_t i;

	mapped(&pt, f);
	ptops_pt_fill(&pt, BASE, true);
	ptops_chprot(&pt, ptops_caps()->at);
	assert_int_equal(ptops_check_chprot(&pt, BASE, true, msg, sizeof(msg)), 0);
	for (i = 0; i < ptops_pt_entries(&pt); i++) {
		assert_false(writable(f, at(&pt, i)));
		assert_true(at(&pt, i).lo & (1ull << 7));
		assert_int_equal(pfn(f, at(&pt, i)), BASE + i);
	}
	put(&pt, 700, mk(f, BASE + 700, true));
	assert_int_equal(ptops_check_chprot(&pt, BASE, true, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "entry 700"));
	ptops_pt_unmap(&pt);
}

static void test_chprot(void **state)
{
	(void)state;
	each_format(chprot_one);
}

static void zap_one(enum ptops_fmt f)
{
	struct ptops_gather g;
	struct ptops_pt pt;
	char msg[200];
	size_t i, n;

	mapped(&pt, f);
	n = ptops_pt_entries(&pt);
	assert_int_equal(ptops_gather_init(&g, BASE, n), 0);
	ptops_pt_fill(&pt, BASE, true);
	ptops_zap(&pt, &g, ptops_caps()->at);
	assert_int_equal(ptops_check_zap(&pt, &g, msg, sizeof(msg)), 0);
	for (i = 0; i < n; i++) {
		assert_true(pt128_eq(at(&pt, i), (struct pt128){ 0, 0 }));
		assert_int_equal(g.seen[i], 1);
	}
	assert_int_equal(g.drains, (n + PTOPS_BATCH - 1) / PTOPS_BATCH);
	/* a page freed twice, and an entry left behind, are caught */
	g.seen[9] = 2;
	assert_int_equal(ptops_check_zap(&pt, &g, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "page 9"));
	g.seen[9] = 1;
	put(&pt, 11, f == PTOPS_D64 ? (struct pt128){ 1, 0 } : (struct pt128){ 0, 1 });
	assert_int_equal(ptops_check_zap(&pt, &g, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "entry 11"));
	ptops_gather_free(&g);
	ptops_pt_unmap(&pt);
}

static void test_zap(void **state)
{
	(void)state;
	each_format(zap_one);
}

static void set_one(enum ptops_fmt f)
{
	struct ptops_pt pt;
	char msg[200];
	size_t i;

	mapped(&pt, f);
	assert_int_equal(ptops_set(&pt, BASE, ptops_caps()->at), 0);
	assert_int_equal(ptops_check_set(&pt, BASE, msg, sizeof(msg)), 0);
	for (i = 0; i < ptops_pt_entries(&pt); i++) {
		assert_true(writable(f, at(&pt, i)));
		assert_int_equal(pfn(f, at(&pt, i)), BASE + i);
	}
	/* a slot already taken is left alone and counted */
	ptops_pt_clear(&pt);
	put(&pt, 42, mk(f, 7, false));
	assert_int_equal(ptops_set(&pt, BASE, ptops_caps()->at), 1);
	assert_int_equal(ptops_check_set(&pt, BASE, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "entry 42"));
	ptops_pt_unmap(&pt);
}

static void test_set(void **state)
{
	(void)state;
	each_format(set_one);
}

/* Each parent entry a valid table entry on a zeroed page of its own. */
static void check_installed(const struct ptops_pt *pt, enum ptops_fmt f)
{
	size_t t, b;

	for (t = 0; t < NTABLES; t++) {
		struct pt128 e = f == PTOPS_D64 ? (struct pt128){ ((uint64_t *)pt->parent)[t], 0 }
						: ((struct pt128 *)pt->parent)[t];
		unsigned char *p = f == PTOPS_D64 ? d64_table_page(e.lo) : d128_table_page(e);

		assert_true(e.lo & 1);
		assert_ptr_equal(p, pt->pages + t * PTOPS_TABLE_BYTES);
		for (b = 0; b < PTOPS_TABLE_BYTES; b++)
			assert_int_equal(p[b], 0);
	}
}

static void alloc_one(enum ptops_fmt f)
{
	struct ptops_pool pool;
	struct ptops_pt pt;
	unsigned char *page;
	char msg[200];

	assert_int_equal(ptops_pt_map(&pt, f, NTABLES), 0);
	assert_int_equal(ptops_pool_init(&pool, &pt), 0);
	ptops_pool_dirty(&pool);
	assert_int_equal(ptops_alloc(&pool, &pt), NTABLES);
	assert_int_equal(pool.nfree, 0);
	check_installed(&pt, f);
	/* installed entries are not installed again */
	assert_int_equal(ptops_alloc(&pool, &pt), 0);
	assert_int_equal(ptops_free(&pool, &pt), NTABLES);
	assert_int_equal(ptops_check_freed(&pool, &pt, msg, sizeof(msg)), 0);
	/* a page not zeroed is caught */
	pt.pages[PTOPS_TABLE_BYTES + 17] = 1;
	assert_int_equal(ptops_check_freed(&pool, &pt, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "table page 1 was not zeroed"));
	pt.pages[PTOPS_TABLE_BYTES + 17] = 0;
	/* a page that did not come back is caught */
	page = pool.free[--pool.nfree];
	assert_int_equal(ptops_check_freed(&pool, &pt, msg, sizeof(msg)), -1);
	pool.free[pool.nfree++] = page;
	/* a parent entry left installed is caught */
	assert_int_equal(ptops_alloc(&pool, &pt), NTABLES);
	assert_int_equal(ptops_check_freed(&pool, &pt, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "parent entry 0"));
	assert_int_equal(ptops_free(&pool, &pt), NTABLES);
	/* an empty pool installs nothing */
	pool.nfree = 0;
	assert_int_equal(ptops_alloc(&pool, &pt), 0);
	ptops_pool_free(&pool);
	ptops_pt_unmap(&pt);
}

static void test_alloc(void **state)
{
	(void)state;
	each_format(alloc_one);
}

static void test_cases(void **state)
{
	const struct pt_workload *w = pt_workload_find("ptops");
	struct pt_suite_opts o = { .suite = PT_SUITE_QUICK, .max_mem = 1ull << 30 };
	struct pt_case cs[64];
	int n, i, alloc = 0;

	(void)state;
	assert_non_null(w);
	n = w->cases(&o, cs, 64);
	assert_int_equal(n, 10);
	assert_string_equal(cs[0].name, "copy-d64-256M");
	assert_string_equal(cs[1].name, "copy-d128-256M");
	assert_string_equal(cs[1].params, "format=d128;op=copy;size=268435456");
	for (i = 0; i < n; i++) {
		if (!strncmp(cs[i].name, "alloc-", 6)) {
			alloc++;
			assert_string_equal(pt_case_primary(w, &cs[i]), "ns_per_table");
		} else {
			assert_string_equal(pt_case_primary(w, &cs[i]), "ns_per_entry");
		}
	}
	assert_int_equal(alloc, 2);
	o.suite = PT_SUITE_FULL;
	assert_int_equal(w->cases(&o, cs, 64), 30);
	assert_string_equal(cs[29].name, "alloc-d128-1G");
}

static void keep_note(void *ctx, const char *text)
{
	snprintf(ctx, 256, "%s", text);
}

/* Every 4M case through the workload's run: it passes its own checks. */
static void test_run(void **state)
{
	const struct pt_workload *w = pt_workload_find("ptops");
	struct pt_suite_opts o = { .suite = PT_SUITE_FULL, .max_mem = 1ull << 30 };
	struct pt_case cs[64];
	int n, i, ran = 0;

	(void)state;
	n = w->cases(&o, cs, 64);
	for (i = 0; i < n; i++) {
		struct pt_rep r = { 0 };
		char note[256] = "";
		bool d128 = strstr(cs[i].name, "-d128-");
		int ret;

		if (cs[i].size != 4ull << 20)
			continue;
		r.c = &cs[i];
		r.workload = "ptops";
		r.on_note = keep_note;
		r.note_ctx = note;
		ret = w->run(&cs[i], &r);
		if (d128 && !ptops_caps()->d128) {
			assert_int_equal(ret, 1);
			continue;
		}
		if (ret)
			fail_msg("%s: %s", cs[i].name, r.msg);
		assert_true(r.elapsed_ns > 0);
		assert_non_null(strstr(note, d128 ? "d128: " : "d64: "));
		ran++;
	}
	assert_true(ran >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_d64_primitives),
		cmocka_unit_test(test_d128_primitives),
		cmocka_unit_test(test_descriptor_bits),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_chprot),
		cmocka_unit_test(test_zap),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_alloc),
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
