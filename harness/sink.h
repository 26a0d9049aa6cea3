/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results.csv: one row per sample per metric (results/SCHEMA.md), written
 * in place so that a crash, SIGKILL or a full disk keeps every completed
 * repetition. Rows collect in memory and go to the file in one write with
 * an fsync at each commit (after each round of a run): the file only ever
 * holds whole rows, and a failed write is cut back to the last commit.
 */
#ifndef PTBENCH_SINK_H
#define PTBENCH_SINK_H

#include <stddef.h>
#include <stdio.h>

#include "util/schema.h"

struct pt_sink;

/*
 * Create path (exclusively, never through a symlink: ptbench runs as root)
 * and write the header. 0 or -errno.
 */
int pt_sink_open(struct pt_sink **s, const char *path);
int pt_sink_row(struct pt_sink *s, const char *workload, const char *cs, const char *params,
		int rep, const char *metric, double value, const char *unit, enum pt_better better);
/* Rows written so far, committed or pending. */
size_t pt_sink_rows(const struct pt_sink *s);
/* A point in the pending rows, and dropping every row after it (a retried repetition). */
struct pt_sink_mark {
	size_t len, rows;
};
struct pt_sink_mark pt_sink_mark(const struct pt_sink *s);
void pt_sink_rewind(struct pt_sink *s, struct pt_sink_mark m);
/*
 * Append the pending rows and fsync. 0, or -errno with the file cut back to
 * its last committed size (the pending rows are kept for another try).
 */
int pt_sink_commit(struct pt_sink *s);
const char *pt_sink_path(const struct pt_sink *s);
/* Commit and close; frees s. 0 or -errno. */
int pt_sink_close(struct pt_sink *s);
/* Drop the pending rows and close; a file with no committed row is removed. Frees s. */
void pt_sink_abort(struct pt_sink *s);

#endif
