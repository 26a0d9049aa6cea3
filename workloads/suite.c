// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include <unistd.h>

#include "workloads/suite.h"
#include "harness/pin.h"
#include "harness/procmem.h"

const struct pt_suite_desc pt_suites[] = {
	{ "quick", "every workload at small sizes (default; a few minutes)" },
	{ "full", "the characterisation run, sizes up to --max-mem (long)" },
	{ "ci", "a stable subset for regression gating (docs/run.md)" },
	{ NULL, NULL },
};

bool pt_suite_known(const char *name)
{
	size_t i;

	for (i = 0; pt_suites[i].name; i++)
		if (!strcmp(pt_suites[i].name, name))
			return true;
	return false;
}

void pt_suite_opts_init(struct pt_suite_opts *o, const char *suite, uint64_t max_mem)
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
		max_mem = !strcmp(suite, "full") ? 4ull << 30 : 1ull << 30;
	o->max_mem = max_mem;
}
