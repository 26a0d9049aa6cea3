/* SPDX-License-Identifier: GPL-2.0-only */
/* Byte sizes as people write them: "64K", "2M", "1GiB", "4096". */
#ifndef PTBENCH_MODEL_UNITS_H
#define PTBENCH_MODEL_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "4K", "2M", "1G": the largest unit that divides the size exactly. */
void pt_size_name(uint64_t bytes, char *out, size_t len);
/* Parse a size with an optional K/M/G/T suffix (KiB, KB). 0, or -1. */
int pt_size_parse(const char *s, uint64_t *bytes);

#endif
