/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results.csv: one row per sample per metric (results/SCHEMA.md). Rows go
 * to a temporary file that is renamed into place on close.
 */
#ifndef PTBENCH_SINK_H
#define PTBENCH_SINK_H

#include <stddef.h>
#include <stdio.h>

#include "util/schema.h"

struct pt_sink;

int pt_sink_open(struct pt_sink **s, const char *path);
int pt_sink_row(struct pt_sink *s, const char *workload, const char *cs, const char *params,
		int rep, const char *metric, double value, const char *unit, enum pt_better better);
size_t pt_sink_rows(const struct pt_sink *s);
/* Flush, fsync and rename into place; frees s. */
int pt_sink_close(struct pt_sink *s);
/* Remove the temporary file; frees s. */
void pt_sink_abort(struct pt_sink *s);

#endif
