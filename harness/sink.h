/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results.csv: one row per sample per metric (results/SCHEMA.md). Rows go
 * to a temporary file that is renamed into place on close.
 */
#ifndef PTBENCH_SINK_H
#define PTBENCH_SINK_H

#include <stddef.h>
#include <stdio.h>

#define PT_SCHEMA_VERSION 1
#define PT_CSV_HEADER "workload,case,params,rep,metric,value,unit,better"

enum pt_better { PT_LOWER = 0, PT_HIGHER = 1, PT_NEITHER = 2 };

struct pt_sink;

const char *pt_better_name(enum pt_better b);
int pt_better_parse(const char *s, enum pt_better *b);
/* Quote a CSV field when it needs it (RFC 4180). */
int pt_csv_escape(const char *in, char *out, size_t len);
int pt_sink_open(struct pt_sink **s, const char *path);
int pt_sink_row(struct pt_sink *s, const char *workload, const char *cs, const char *params,
		int rep, const char *metric, double value, const char *unit, enum pt_better better);
size_t pt_sink_rows(const struct pt_sink *s);
/* Flush, fsync and rename into place; frees s. */
int pt_sink_close(struct pt_sink *s);
/* Remove the temporary file; frees s. */
void pt_sink_abort(struct pt_sink *s);

/* Write-to-temporary-then-rename for other files (meta.json, reports). */
FILE *pt_atomic_open(const char *path, char *tmp, size_t tmplen);
int pt_atomic_commit(FILE *f, const char *tmp, const char *path);
void pt_atomic_abort(FILE *f, const char *tmp);

#endif
