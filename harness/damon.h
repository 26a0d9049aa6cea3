/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DAMON on this machine: a kdamond with a pageout scheme clears accessed
 * bits and reclaims cold memory behind a benchmark's back, so a run records
 * which kdamonds run and what they do. Read only: ptbench never starts,
 * stops or commands a kdamond it did not start.
 */
#ifndef PTBENCH_DAMON_H
#define PTBENCH_DAMON_H

#include <stddef.h>

/*
 * "none", or one entry per kdamond: "kdamond 0 on (pid 79): paddr,
 * schemes pageout; ...". "" when the DAMON sysfs interface is absent.
 */
void pt_damon_describe(char *out, size_t len);

#endif
