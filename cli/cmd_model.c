// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model geometry|pgtable|walk: the D128 model on its own.
 * geometry prints the translation geometry of D64 and D128 side by side;
 * pgtable models the page tables of a live process or a snapshot.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "cli/commands.h"
#include "harness/env.h"
#include "harness/pagemap.h"
#include "harness/procmem.h"
#include "util/sysfs.h"
#include "model/geometry.h"
#include "model/pgtable.h"
#include "model/snapshot.h"
#include "workloads/workload.h"

static const unsigned all_granules[] = { 12, 14, 16 };
#define NGRANULES 3
#define MAX_SNAPSHOT_BYTES (1ull << 32)

static void model_usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench model geometry [--granule G] [--va BITS] [--format F] [--csv]\n"
		"                              [--ttbr-skl N] [--table-skl N]\n"
		"       ptbench model pgtable (--pid PID | --snapshot FILE) [--granule G] [--csv]\n"
		"                             [--no-deposit]\n"
		"       ptbench model pgtable --bench [--size BYTES] [--stride BYTES]\n"
		"       ptbench model walk ...   (ptbench model walk --help)\n"
		"\n"
		"geometry  levels, entries, table and block sizes of D64 and D128 side by side,\n"
		"          computed from the architecture's formulas. Default: every granule\n"
		"          (4K, 16K, 64K) at VA 48, both formats.\n"
		"  --granule G     4K, 16K or 64K (only this granule)\n"
		"  --va BITS       VA size, 25 to 52 (D64) or 56 (D128); default 48\n"
		"  --format F      d64 or d128 (only this format)\n"
		"  --ttbr-skl N    D128 what-if: TTBR.SKL = N (0-3) enlarges the start table\n"
		"  --table-skl N   D128 what-if: SKL = N (0-3) on table entries merges levels\n"
		"  --csv           one CSV row per walk level instead of the table\n"
		"\n"
		"pgtable   page-table pages and bytes per level that a process's populated\n"
		"          memory needs under D64 and D128, for each granule not smaller than\n"
		"          the source's page, the D128/D64 ratio and D128 skip-level what-ifs.\n"
		"  --pid PID       read /proc/PID/maps and /proc/PID/pagemap now; also prints\n"
		"                  the kernel's VmPTE of PID next to the model of this kernel\n"
		"  --snapshot FILE a file written by 'ptbench snapshot'\n"
		"  --granule G     only this granule\n"
		"  --no-deposit    what-if: no PTE table kept under PMD-mapped THP\n"
		"  --csv           CSV instead of tables\n"
		"  --bench         map a sparse region in this process, populate one page per\n"
		"                  stride, and time reading and modelling it (pages per second)\n"
		"  --size BYTES    bench region size, default 64G\n"
		"  --stride BYTES  bench distance between populated pages, default 2M\n"
		"\n"
		"Exit status: 0 success, 1 a measurement failed, 2 bad usage or input.\n");
}

static int parse_uint(const char *s, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > max || s[0] == '-')
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* "64K", "2M": 4096 << log2; the bytes shown in tables. */
static void human(uint64_t b, char *out, size_t len)
{
	static const char units[] = "BKMGTPE";
	unsigned u = 0;

	while (b >= 1024 && !(b & 1023) && u < 6) {
		b >>= 10;
		u++;
	}
	snprintf(out, len, "%" PRIu64 "%c", b, units[u]);
}

/* ---- geometry ---------------------------------------------------------- */

struct geo_opts {
	unsigned granule; /* 0: all */
	unsigned va;
	int format; /* -1: both */
	unsigned ttbr_skl, table_skl;
	int csv;
};

static int geo_make(const struct geo_opts *o, enum pt_format f, unsigned gs, struct pt_geometry *g,
		    char *err, size_t errlen)
{
	if (pt_geometry_make(g, f, gs, o->va, err, errlen))
		return -1;
	if (f == PT_D128)
		return pt_geometry_apply_skl(g, o->ttbr_skl, o->table_skl, err, errlen);
	return 0;
}

