// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model geometry: levels, entries, table and block sizes of D64 and
 * D128 side by side, as model/geometry.c computes them.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/model.h"
#include "model/geometry.h"
#include "util/parse.h"

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
	model_human(l->table_bytes, tb, sizeof(tb));
	if (l->block_bytes)
		model_human(l->block_bytes, bb, sizeof(bb));
	else
		snprintf(bb, sizeof(bb), "-");
	unit = h == 0 ? 1ull << l->shift : l->block_bytes;
	if (l->cont_entries && unit) {
		char ub[24], one[24];

		model_human(unit, one, sizeof(one));
		model_human(l->cont_entries * unit, ub, sizeof(ub));
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
	for (i = 0; i < MODEL_NGRANULES; i++) {
		struct pt_geometry g64, g128;
		char e64[160] = "", e128[160] = "";
		int ok64 = 0, ok128 = 0;

		if (o->granule && o->granule != model_granules[i])
			continue;
		if (o->format != PT_D128)
			ok64 = !geo_make(o, PT_D64, model_granules[i], &g64, e64, sizeof(e64));
		if (o->format != PT_D64)
			ok128 = !geo_make(o, PT_D128, model_granules[i], &g128, e128, sizeof(e128));
		/* a format asked for by name must be allowed */
		if ((o->format == PT_D64 && !ok64) || (o->format == PT_D128 && !ok128)) {
			fprintf(stderr, "ptbench model geometry: %s\n", ok64 ? e128 : e64);
			return PT_EXIT_USAGE;
		}
		if (!ok64 && !ok128) {
			if (!o->csv)
				printf("%uK granule, VA %u bits: not allowed: %s; %s\n\n",
				       1u << (model_granules[i] - 10), o->va, e64, e128);
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

int cmd_model_geometry(int argc, char **argv)
{
	struct geo_opts o = { .va = 48, .format = -1 };
	enum pt_format f;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", geo_longopts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if (model_parse_granule("model geometry", optarg, &o.granule))
				return PT_EXIT_USAGE;
			break;
		case 'v':
			if (pt_parse_uint(optarg, 0, 64, &o.va))
				return pt_usage_error("model geometry",
						      "--va '%s': not a number of bits", optarg);
			break;
		case 'f':
			if (pt_format_parse(optarg, &f))
				return pt_usage_error("model geometry",
						      "--format '%s': not d64 or d128", optarg);
			o.format = (int)f;
			break;
		case 'c':
			o.csv = 1;
			break;
		case 't':
		case 's':
			if (pt_parse_uint(optarg, 0, 3, c == 't' ? &o.ttbr_skl : &o.table_skl))
				return pt_usage_error("model geometry", "--%s '%s': SKL is 0 to 3",
						      c == 't' ? "ttbr-skl" : "table-skl", optarg);
			break;
		case 'h':
			model_usage(stdout);
			return PT_EXIT_OK;
		default:
			return pt_opt_error("model geometry", c, argc, argv);
		}
	}
	if (optind < argc)
		return pt_usage_error("model geometry", "unexpected argument '%s'", argv[optind]);
	if ((o.ttbr_skl || o.table_skl) && o.format == PT_D64)
		return pt_usage_error("model geometry", "skip-level exists only with D128");
	return geo_print(&o);
}
