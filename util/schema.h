/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every results.csv row carries (results/SCHEMA.md): shared by the
 * writer in the harness and the reader in analysis.
 */
#ifndef PTBENCH_SCHEMA_H
#define PTBENCH_SCHEMA_H

#define PT_SCHEMA_VERSION 1
#define PT_CSV_HEADER "workload,case,params,rep,metric,value,unit,better"

/* Which direction of a metric is better. */
enum pt_better { PT_LOWER = 0, PT_HIGHER = 1, PT_NEITHER = 2 };

const char *pt_better_name(enum pt_better b);
int pt_better_parse(const char *s, enum pt_better *b);

#endif
