// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include <unistd.h>

#include "workloads/suite.h"
#include "harness/pin.h"
#include "harness/procmem.h"

/* The one table of suite names: every other place holds an enum pt_suite. */
const struct pt_suite_desc pt_suites[PT_SUITE_N + 1] = {
	[PT_SUITE_QUICK] = { "quick", "every workload at small sizes (default; a few minutes)" },
	[PT_SUITE_FULL] = { "full", "the characterisation run, sizes up to --max-mem (long)" },
	[PT_SUITE_CI] = { "ci", "a stable subset for regression gating (docs/run.md)" },
	[PT_SUITE_N] = { NULL, NULL },
};

int pt_suite_parse(const char *name, enum pt_suite *s)
{
	int i;

	for (i = 0; i < PT_SUITE_N; i++) {
		if (!strcmp(pt_suites[i].name, name)) {
			*s = (enum pt_suite)i;
			return 0;
		}
	}
	return -1;
}

const char *pt_suite_name(enum pt_suite s)
{
	return s < PT_SUITE_N ? pt_suites[s].name : "unknown";
}

void pt_suite_opts_init(struct pt_suite_opts *o, enum pt_suite suite, uint64_t max_mem)
{
	uint64_t page;

	memset(o, 0, sizeof(*o));
	o->suite = suite;
	o->page_size = page = pt_page_size();
	o->pmd_size = pt_pmd_size();
	/* A PMD block spans entries-per-table pages; a PUD block that many PMDs. */
	o->pud_size = o->pmd_size * (o->pmd_size / page);
	o->ncpus = pt_pu_count() > 0 ? pt_pu_count() : (int)sysconf(_SC_NPROCESSORS_ONLN);
	o->is_root = geteuid() == 0;
	if (!max_mem)
		max_mem = suite == PT_SUITE_FULL ? 4ull << 30 : 1ull << 30;
	o->max_mem = max_mem;
}