static void geo_csv_rows(const struct pt_geometry *g)
{
	const char *ext = pt_geometry_extension(g);
	unsigned h;

	for (h = 0; h < g->nlevels; h++) {
		const struct pt_walk_level *l = &g->level[h];

		printf("%u,%u,%s,%u,%u,%u,%u,%s,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		       ",%" PRIu64 ",%s\n",
		       1u << (g->granule_shift - 10), g->va_bits, pt_format_name(g->format),
		       g->ttbr_skl, g->table_skl, g->nlevels, h, l->name, l->shift, l->index_bits,
		       l->entries, l->table_bytes, l->block_bytes, l->cont_entries,
		       l->cont_entries * (l->block_bytes ? l->block_bytes
							 : (h ? 0 : (uint64_t)1 << l->shift)),
		       ext ? ext : "");
	}
}

/* One half of a table row: a level of g, or blanks. */
static void geo_cell(const struct pt_geometry *g, unsigned h, char *out, size_t len)
{
	const struct pt_walk_level *l;
	char tb[24], bb[24], cb[80];
	uint64_t unit;

	if (!g || h >= g->nlevels) {
		snprintf(out, len, "%-49s", "");
		return;
	}
	l = &g->level[h];
	human(l->table_bytes, tb, sizeof(tb));
	if (l->block_bytes)
		human(l->block_bytes, bb, sizeof(bb));
	else
		snprintf(bb, sizeof(bb), "-");
	unit = h == 0 ? 1ull << l->shift : l->block_bytes;
	if (l->cont_entries && unit) {
		char ub[24], one[24];

		human(unit, one, sizeof(one));
		human(l->cont_entries * unit, ub, sizeof(ub));
		snprintf(cb, sizeof(cb), "%" PRIu64 "x%s=%s", l->cont_entries, one, ub);
	} else {
		snprintf(cb, sizeof(cb), "-");
	}
	snprintf(out, len, "%-15s %6" PRIu64 " %6s %6s %12s", l->name, l->entries, tb, bb, cb);
}

static void geo_side_by_side(const struct pt_geometry *a, const struct pt_geometry *b,
			     const char *err_a, const char *err_b)
{
	const struct pt_geometry *any = a ? a : b;
	unsigned n = 0, h;
	char ca[192], cbuf[192];

	printf("%uK granule, VA %u bits\n", 1u << (any->granule_shift - 10), any->va_bits);
	if (a)
		printf("  D64:  %u levels, %u-byte descriptors, %u bits per level%s%s\n",
		       a->nlevels, a->desc_bytes, a->bits_per_level,
		       pt_geometry_extension(a) ? ", needs " : "",
		       pt_geometry_extension(a) ? pt_geometry_extension(a) : "");
	else if (err_a)
		printf("  D64:  not allowed: %s\n", err_a);
	if (b)
		printf("  D128: %u levels, %u-byte descriptors, %u bits per level%s%s%s\n",
		       b->nlevels, b->desc_bytes, b->bits_per_level,
		       pt_geometry_extension(b) ? ", needs " : "",
		       pt_geometry_extension(b) ? pt_geometry_extension(b) : "",
		       b->ttbr_skl || b->table_skl ? ", with skip-level" : "");
	else if (err_b)
		printf("  D128: not allowed: %s\n", err_b);
	if (a)
		n = a->nlevels;
	if (b && b->nlevels > n)
		n = b->nlevels;
	printf("  %-49s | %s\n", a ? "D64 level        entries  table  block     cont-run" : "",
	       b ? "D128 level       entries  table  block     cont-run" : "");
	for (h = n; h-- > 0;) {
		geo_cell(a, h, ca, sizeof(ca));
		geo_cell(b, h, cbuf, sizeof(cbuf));
		printf("  %s | %s\n", ca, cbuf);
	}
	if (a && b)
		printf("  leaf tables per mapped GiB: D64 %" PRIu64 ", D128 %" PRIu64 "\n",
		       ((uint64_t)1 << 30) >> (a->level[0].shift + a->level[0].index_bits),
		       ((uint64_t)1 << 30) >> (b->level[0].shift + b->level[0].index_bits));
	printf("\n");
}

