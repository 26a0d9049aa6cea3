// SPDX-License-Identifier: GPL-2.0-only
/* A snapshot file (ptbench snapshot, model pgtable --snapshot). */
#include "fuzz.h"
#include "model/pgtable.h"
#include "model/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_layout l;
	char err[512];

	if (!pt_snapshot_decode(data, size, &l, err, sizeof(err)))
		pt_layout_free(&l);
	return 0;
}
