/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Files created safely: written to PATH.tmp.<pid> (created exclusively,
 * never through a symlink), then renamed into place, so a reader never
 * sees half a file and an interrupted writer leaves none. A character
 * device or a FIFO (/dev/null, a named pipe) is written directly and tmp
 * is left empty; a directory, another special file or a symlink to one is
 * refused (NULL, errno EISDIR or EINVAL).
 */
#ifndef PTBENCH_ATOMICFILE_H
#define PTBENCH_ATOMICFILE_H

#include <stdio.h>

FILE *pt_atomic_open(const char *path, char *tmp, size_t tmplen);
/* Flush, fsync, close and rename; 0 or -errno (the temporary is removed). */
int pt_atomic_commit(FILE *f, const char *tmp, const char *path);
void pt_atomic_abort(FILE *f, const char *tmp);

#endif