static int geo_print(const struct geo_opts *o)
{
	unsigned i, shown = 0;

	if (o->csv)
		printf("granule_kib,va_bits,format,ttbr_skl,table_skl,levels,height,name,shift,"
		       "index_bits,entries,table_bytes,block_bytes,cont_entries,cont_bytes,"
		       "extension\n");
	for (i = 0; i < NGRANULES; i++) {
		struct pt_geometry g64, g128;
		char e64[160] = "", e128[160] = "";
		int ok64 = 0, ok128 = 0;

		if (o->granule && o->granule != all_granules[i])
			continue;
		if (o->format != PT_D128)
			ok64 = !geo_make(o, PT_D64, all_granules[i], &g64, e64, sizeof(e64));
		if (o->format != PT_D64)
			ok128 = !geo_make(o, PT_D128, all_granules[i], &g128, e128, sizeof(e128));
		/* a format asked for by name must be allowed */
		if ((o->format == PT_D64 && !ok64) || (o->format == PT_D128 && !ok128)) {
			fprintf(stderr, "ptbench model geometry: %s\n", ok64 ? e128 : e64);
			return PT_EXIT_USAGE;
		}
		if (!ok64 && !ok128) {
			if (!o->csv)
				printf("%uK granule, VA %u bits: not allowed: %s; %s\n\n",
				       1u << (all_granules[i] - 10), o->va, e64, e128);
			continue;
		}
		shown++;
		if (o->csv) {
			if (ok64)
				geo_csv_rows(&g64);
			if (ok128)
				geo_csv_rows(&g128);
		} else {
			geo_side_by_side(ok64 ? &g64 : NULL, ok128 ? &g128 : NULL,
					 o->format == PT_D128 ? NULL : e64,
					 o->format == PT_D64 ? NULL : e128);
		}
	}
	if (!shown) {
		fprintf(stderr,
			"ptbench model geometry: no format allows VA %u at the granules "
			"asked for\n",
			o->va);
		return PT_EXIT_USAGE;
	}
	return PT_EXIT_OK;
}

static const struct option geo_longopts[] = {
	{ "granule", required_argument, NULL, 'g' },  { "va", required_argument, NULL, 'v' },
	{ "format", required_argument, NULL, 'f' },   { "csv", no_argument, NULL, 'c' },
	{ "ttbr-skl", required_argument, NULL, 't' }, { "table-skl", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },	      { NULL, 0, NULL, 0 },
};

static int cmd_geometry(int argc, char **argv)
{
	struct geo_opts o = { .va = 48, .format = -1 };
	enum pt_format f;
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", geo_longopts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if (pt_granule_parse(optarg, &o.granule))
				return pt_usage_error("model geometry",
						      "--granule '%s': not 4K, 16K "
						      "or 64K",
						      optarg);
			break;
		case 'v':
			if (parse_uint(optarg, 64, &o.va))
				return pt_usage_error("model geometry",
						      "--va '%s': not a number of "
						      "bits",
						      optarg);
			break;
		case 'f':
			if (pt_format_parse(optarg, &f))
				return pt_usage_error("model geometry",
						      "--format '%s': not d64 or "
						      "d128",
						      optarg);
			o.format = (int)f;
			break;
		case 'c':
			o.csv = 1;
			break;
		case 't':
		case 's':
			if (parse_uint(optarg, 3, c == 't' ? &o.ttbr_skl : &o.table_skl))
				return pt_usage_error("model geometry", "--%s '%s': SKL is 0 to 3",
						      c == 't' ? "ttbr-skl" : "table-skl", optarg);
			break;
		case 'h':
			model_usage(stdout);
			return PT_EXIT_OK;
		default:
			return pt_usage_error("model geometry", "see 'ptbench model --help'");
		}
	}
	if (optind < argc)
		return pt_usage_error("model geometry", "unexpected argument '%s'", argv[optind]);
	if ((o.ttbr_skl || o.table_skl) && o.format == PT_D64)
		return pt_usage_error("model geometry", "skip-level exists only with D128");
	return geo_print(&o);
}

