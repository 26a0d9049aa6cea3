/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Paths built from parts. A path cut short names another file, so a join
 * that does not fit fails rather than truncating.
 */
#ifndef PTBENCH_PATH_H
#define PTBENCH_PATH_H

#include <stddef.h>
#include <sys/types.h>

/* "dir/name" into out; 0, or -1 with errno ENAMETOOLONG (out then empty). */
int pt_path_join(char *out, size_t len, const char *dir, const char *name);
/* mkdir -p: every missing directory of path; 0, or -1 with errno. */
int pt_mkdir_p(const char *path, mode_t mode);

#endif
