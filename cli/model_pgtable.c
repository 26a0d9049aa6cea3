// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model pgtable: the page tables a process's populated memory
 * needs under D64 and D128 (model/pgtable.c), for a live process, a
 * snapshot, or (--bench) a sparse region of this process, timed.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/model.h"
#include "harness/env.h"
#include "harness/pagemap.h"
#include "harness/procmem.h"
#include "model/geometry.h"
#include "model/pgtable.h"
#include "model/snapshot.h"
#include "util/fileio.h"
#include "util/parse.h"
#include "util/sysfs.h"

#define MAX_SNAPSHOT_BYTES (1ull << 32)
#define PID_MAX 0x3fffffff /* the kernel's PID_MAX_LIMIT */

struct pgt_opts {
	int pid; /* -1: none */
	const char *snapshot;
	unsigned granule;
	int csv, deposit, bench;
	uint64_t bench_size, bench_stride;
};

/* The layout's VA, or the largest the format allows at this granule. */
static int pgt_geometry(enum pt_format f, unsigned gs, unsigned va, struct pt_geometry *g)
{
	static const unsigned tries[] = { 0, 52, 48 };
	char err[160];
	size_t i;

	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		unsigned v = tries[i] ? tries[i] : va;

		if (v <= va && !pt_geometry_make(g, f, gs, v, err, sizeof(err)))
			return 0;
	}
	return -1;
}

static void pgt_print_levels(const struct pt_geometry *g64, const struct pt_pgtable *p64,
			     const struct pt_geometry *g128, const struct pt_pgtable *p128)
{
	unsigned n = p64->nlevels > p128->nlevels ? p64->nlevels : p128->nlevels, h;

	printf("  %-6s %10s %14s %9s  | %-6s %10s %14s %9s\n", "D64", "tables", "bytes", "blocks",
	       "D128", "tables", "bytes", "blocks");
	for (h = n; h-- > 0;) {
		char a[64] = "", b[64] = "";

		if (h < p64->nlevels)
			snprintf(a, sizeof(a), "%-4s%s %10" PRIu64 " %14" PRIu64 " %9" PRIu64,
				 g64->level[h].name, p64->level[h].kernel_counted ? "* " : "  ",
				 p64->level[h].tables, p64->level[h].bytes, p64->level[h].blocks);
		if (h < p128->nlevels)
			snprintf(b, sizeof(b), "%-4s%s %10" PRIu64 " %14" PRIu64 " %9" PRIu64,
				 g128->level[h].name, p128->level[h].kernel_counted ? "* " : "  ",
				 p128->level[h].tables, p128->level[h].bytes,
				 p128->level[h].blocks);
		printf("  %-43s | %s\n", a, b);
	}
	printf("  all levels: D64 %" PRIu64 " B, D128 %" PRIu64 " B, D128/D64 %.3f\n",
	       p64->bytes_all, p128->bytes_all,
	       p64->bytes_all ? (double)p128->bytes_all / (double)p64->bytes_all : 0.0);
	printf("  kernel-counted (*, VmPTE levels): D64 %" PRIu64 " B, D128 %" PRIu64
	       " B, D128/D64 %.3f\n",
	       p64->bytes_kernel, p128->bytes_kernel,
	       p64->bytes_kernel ? (double)p128->bytes_kernel / (double)p64->bytes_kernel : 0.0);
}

static void pgt_csv(const char *what, const struct pt_geometry *g, const struct pt_pgtable *p)
{
	unsigned h;

	for (h = 0; h < p->nlevels; h++)
		printf("%s,%u,%u,%s,%u,%u,%u,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n", what,
		       1u << (g->granule_shift - 10), g->va_bits, pt_format_name(g->format),
		       g->ttbr_skl, g->table_skl, h, g->level[h].name, p->level[h].tables,
		       p->level[h].bytes, p->level[h].blocks, p->level[h].kernel_counted);
	printf("%s,%u,%u,%s,%u,%u,,all,,%" PRIu64 ",,\n", what, 1u << (g->granule_shift - 10),
	       g->va_bits, pt_format_name(g->format), g->ttbr_skl, g->table_skl, p->bytes_all);
	if (p->kernel_comparable)
		printf("%s,%u,%u,%s,%u,%u,,kernel,,%" PRIu64 ",,\n", what,
		       1u << (g->granule_shift - 10), g->va_bits, pt_format_name(g->format),
		       g->ttbr_skl, g->table_skl, p->bytes_kernel);
}