/* ---- pgtable ------------------------------------------------------------ */

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
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size;
	char err[200];
	int rc = PT_EXIT_USAGE;

	if (!f) {
		fprintf(stderr, "ptbench model pgtable: %s: %s\n", path, strerror(errno));
		return PT_EXIT_USAGE;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    (uint64_t)size > MAX_SNAPSHOT_BYTES) {
		fprintf(stderr, "ptbench model pgtable: %s: cannot size the file\n", path);
		goto out;
	}
	buf = malloc(size ? (size_t)size : 1);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "ptbench model pgtable: %s: read failed\n", path);
		goto out;
	}
	if (pt_snapshot_decode(buf, (size_t)size, l, err, sizeof(err))) {
		fprintf(stderr, "ptbench model pgtable: snapshot %s: %s\n", path, err);
		goto out;
	}
	rc = PT_EXIT_OK;
out:
	free(buf);
	fclose(f);
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
	human(pt_layout_bytes(l), a, sizeof(a));
	human(pt_layout_bytes_of(l, PT_MAP_THP) + pt_layout_bytes_of(l, PT_MAP_THP_FILE), b,
	      sizeof(b));
	human(pt_layout_bytes_of(l, PT_MAP_HUGETLB), c, sizeof(c));
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
	for (i = 0; i < NGRANULES && !rc; i++) {
		if (o->granule && o->granule != all_granules[i])
			continue;
		if (all_granules[i] < l.page_shift)
			continue;
		rc = pgt_granule(o, &l, all_granules[i]);
	}
	pt_layout_free(&l);
	return rc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Read and model this process for both formats; seconds taken. */
static int bench_once(unsigned flags, double *secs, struct pt_pagemap_stats *st)
{
	struct pt_regime rg;
	struct pt_layout l;
	char err[256];
	double t0 = now_s();
	int f;

	if (pt_regime_detect(&rg))
		rg.page_size = pt_page_size(), rg.va_bits = 48;
	if (pt_pagemap_read(0, flags, &l, st, err, sizeof(err))) {
		fprintf(stderr, "ptbench model pgtable --bench: %s\n", err);
		return -1;
	}
	for (f = PT_D64; f <= PT_D128; f++) {
		struct pt_geometry g;
		struct pt_pgtable p;

		if (pt_regime_geometry(&rg, f, &g, err, sizeof(err)) ||
		    pt_pgtable_model(&g, &l, true, &p, err, sizeof(err))) {
			fprintf(stderr, "ptbench model pgtable --bench: %s\n", err);
			pt_layout_free(&l);
			return -1;
		}
	}
	*secs = now_s() - t0;
	pt_layout_free(&l);
	return 0;
}

