// SPDX-License-Identifier: GPL-2.0-only
/*
 * A snapshot file (ptbench snapshot, model pgtable --snapshot). Each input
 * is decoded as it is, then again with its trailing CRC-32 made right: a
 * mutation almost always breaks the checksum, and the body's decoder behind
 * it must be fuzzed too.
 */
#include "fuzz.h"
#include "model/pgtable.h"
#include "model/snapshot.h"

static void decode(const uint8_t *data, size_t size)
{
	struct pt_layout l;
	char err[512];

	if (!pt_snapshot_decode(data, size, &l, err, sizeof(err)))
		pt_layout_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;
	uint32_t crc;
	int i;

	decode(data, size);
	if (size < 4)
		return 0;
	fixed = malloc(size);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	crc = pt_crc32(fixed, size - 4);
	for (i = 0; i < 4; i++)
		fixed[size - 4 + i] = (uint8_t)(crc >> (8 * i));
	decode(fixed, size);
	free(fixed);
	return 0;
}