/* D128 skip-level what-ifs at one granule, against the D64 bytes. */
static void pgt_skl(const struct pgt_opts *o, const struct pt_geometry *base,
		    const struct pt_layout *l, uint64_t d64_all)
{
	static const unsigned skl[][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 } };
	size_t i;

	for (i = 0; i < sizeof(skl) / sizeof(skl[0]); i++) {
		struct pt_geometry g = *base;
		struct pt_pgtable p;
		char err[160];

		if (pt_geometry_apply_skl(&g, skl[i][0], skl[i][1], err, sizeof(err)) ||
		    pt_pgtable_model(&g, l, o->deposit, &p, err, sizeof(err)))
			continue;
		if (o->csv) {
			pgt_csv("skl", &g, &p);
			continue;
		}
		printf("  what-if D128 TTBR.SKL=%u table SKL=%u: %u levels, %" PRIu64
		       " B, vs D64 %.3f\n",
		       skl[i][0], skl[i][1], g.nlevels, p.bytes_all,
		       d64_all ? (double)p.bytes_all / (double)d64_all : 0.0);
	}
}

static int pgt_granule(const struct pgt_opts *o, const struct pt_layout *l, unsigned gs)
{
	struct pt_geometry g64, g128;
	struct pt_pgtable p64, p128;
	unsigned va = l->va_bits ? l->va_bits : 48;
	char err[160];

	if (pgt_geometry(PT_D64, gs, va, &g64) || pgt_geometry(PT_D128, gs, va, &g128)) {
		fprintf(stderr, "ptbench model pgtable: no geometry for VA %u\n", va);
		return PT_EXIT_USAGE;
	}
	if (pt_pgtable_model(&g64, l, o->deposit, &p64, err, sizeof(err)) ||
	    pt_pgtable_model(&g128, l, o->deposit, &p128, err, sizeof(err))) {
		fprintf(stderr, "ptbench model pgtable: %s\n", err);
		return PT_EXIT_USAGE;
	}
	if (o->csv) {
		pgt_csv("model", &g64, &p64);
		pgt_csv("model", &g128, &p128);
	} else {
		printf("%uK granule (D64 VA %u, D128 VA %u)%s\n", 1u << (gs - 10), g64.va_bits,
		       g128.va_bits,
		       p64.mapped_bytes > pt_layout_bytes(l) ? ", populated memory rounded out to "
							       "the granule"
							     : "");
		pgt_print_levels(&g64, &p64, &g128, &p128);
	}
	pgt_skl(o, &g128, l, p64.bytes_all);
	if (!o->csv)
		printf("\n");
	return PT_EXIT_OK;
}

/* The kernel's VmPTE of the process next to the model of this kernel. */
static void pgt_kernel_line(const struct pgt_opts *o, const struct pt_layout *l)
{
	struct pt_regime rg;
	struct pt_geometry g;
	struct pt_pgtable p;
	char path[64], err[160];
	long kb;

	snprintf(path, sizeof(path), "/proc/%d/status", o->pid);
	kb = pt_sys_kv_kb(path, "VmPTE");
	if (kb < 0 || pt_regime_detect(&rg) ||
	    pt_regime_geometry(&rg, rg.format, &g, err, sizeof(err)))
		return;
	if (pt_pgtable_model(&g, l, o->deposit, &p, err, sizeof(err)))
		return;
	if (o->csv) {
		printf("kernel,,,,,,,VmPTE,,%ld,,\n", kb * 1024);
		return;
	}
	printf("kernel: VmPTE %ld kB; model of this kernel (%s, kernel-counted levels) %" PRIu64
	       " kB; model/kernel %.3f\n\n",
	       kb, rg.text, p.bytes_kernel / 1024, kb ? (double)p.bytes_kernel / 1024 / kb : 0.0);
}

static int load_snapshot(const char *path, struct pt_layout *l)
{
	char err[PATH_MAX + 64];
	uint8_t *buf;
	size_t size;
	int rc = PT_EXIT_USAGE;

	buf = (uint8_t *)pt_read_file(path, MAX_SNAPSHOT_BYTES, &size, err, sizeof(err));
	if (!buf) {
		fprintf(stderr, "ptbench model pgtable: %s\n", err);
		return PT_EXIT_USAGE;
	}
	if (pt_snapshot_decode(buf, size, l, err, sizeof(err)))
		fprintf(stderr, "ptbench model pgtable: snapshot %s: %s\n", path, err);
	else
		rc = PT_EXIT_OK;
	free(buf);
	return rc;
}

