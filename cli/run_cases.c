// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench run's cases: the selected workloads' cases for the suite, less
 * those --case leaves out, and the memory guard's refusal of a case asked
 * for by name.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "harness/procmem.h"
#include "harness/runner.h"
#include "workloads/suite.h"

int run_collect_cases(struct pt_run *run, const struct run_opts *o, const struct pt_workload **sel,
		      size_t nsel)
{
	struct pt_suite_opts so;
	struct pt_case *cases = calloc(PT_MAX_CASES, sizeof(*cases));
	size_t i, cap = 0;
	int n, k;

	if (!cases)
		return -1;
	pt_suite_opts_init(&so, o->suite_id, o->max_mem);
	for (i = 0; i < nsel; i++) {
		n = sel[i]->cases(&so, cases, PT_MAX_CASES);
		for (k = 0; k < n; k++) {
			if (o->case_glob && fnmatch(o->case_glob, cases[k].name, 0))
				continue;
			if (run->nresults == cap) {
				cap = cap ? cap * 2 : 64;
				run->results = realloc(run->results, cap * sizeof(*run->results));
				if (!run->results)
					abort();
			}
			memset(&run->results[run->nresults], 0, sizeof(*run->results));
			run->results[run->nresults].w = sel[i];
			run->results[run->nresults++].c = cases[k];
		}
	}
	free(cases);
	return 0;
}

/* An explicit request the memory guard refuses is a usage error. */
int run_check_explicit_guard(const struct pt_run *run)
{
	char msg[200];
	size_t i;

	for (i = 0; run->explicit_request && i < run->nresults; i++) {
		const struct pt_case_result *res = &run->results[i];

		if (pt_memory_guard(res->c.mem_bytes, run->mem_frac, msg, sizeof(msg)))
			return pt_usage_error(
				"run", "%s %s refused: %s (lower --max-mem or raise --mem-frac)",
				res->w->name, res->c.name, msg);
	}
	return 0;
}
