/* SPDX-License-Identifier: GPL-2.0-only */
/* Inside the run history: the open database, shared by history.c and history_rows.c. */
#ifndef PTBENCH_HISTORY_DB_H
#define PTBENCH_HISTORY_DB_H

#include <limits.h>
#include <sqlite3.h>

#include "analysis/history.h"

struct pt_history {
	sqlite3 *db;
	int schema;
	char path[PATH_MAX];
};

/* "path: what: sqlite's message" into err; returns e. */
enum pt_history_err pt_hist_fail(struct pt_history *h, enum pt_history_err e, char *err,
				 size_t errlen, const char *what);

#endif
