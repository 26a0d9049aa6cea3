// SPDX-License-Identifier: GPL-2.0-only
/* A binary trace (model walk convert's output, model walk --trace). */
#include <stdio.h>

#include "fuzz.h"
#include "model/trace.h"

static int count(const struct pt_access *a, void *ctx)
{
	(void)a;
	++*(size_t *)ctx;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	size_t n = 0;
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	pt_trace_read(f, "trace.bin", count, &n, err, sizeof(err));
	fclose(f);
	return 0;
}
