/* SPDX-License-Identifier: GPL-2.0-only */
/* Inside the run history: the open database, shared by history.c and history_rows.c. */
#ifndef PTBENCH_HISTORY_DB_H
#define PTBENCH_HISTORY_DB_H

#include <limits.h>
#include <sqlite3.h>
#include <stdbool.h>

#include "analysis/history.h"

struct pt_history {
	sqlite3 *db;
	int schema;
	char path[PATH_MAX];
};

/* "path: what: sqlite's message" into err; returns e. */
enum pt_history_err pt_hist_fail(struct pt_history *h, enum pt_history_err e, char *err,
				 size_t errlen, const char *what);

/* Column i's text, "" for NULL (history_series.c). */
const char *pt_hist_text(sqlite3_stmt *st, int i);

/*
 * Where a stream over the rows table (ordered by run_id, workload, cs,
 * params, metric, and selecting those then unit as columns 0-5) stands: the
 * run and the series of the row last started. fleet_load.c and
 * pool_data.c gather each run's values of a series this way.
 */
struct pt_hist_series {
	char run[64], key[5][256]; /* key: workload, cs, params, metric, unit */
};

/* Does the row st is on belong to s (same run, same series)? */
bool pt_hist_same_series(const struct pt_hist_series *s, sqlite3_stmt *st);
/* s becomes the run and series of the row st is on. */
void pt_hist_series_start(struct pt_hist_series *s, sqlite3_stmt *st);

#endif
