// SPDX-License-Identifier: GPL-2.0-only
/* results.csv: the C reader compare, summary and history use. */
#include <stdio.h>

#include "analysis/rundir.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_rundir r;
	char err[512];
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	memset(&r, 0, sizeof(r));
	if (!pt_results_parse(f, "results.csv", &r, err, sizeof(err)))
		pt_rundir_free(&r);
	fclose(f);
	return 0;
}
