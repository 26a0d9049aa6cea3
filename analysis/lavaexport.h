/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run as the lines a LAVA test shell runs (ptbench export --format
 * lava): one lava-test-case per case verification and one per case's
 * primary metric median, with its unit. The medians are util/stats.c's,
 * the same as ptbench summary shows, so the shell computes nothing.
 */
#ifndef PTBENCH_LAVAEXPORT_H
#define PTBENCH_LAVAEXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/rundir.h"

/* One entry of meta.json cases[]: what the export reports per case. */
struct pt_lava_case {
	char *workload, *cs, *params, *status;
	char *primary; /* NULL in runs made before cases declared one */
};

struct pt_lava_cases {
	struct pt_lava_case *v;
	size_t n;
};

/*
 * The cases[] of run r's meta.json (beside its results.csv). 0, or -1 with
 * "file: problem" in err: no meta.json, no cases, a case without workload,
 * case or status, or a status other than ok, failed or skipped.
 */
int pt_lava_cases_read(const struct pt_rundir *r, struct pt_lava_cases *c, char *err,
		       size_t errlen);
void pt_lava_cases_free(struct pt_lava_cases *c);

/*
 * s as a LAVA test case name: letters, digits and "-_." kept, any other
 * byte "_", at most len - 1 (and LAVA's 100) characters, "case" if empty.
 */
void pt_lava_name(const char *s, char *out, size_t len);

/*
 * The lava-test-case lines of run r and its cases to f, names unique.
 * 0, or -1 when out of memory or a write failed.
 */
int pt_lava_export_write(FILE *f, const struct pt_rundir *r, const struct pt_lava_cases *c);

#endif
