// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model geometry|pgtable|walk: the D128 model on its own.
 * geometry prints the translation geometry of D64 and D128 side by side
 * (model_geometry.c); pgtable models the page tables of a live process or
 * a snapshot (model_pgtable.c); walk simulates translation (cmd_walk.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/model.h"
#include "model/geometry.h"

const unsigned model_granules[MODEL_NGRANULES] = { 12, 14, 16 };

void model_usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench model geometry [--granule G] [--va BITS] [--format F] [--csv]\n"
		"                              [--ttbr-skl N] [--table-skl N]\n"
		"       ptbench model pgtable (--pid PID | --snapshot FILE) [--granule G] [--csv]\n"
		"                             [--no-deposit]\n"
		"       ptbench model pgtable --bench [--size BYTES] [--stride BYTES]\n"
		"       ptbench model walk ...   (ptbench model walk --help)\n"
		"       ptbench model ops --results DIR   (ptbench model ops --help)\n"
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

/* "64K", "2M": 4096 << log2; the bytes shown in tables. */
void model_human(uint64_t b, char *out, size_t len)
{
	static const char units[] = "BKMGTPE";
	unsigned u = 0;

	while (b >= 1024 && !(b & 1023) && u < 6) {
		b >>= 10;
		u++;
	}
	snprintf(out, len, "%" PRIu64 "%c", b, units[u]);
}

int model_parse_granule(const char *cmd, const char *arg, unsigned *granule)
{
	if (pt_granule_parse(arg, granule))
		return pt_usage_error(cmd, "--granule '%s': not 4K, 16K or 64K", arg);
	return 0;
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
		return cmd_model_geometry(argc - 1, argv + 1);
	if (!strcmp(argv[1], "pgtable"))
		return cmd_model_pgtable(argc - 1, argv + 1);
	if (!strcmp(argv[1], "walk"))
		return cmd_model_walk(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ops"))
		return cmd_model_ops(argc - 1, argv + 1);
	return pt_usage_error("model", "unknown model '%s' (geometry, pgtable, walk, ops)",
			      argv[1]);
}
