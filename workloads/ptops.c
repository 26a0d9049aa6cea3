// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptops workload: the kernel's inner page-table loops (fork's copy,
 * mprotect's change, munmap's zap, a fault's set, table allocation and
 * freeing) replicated in user space over a replica table in D64 format and
 * in D128 format covering the same range, each with the primitives the
 * kernel uses for that format (workloads/ptops_prim.h). The D128 / D64
 * ratio of a loop is what scales the kernel's measured time of that loop
 * in a D128 prediction; the replicas leave out the rest of the kernel's
 * work (docs/workloads-notes.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/params.h"
#include "workloads/ptops_ops.h"
#include "workloads/wl_common.h"

#define MIB (1ull << 20)
/* Page frames of the replica's entries: any number the address fields hold. */
#define BASE_PFN 0x100000ull
/*
 * At least this much work per repetition: small ranges run several passes.
 * set, a plain store per entry, takes 4x the entries to time as long.
 */
#define MIN_ENTRIES (1u << 18)
#define MIN_SET_ENTRIES (1u << 20)
#define MIN_TABLES (1u << 13)

struct ptops_case {
	enum ptops_op op;
	enum ptops_fmt fmt;
};
PT_CASE_DATA(struct ptops_case, ptops_case)

static size_t tables_for(enum ptops_fmt f, uint64_t size)
{
	uint64_t span = (uint64_t)ptops_per_table(f) * PTOPS_TABLE_BYTES;

	return (size_t)((size + span - 1) / span);
}

static size_t passes_for(size_t have, size_t want)
{
	return have >= want ? 1 : (want + have - 1) / have;
}

/* One timed pass of an entry loop on tables set up as it expects. */
static int entry_pass(struct pt_rep *r, enum ptops_op op, struct ptops_pt *pt, struct ptops_pt *dst,
		      struct ptops_gather *g, enum ptops_atomics at)
{
	size_t busy = 0;
	char msg[200];
	int bad;

	/* untimed: the state the kernel's loop starts from */
	if (op == PTOPS_SET)
		ptops_pt_clear(pt);
	else
		ptops_pt_fill(pt, BASE_PFN, false);
	if (op == PTOPS_COPY)
		ptops_pt_clear(dst);
	if (op == PTOPS_ZAP)
		ptops_gather_reset(g);
	pt_rep_begin(r);
	if (op == PTOPS_COPY)
		ptops_copy(pt, dst, at);
	else if (op == PTOPS_CHPROT)
		ptops_chprot(pt, at);
	else if (op == PTOPS_ZAP)
		ptops_zap(pt, g, at);
	else
		busy = ptops_set(pt, BASE_PFN, at);
	pt_rep_end(r);
	if (busy)
		return pt_rep_fail(r, "set: %zu slots were not empty", busy);
	if (op == PTOPS_COPY)
		bad = ptops_check_copy(pt, dst, BASE_PFN, false, msg, sizeof(msg));
	else if (op == PTOPS_CHPROT)
		bad = ptops_check_chprot(pt, BASE_PFN, false, msg, sizeof(msg));
	else if (op == PTOPS_ZAP)
		bad = ptops_check_zap(pt, g, msg, sizeof(msg));
	else
		bad = ptops_check_set(pt, BASE_PFN, msg, sizeof(msg));
	return bad ? pt_rep_fail(r, "%s: %s", ptops_op_name(op), msg) : 0;
}

static int run_entries(const struct pt_case *c, struct pt_rep *r, struct ptops_case d,
		       enum ptops_atomics at)
{
	struct ptops_pt pt = { 0 }, dst = { 0 };
	struct ptops_gather g = { 0 };
	size_t n, k, passes;
	int ret = 0;

	if (ptops_pt_map(&pt, d.fmt, tables_for(d.fmt, c->size)) ||
	    (d.op == PTOPS_COPY && ptops_pt_map(&dst, d.fmt, pt.ntables))) {
		ret = pt_rep_fail(r, "mmap of the replica: %s", strerror(errno));
		goto out;
	}
	n = ptops_pt_entries(&pt);
	if (d.op == PTOPS_ZAP && ptops_gather_init(&g, BASE_PFN, n)) {
		ret = pt_rep_fail(r, "gather of %zu pages: %s", n, strerror(errno));
		goto out;
	}
	ptops_pt_link(&pt);
	if (d.op == PTOPS_COPY)
		ptops_pt_link(&dst);
	passes = passes_for(n, d.op == PTOPS_SET ? MIN_SET_ENTRIES : MIN_ENTRIES);
	for (k = 0; k < passes && !ret; k++)
		ret = entry_pass(r, d.op, &pt, &dst, &g, at);
	if (!ret)
		pt_rep_emit_per_op(r, (double)n * (double)passes, "entry");
out:
	ptops_gather_free(&g);
	ptops_pt_unmap(&dst);
	ptops_pt_unmap(&pt);
	return ret;
}

/*
 * Tables taken, zeroed and installed, then cleared and returned, in one
 * timed region (the kernel does the two at different times; the cost per
 * table is their sum). Every pool page held old data before the pass, so
 * all of them zero after it means each was zeroed.
 */
static int run_alloc(const struct pt_case *c, struct pt_rep *r, struct ptops_case d)
{
	struct ptops_pt pt = { 0 };
	struct ptops_pool pool = { 0 };
	size_t k, passes, got, freed;
	char msg[200];
	int ret = 0;

	if (ptops_pt_map(&pt, d.fmt, tables_for(d.fmt, c->size)) || ptops_pool_init(&pool, &pt)) {
		ret = pt_rep_fail(r, "the replica's table pool: %s", strerror(errno));
		goto out;
	}
	passes = passes_for(pt.ntables, MIN_TABLES);
	for (k = 0; k < passes && !ret; k++) {
		ptops_pool_dirty(&pool); /* untimed: old data the zeroing must clear */
		pt_rep_begin(r);
		got = ptops_alloc(&pool, &pt);
		freed = ptops_free(&pool, &pt);
		pt_rep_end(r);
		if (got != pt.ntables || freed != pt.ntables)
			ret = pt_rep_fail(r, "alloc: %zu of %zu tables installed, %zu freed", got,
					  pt.ntables, freed);
		else if (ptops_check_freed(&pool, &pt, msg, sizeof(msg)))
			ret = pt_rep_fail(r, "alloc: %s", msg);
	}
	if (!ret)
		pt_rep_emit_per_op(r, (double)pt.ntables * (double)passes, "table");
out:
	ptops_pool_free(&pool);
	ptops_pt_unmap(&pt);
	return ret;
}

static int ptops_run(const struct pt_case *c, struct pt_rep *r)
{
	struct ptops_case d = ptops_case_get(c);
	const struct ptops_caps *caps = ptops_caps();

	if (d.fmt == PTOPS_D128 && !caps->d128)
		return pt_rep_skip(r, "%s", caps->d128_why);
	pt_rep_note(r, "%s", d.fmt == PTOPS_D64 ? caps->d64_desc : caps->d128_desc);
	if (d.op == PTOPS_ALLOC)
		return run_alloc(c, r, d);
	return run_entries(c, r, d, caps->at);
}

static int add_case(struct pt_case *out, size_t max, size_t *n, enum ptops_op op, enum ptops_fmt f,
		    uint64_t size)
{
	struct pt_case *c = wl_case_next(out, max, n, PT_BACK_4K, size);
	struct ptops_case d = { op, f };
	uint64_t entries = size / PTOPS_TABLE_BYTES;
	uint64_t tbytes = tables_for(f, size) * (uint64_t)(PTOPS_TABLE_BYTES + 16);
	struct pt_params p;
	char sz[16];

	if (!c)
		return 0;
	pt_size_name(size, sz, sizeof(sz));
	snprintf(c->name, sizeof(c->name), "%s-%s-%s", ptops_op_name(op), ptops_fmt_name(f), sz);
	if (op == PTOPS_ALLOC)
		c->primary_metric = "ns_per_table";
	/* the tables (twice for copy), the gather's counters, slack */
	c->mem_bytes = tbytes * (op == PTOPS_COPY ? 2 : 1) + entries + MIB;
	ptops_case_set(c, &d);
	pt_params_init(&p);
	pt_params_str(&p, "format", ptops_fmt_name(f));
	pt_params_str(&p, "op", ptops_op_name(op));
	pt_params_size(&p, "size", size);
	return pt_params_render(&p, c->params, sizeof(c->params));
}

static int ptops_cases(const struct pt_suite_opts *o, struct pt_case *out, size_t max)
{
	static const uint64_t one[] = { 256 * MIB }, full[] = { 4 * MIB, 256 * MIB, 1024 * MIB };
	const uint64_t *sizes = o->suite == PT_SUITE_FULL ? full : one;
	size_t nsizes = o->suite == PT_SUITE_FULL ? 3 : 1, n = 0, s;
	int op, f;

	for (s = 0; s < nsizes; s++)
		for (op = 0; op < PTOPS_NOPS; op++)
			for (f = 0; f < PTOPS_NFMT; f++)
				if (add_case(out, max, &n, (enum ptops_op)op, (enum ptops_fmt)f,
					     sizes[s]))
					return -1;
	return (int)n;
}

const struct pt_workload pt_wl_ptops = {
	.name = "ptops",
	.primary_metric = "ns_per_entry",
	.control = "cpu-loop",
	.summary = "user-space replicas of the kernel's page-table loops, D64 vs D128 entries: "
		   "ns per entry",
	.help = "cases: <op>-<d64|d128>-<S>; S: the virtual range the replica table covers,\n"
		"  N = S/4K entries in S/2M D64 tables (512 entries) or S/1M D128 ones (256)\n"
		"  quick, ci: 256M; full: 4M, 256M, 1G (at most 10 MiB of tables)\n"
		"  copy: fork's copy_pte_range (read; a writable entry write-protected in the\n"
		"    source by CAS; the destination written)\n"
		"  chprot: mprotect's change_pte_range to read-only (exchange with 0, new\n"
		"    permissions, store)\n"
		"  zap: munmap's zap_pte_range (read, exchange with 0, the page gathered into\n"
		"    a batch of 510, full batches drained)\n"
		"  set: a fault's pte_none read and set_pte_at\n"
		"  alloc: pte_alloc and free_pgtables (a pool page taken, zeroed, installed in\n"
		"    a parent entry; the entry cleared, the page returned)\n"
		"primitives: d64 64-bit loads, stores, exchange, CAS; d128 128-bit\n"
		"  single-copy-atomic loads, stores, exchange, CAS (arm64 ldp/stp, casp, swpp\n"
		"  with LSE128; x86-64 stand-in movdqa, lock cmpxchg16b); the case's note in\n"
		"  meta.json says which ran; d128 skips where no 128-bit CAS exists\n"
		"verified after every pass: copy: the source write-protected, the destination\n"
		"  the source made old; chprot: every entry read-only, same address; zap:\n"
		"  every entry empty, every page gathered once; set: every entry the new one;\n"
		"  alloc: every table zeroed, each page returned to the pool once\n"
		"a repetition: passes over the replica until 2^18 entries (set: 2^20; alloc:\n"
		"  2^13 tables)\n"
		"metrics: ns_per_entry (alloc: ns_per_table), ticks_per_*, <event>_per_*",
	.cases = ptops_cases,
	.run = ptops_run,
};