static void pgt_header(const struct pgt_opts *o, const struct pt_layout *l)
{
	char a[16], b[16], c[16];

	if (o->csv) {
		printf("what,granule_kib,va_bits,format,ttbr_skl,table_skl,height,name,tables,"
		       "bytes,blocks,kernel_counted\n");
		return;
	}
	model_human(pt_layout_bytes(l), a, sizeof(a));
	model_human(pt_layout_bytes_of(l, PT_MAP_THP) + pt_layout_bytes_of(l, PT_MAP_THP_FILE), b,
		    sizeof(b));
	model_human(pt_layout_bytes_of(l, PT_MAP_HUGETLB), c, sizeof(c));
	printf("%s %u (%s): %s populated in %zu extents, PMD-mapped THP %s, hugetlb %s%s\n",
	       o->snapshot ? "snapshot of pid" : "pid", l->pid, l->comm[0] ? l->comm : "?", a, l->n,
	       b, c,
	       l->flags & PT_LAYOUT_THP_KNOWN ? "" : " (THP not located: counted as base pages)");
	printf("tables per level (* = counted in VmPTE); deposit of PTE tables under THP: %s\n\n",
	       o->deposit ? "yes (Linux)" : "no (what-if)");
}

static int pgt_run(const struct pgt_opts *o)
{
	struct pt_pagemap_stats st;
	struct pt_layout l;
	char err[256];
	unsigned i;
	int rc = PT_EXIT_OK;

	if (o->snapshot) {
		rc = load_snapshot(o->snapshot, &l);
		if (rc)
			return rc;
	} else if (pt_pagemap_read(o->pid, 0, &l, &st, err, sizeof(err))) {
		fprintf(stderr, "ptbench model pgtable: pid %d: %s\n", o->pid, err);
		return PT_EXIT_USAGE;
	}
	pgt_header(o, &l);
	if (!o->snapshot)
		pgt_kernel_line(o, &l);
	for (i = 0; i < MODEL_NGRANULES && !rc; i++) {
		if (o->granule && o->granule != model_granules[i])
			continue;
		if (model_granules[i] < l.page_shift)
			continue;
		rc = pgt_granule(o, &l, model_granules[i]);
	}
	pt_layout_free(&l);
	return rc;
}

static const struct option pgt_longopts[] = {
	{ "pid", required_argument, NULL, 'p' },     { "snapshot", required_argument, NULL, 'S' },
	{ "granule", required_argument, NULL, 'g' }, { "csv", no_argument, NULL, 'c' },
	{ "no-deposit", no_argument, NULL, 'n' },    { "bench", no_argument, NULL, 'b' },
	{ "size", required_argument, NULL, 'z' },    { "stride", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },	     { NULL, 0, NULL, 0 },
};

int cmd_model_pgtable(int argc, char **argv)
{
	struct pgt_opts o = {
		.pid = -1, .deposit = 1, .bench_size = 64ull << 30, .bench_stride = 2ull << 20
	};
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", pgt_longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (pt_parse_int(optarg, 1, PID_MAX, &o.pid))
				return pt_usage_error("model pgtable",
						      "--pid '%s': not a process id", optarg);
			break;
		case 'S':
			o.snapshot = optarg;
			break;
		case 'g':
			if (model_parse_granule("model pgtable", optarg, &o.granule))
				return PT_EXIT_USAGE;
			break;
		case 'c':
			o.csv = 1;
			break;
		case 'n':
			o.deposit = 0;
			break;
		case 'b':
			o.bench = 1;
			break;
		case 'z':
		case 'r':
			if (pt_size_parse(optarg, c == 'z' ? &o.bench_size : &o.bench_stride))
				return pt_usage_error("model pgtable", "'%s': not a size", optarg);
			break;
		case 'h':
			model_usage(stdout);
			return PT_EXIT_OK;
		default:
			return pt_opt_error("model pgtable", c, argc, argv);
		}
	}
	if (optind < argc)
		return pt_usage_error("model pgtable", "unexpected argument '%s'", argv[optind]);
	if (o.bench)
		return model_pgtable_bench(o.bench_size, o.bench_stride);
	if ((o.pid > 0) == (o.snapshot != NULL))
		return pt_usage_error("model pgtable", "give exactly one of --pid and --snapshot");
	return pgt_run(&o);
}
