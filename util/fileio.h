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

/*
 * The whole file at path, as pt_read_stream, but a file larger than max
 * bytes is an error, not a prefix. NULL with "path: reason" in err (and
 * errno set) when it cannot be opened, read, or is too large.
 */
char *pt_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/*
 * path opened for reading only if it is a regular file: a FIFO would block
 * the reader forever and /dev/zero never ends, so both are refused before a
 * byte is read. NULL with "path: reason" in err and errno set (EINVAL for a
 * file that is not regular, EISDIR for a directory).
 */
FILE *pt_open_regular(const char *path, char *err, size_t errlen);

#endif
