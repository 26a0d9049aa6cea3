/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's output directory, made safe to write as root: created when
 * missing; when it exists, it must be a directory of this user that no one
 * else may write to (another user could otherwise swap a file for a
 * symlink between our checks and our writes), and it must be empty, unless
 * force, which first removes the files an earlier run and its report left
 * there, so that no stale REPORT.md or figure sits beside new results.
 */
#ifndef PTBENCH_OUTDIR_H
#define PTBENCH_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

/* The names ptbench writes into a run directory, NULL-terminated. */
extern const char *const pt_outdir_artefacts[];

/*
 * 0 (*created says whether mkdir made it), or -1 with "dir: problem" in
 * err and errno set: EEXIST not empty, EPERM owned by another user or
 * writable by others, ENOTDIR, or the error of mkdir or a removal.
 */
int pt_outdir_prepare(const char *dir, bool force, bool *created, char *err, size_t errlen);

#endif
