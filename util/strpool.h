/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Owned copies of strings that many records borrow (the key columns of a
 * history's rows outlive the SQLite statement they came from), freed
 * together.
 */
#ifndef PTBENCH_STRPOOL_H
#define PTBENCH_STRPOOL_H

#include <stddef.h>

/* Zero-initialised is empty. */
struct pt_strpool {
	char **s;
	size_t n, cap;
};

/* A copy of s (NULL reads as "") that lives until pt_strpool_free; NULL when out of memory. */
const char *pt_strpool_add(struct pt_strpool *p, const char *s);
void pt_strpool_free(struct pt_strpool *p);

#endif
