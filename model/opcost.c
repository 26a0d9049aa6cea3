// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page-table operation cost model (model/opcost.h, docs/opcost.md).
 * Counts come from model/pgtable on a region laid out as the workloads lay
 * theirs out; the factors say, per component of the operation's time, how
 * much of it moves with the format.
 */
#include <math.h>
#include <stdio.h>

#include "model/opcost.h"
#include "model/pgtable.h"
#include "util/errf.h"

#define OP_GRANULE_SHIFT 12
#define OP_VA_BITS 48
/* Far from every block boundary the geometries have (1 TiB). */
#define OP_REGION_START (1ull << 40)
#define OP_THP_SHIFT 21 /* the D64 PMD block the workloads' THPs are */
#define OP_TABLE_BYTES 4096.0

static const char *const op_names[PT_OP_N] = { "fork", "mprotect", "munmap", "fault" };
static const char *const comp_names[PT_COMP_N] = { "pt_copy", "pt_chprot", "pt_zap",
						   "pt_free", "pt_alloc",  "pt_set",
						   "zero",    "tlb_flush", "kernel_other",
						   "user" };
static const char *const replica_names[PT_REPL_N] = { "copy", "chprot", "zap", "set", "alloc" };

const char *pt_op_name(enum pt_op op)
{
	return op < PT_OP_N ? op_names[op] : "?";
}

const char *pt_comp_name(enum pt_comp c)
{
	return c < PT_COMP_N ? comp_names[c] : "?";
}

const char *pt_replica_name(enum pt_replica r)
{
	return r < PT_REPL_N ? replica_names[r] : "none";
}

enum pt_replica pt_comp_replica(enum pt_comp c)
{
	switch (c) {
	case PT_COMP_COPY:
		return PT_REPL_COPY;
	case PT_COMP_CHPROT:
		return PT_REPL_CHPROT;
	case PT_COMP_ZAP:
		return PT_REPL_ZAP;
	case PT_COMP_SET:
		return PT_REPL_SET;
	case PT_COMP_ALLOC:
	case PT_COMP_FREE:
		return PT_REPL_ALLOC;
	default:
		return PT_REPL_NONE;
	}
}

/* Entries mapping the layout: block entries at every level, leaf PTEs. */
static double mapped_entries(const struct pt_geometry *g, const struct pt_pgtable *t)
{
	double entries = 0, block_bytes = 0;
	unsigned h;

	for (h = 1; h < t->nlevels; h++) {
		entries += (double)t->level[h].blocks;
		block_bytes += (double)t->level[h].blocks * (double)g->level[h].block_bytes;
	}
	return entries +
	       ((double)t->mapped_bytes - block_bytes) / (double)(1ull << g->granule_shift);
}

static double table_pages(const struct pt_pgtable *t)
{
	double n = 0;
	unsigned h;

	for (h = 0; h < t->nlevels; h++)
		n += (double)t->level[h].tables;
	return n;
}

static int counts_one(const struct pt_op_case *c, enum pt_format f, struct pt_op_counts *out,
		      char *err, size_t errlen)
{
	struct pt_geometry g;
	struct pt_layout l;
	struct pt_pgtable t;
	uint64_t len, fault_bytes = c->fault_bytes, block;
	double per_op_divisor = 1, entries, tables;
	int ret;

	if (pt_geometry_make(&g, f, OP_GRANULE_SHIFT, OP_VA_BITS, err, errlen))
		return -1;
	if (!c->region_bytes)
		return pt_errf(err, errlen, "%s of an empty region: nothing to model",
			       pt_op_name(c->op));
	len = (c->region_bytes + (1ull << OP_THP_SHIFT) - 1) >> OP_THP_SHIFT << OP_THP_SHIFT;
	pt_layout_init(&l, OP_GRANULE_SHIFT);
	ret = pt_layout_add(&l, OP_REGION_START, len, c->thp ? PT_MAP_THP : PT_MAP_BASE,
			    c->thp ? OP_THP_SHIFT : 0);
	if (ret)
		pt_errf(err, errlen, "a region of %llu bytes cannot be laid out",
			(unsigned long long)len);
	else
		ret = pt_pgtable_model(&g, &l, true, &t, err, errlen);
	pt_layout_free(&l);
	if (ret)
		return -1;
	entries = mapped_entries(&g, &t);
	tables = table_pages(&t);
	out->levels = g.nlevels;
	out->ops = 1;
	out->zero_bytes = 0;
	switch (c->op) {
	case PT_OP_FORK:
		/* the child's tables are allocated zeroed */
		out->zero_bytes = tables * OP_TABLE_BYTES;
		break;
	case PT_OP_MPROTECT:
		tables = 0;
		break;
	case PT_OP_MUNMAP:
		per_op_divisor = (double)len / (double)(1ull << OP_GRANULE_SHIFT);
		if (!c->frees_tables)
			tables = 0;
		break;
	case PT_OP_FAULT:
		if (!fault_bytes || fault_bytes > len)
			return pt_errf(err, errlen, "fault of %llu bytes in a region of %llu",
				       (unsigned long long)fault_bytes, (unsigned long long)len);
		/* a D64 PMD-block fault is several smaller blocks' faults here */
		block = g.level[1].block_bytes;
		per_op_divisor = (double)len / (double)fault_bytes;
		if (c->thp && fault_bytes > block)
			out->ops = (double)fault_bytes / (double)block;
		out->zero_bytes = (double)len + tables * OP_TABLE_BYTES;
		break;
	default:
		return pt_errf(err, errlen, "unknown operation %d", (int)c->op);
	}
	out->entries = entries / per_op_divisor;
	out->tables = tables / per_op_divisor;
	out->zero_bytes /= per_op_divisor;
	return 0;
}

