// SPDX-License-Identifier: GPL-2.0-only
/* Streaming the rows table one (run, series) at a time: see history_db.h. */
#include <stdio.h>
#include <string.h>

#include "analysis/history_db.h"

const char *pt_hist_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

bool pt_hist_same_series(const struct pt_hist_series *s, sqlite3_stmt *st)
{
	int i;

	if (strcmp(s->run, pt_hist_text(st, 0)))
		return false;
	/* the unit (key[4]) belongs to the metric: not compared */
	for (i = 0; i < 4; i++)
		if (strcmp(s->key[i], pt_hist_text(st, i + 1)))
			return false;
	return true;
}

void pt_hist_series_start(struct pt_hist_series *s, sqlite3_stmt *st)
{
	int i;

	snprintf(s->run, sizeof(s->run), "%s", pt_hist_text(st, 0));
	for (i = 0; i < 5; i++)
		snprintf(s->key[i], sizeof(s->key[i]), "%s", pt_hist_text(st, i + 1));
}
