/* SPDX-License-Identifier: GPL-2.0-only */
/* Whole-file reads, bounded, for every parser of ptbench's inputs. */
#ifndef PTBENCH_FILEIO_H
#define PTBENCH_FILEIO_H

#include <stddef.h>
#include <stdio.h>

/*
 * The rest of stream f into a malloc'd NUL-terminated buffer of *len bytes.
 * Reading stops at about max bytes, so /dev/zero cannot exhaust memory;
 * callers that care compare *len with max. NULL on a read error.
 */
char *pt_read_stream(FILE *f, size_t max, size_t *len);

#endif
