/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The snapshot file: a process's populated extents, so that a production
 * process can be modelled offline (ptbench snapshot, ptbench model pgtable
 * --snapshot). Format version 1, all integers little-endian:
 *
 *   offset size  field
 *        0    8  magic "PTBSNAP\0"
 *        8    2  version = 1
 *       10    2  header bytes = 64
 *       12    1  page_shift of the source (12..16)
 *       13    1  va_bits of the source (0: unknown, else 25..64)
 *       14    2  flags (bit 0: THP/hugetlb pages were located)
 *       16    4  pid of the source
 *       20    4  reserved, 0
 *       24    8  extent count
 *       32    8  body bytes
 *       40   16  comm, NUL padded
 *       56    8  reserved, 0
 *       64    -  body: per extent, in VA order
 *                  ULEB128 gap: pages from the end of the previous extent
 *                                (from address 0 for the first)
 *                  ULEB128 len: pages, >= 1
 *                  u8 kind: 0 base pages, 1 PMD-mapped THP, 2 hugetlb
 *                  u8 huge_shift: only when kind != 0 (log2 bytes)
 *   end - 4  4  CRC-32 (IEEE 802.3, as zlib crc32) of every byte before it
 *
 * Decoding is strict: any field out of range, a count that does not match
 * the body, trailing bytes or a bad checksum rejects the whole file.
 */
#ifndef PTBENCH_MODEL_SNAPSHOT_H
#define PTBENCH_MODEL_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "model/pgtable.h"

#define PT_SNAPSHOT_MAGIC "PTBSNAP"
#define PT_SNAPSHOT_VERSION 1
#define PT_SNAPSHOT_HEADER_BYTES 64

/* Bytes enough to encode l. */
size_t pt_snapshot_size_max(const struct pt_layout *l);
/* Encode l into buf (cap bytes); *used gets the size. -1 with err. */
int pt_snapshot_encode(const struct pt_layout *l, uint8_t *buf, size_t cap, size_t *used, char *err,
		       size_t errlen);
/* Decode into out (initialised here; free with pt_layout_free). -1 with err. */
int pt_snapshot_decode(const uint8_t *buf, size_t len, struct pt_layout *out, char *err,
		       size_t errlen);
uint32_t pt_crc32(const uint8_t *buf, size_t len);

#endif