static int pgt_bench(const struct pgt_opts *o)
{
	uint64_t page = pt_page_size(), a, touched = 0;
	struct pt_pagemap_stats st;
	double scan_s = 0, read_s = 0;
	char msg[256];
	int rc = PT_EXIT_OK;
	char *p;

	if (o->bench_stride < page || o->bench_size < o->bench_stride)
		return pt_usage_error("model pgtable", "--stride must be at least a page and no "
						       "more than --size");
	if (pt_memory_guard(o->bench_size / o->bench_stride * (page + page), 0.5, msg,
			    sizeof(msg))) {
		fprintf(stderr, "ptbench model pgtable --bench: %s\n", msg);
		return PT_EXIT_FAIL;
	}
	p = mmap(NULL, o->bench_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "ptbench model pgtable --bench: mmap %" PRIu64 " bytes: %s\n",
			o->bench_size, strerror(errno));
		return PT_EXIT_FAIL;
	}
	madvise(p, o->bench_size, MADV_NOHUGEPAGE);
	for (a = 0; a < o->bench_size; a += o->bench_stride, touched++)
		p[a] = 1;
	if (bench_once(0, &scan_s, &st)) {
		rc = PT_EXIT_FAIL;
		goto out;
	}
	printf("bench: %" PRIu64 " MiB mapped, %" PRIu64 " pages populated (one per %" PRIu64
	       " KiB)\n",
	       o->bench_size >> 20, touched, o->bench_stride >> 10);
	printf("  %s: %.4f s to read and model (D64 + D128), %.3g mapped pages/s, %.3g "
	       "populated pages/s\n",
	       st.used_scan_ioctl ? "PAGEMAP_SCAN" : "pagemap read", scan_s,
	       (double)st.vma_bytes / (double)page / scan_s,
	       (double)st.populated_bytes / (double)page / scan_s);
	if (st.used_scan_ioctl) {
		if (bench_once(PT_PAGEMAP_NO_SCAN, &read_s, &st)) {
			rc = PT_EXIT_FAIL;
			goto out;
		}
		printf("  pagemap read: %.4f s to read and model (D64 + D128), %.3g mapped "
		       "pages/s (%" PRIu64 " MiB of pagemap read)\n",
		       read_s, (double)st.vma_bytes / (double)page / read_s,
		       st.pagemap_bytes_read >> 20);
	}
out:
	munmap(p, o->bench_size);
	return rc;
}

static const struct option pgt_longopts[] = {
	{ "pid", required_argument, NULL, 'p' },     { "snapshot", required_argument, NULL, 'S' },
	{ "granule", required_argument, NULL, 'g' }, { "csv", no_argument, NULL, 'c' },
	{ "no-deposit", no_argument, NULL, 'n' },    { "bench", no_argument, NULL, 'b' },
	{ "size", required_argument, NULL, 'z' },    { "stride", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },	     { NULL, 0, NULL, 0 },
};

static int parse_pid(const char *s, int *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > 0x3fffffff)
		return -1;
	*pid = (int)v;
	return 0;
}

static int cmd_pgtable(int argc, char **argv)
{
	struct pgt_opts o = {
		.pid = -1, .deposit = 1, .bench_size = 64ull << 30, .bench_stride = 2ull << 20
	};
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", pgt_longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_pid(optarg, &o.pid))
				return pt_usage_error("model pgtable",
						      "--pid '%s': not a process "
						      "id",
						      optarg);
			break;
		case 'S':
			o.snapshot = optarg;
			break;
		case 'g':
			if (pt_granule_parse(optarg, &o.granule))
				return pt_usage_error("model pgtable",
						      "--granule '%s': not 4K, 16K "
						      "or 64K",
						      optarg);
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
			return pt_usage_error("model pgtable", "see 'ptbench model --help'");
		}
	}
	if (optind < argc)
		return pt_usage_error("model pgtable", "unexpected argument '%s'", argv[optind]);
	if (o.bench)
		return pgt_bench(&o);
	if ((o.pid > 0) == (o.snapshot != NULL))
		return pt_usage_error("model pgtable", "give exactly one of --pid and --snapshot");
	return pgt_run(&o);
}

int cmd_model(int argc, char **argv)
{
	if (argc < 2) {
		model_usage(stderr);
		return PT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		model_usage(stdout);
		return PT_EXIT_OK;
	}
	if (!strcmp(argv[1], "geometry"))
		return cmd_geometry(argc - 1, argv + 1);
	if (!strcmp(argv[1], "pgtable"))
		return cmd_pgtable(argc - 1, argv + 1);
	if (!strcmp(argv[1], "walk"))
		return cmd_model_walk(argc - 1, argv + 1);
	return pt_usage_error("model", "unknown model '%s' (geometry, pgtable, walk)", argv[1]);
}
