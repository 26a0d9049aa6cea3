// SPDX-License-Identifier: GPL-2.0-only
/* compare --config: the gate config, then a lookup through its globs. */
#include <stdbool.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_cmp_config c;
	double alpha = 0.01, thr = 5;
	bool gate = true;
	char err[512];
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	if (!pt_cmp_config_parse(f, "gate.conf", &c, err, sizeof(err))) {
		pt_cmp_config_lookup(&c, "tlb/chase-4k-1G/ns_per_access", &alpha, &thr, &gate);
		pt_cmp_config_free(&c);
	}
	fclose(f);
	return 0;
}