int pt_op_counts_make(const struct pt_op_case *c, struct pt_op_counts *d64,
		      struct pt_op_counts *d128, char *err, size_t errlen)
{
	if (counts_one(c, PT_D64, d64, err, errlen) || counts_one(c, PT_D128, d128, err, errlen))
		return -1;
	return 0;
}

static double ratio_or_one(double a128, double a64)
{
	return a64 > 0 ? a128 / a64 : 1;
}

static void span(struct pt_comp_factor *f, double v)
{
	if (v < f->lo)
		f->lo = v;
	if (v > f->hi)
		f->hi = v;
}

void pt_comp_factor(enum pt_comp c, double comp_ns, const struct pt_op_counts *d64,
		    const struct pt_op_counts *d128, const struct pt_replica_cost *rep,
		    struct pt_comp_factor *out)
{
	double n, b;

	out->bound_share = -1;
	switch (c) {
	case PT_COMP_COPY:
	case PT_COMP_CHPROT:
	case PT_COMP_ZAP:
	case PT_COMP_SET:
		n = ratio_or_one(d128->entries, d64->entries);
		out->lo = out->mid = out->hi = n;
		if (!rep || !rep->have || !(comp_ns > 0))
			return;
		/* the part of the kernel's loop the replica accounts for */
		out->bound_share = rep->d64 * d64->entries / comp_ns;
		b = out->bound_share < 1 ? out->bound_share : 1;
		out->mid = n * (1 + b * (rep->ratio - 1));
		out->lo = out->hi = out->mid;
		span(out, n * (1 + b * (rep->ratio_lo - 1)));
		span(out, n * (1 + b * (rep->ratio_hi - 1)));
		/* all of the component as descriptor work: the upper end */
		span(out, n * rep->ratio_lo);
		span(out, n * rep->ratio_hi);
		return;
	case PT_COMP_ALLOC:
	case PT_COMP_FREE:
		/* a table is a 4K page either way: the count moves, not its cost */
		n = ratio_or_one(d128->tables, d64->tables);
		out->lo = out->mid = out->hi = n;
		if (rep && rep->have) {
			span(out, n * rep->ratio_lo);
			span(out, n * rep->ratio_hi);
			if (comp_ns > 0)
				out->bound_share = rep->d64 * d64->tables / comp_ns;
		}
		return;
	case PT_COMP_ZERO:
		n = ratio_or_one(d128->zero_bytes, d64->zero_bytes);
		out->lo = out->mid = out->hi = n;
		return;
	case PT_COMP_TLB:
		out->lo = out->mid = out->hi = 1;
		return;
	default:
		/* per operation: a D128 THP fault does half the work of a D64 one */
		n = ratio_or_one(d128->ops, d64->ops);
		out->lo = out->mid = out->hi = n;
		return;
	}
}

void pt_op_predict(const double share[PT_COMP_N], double samples, double t64_ns,
		   const struct pt_op_counts *d64, const struct pt_op_counts *d128,
		   const struct pt_replica_cost rep[PT_REPL_N], struct pt_op_prediction *out)
{
	double lo = 0, mid = 0, hi = 0, m2 = 0;
	int c;

	for (c = 0; c < PT_COMP_N; c++) {
		enum pt_replica r = pt_comp_replica(c);
		struct pt_comp_factor *f = &out->f[c];

		out->share[c] = share[c];
		pt_comp_factor(c, share[c] * t64_ns, d64, d128, r < PT_REPL_N ? &rep[r] : NULL, f);
		lo += share[c] * f->lo;
		mid += share[c] * f->mid;
		hi += share[c] * f->hi;
		m2 += share[c] * f->mid * f->mid;
	}
	/* the shares are multinomial proportions of the profile's samples */
	out->sampling_sd = samples > 0 ? sqrt(fmax(m2 - mid * mid, 0) / samples) : 0;
	out->ratio = mid;
	/* a cost cannot go below nothing, whatever the sampling error */
	out->ratio_lo = fmax(lo - 2 * out->sampling_sd, 0);
	out->ratio_hi = hi + 2 * out->sampling_sd;
}
