/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every results.csv row carries (results/SCHEMA.md): shared by the
 * writer in the harness and the reader in analysis.
 */
#ifndef PTBENCH_SCHEMA_H
#define PTBENCH_SCHEMA_H

#include <stdbool.h>

#define PT_SCHEMA_VERSION 1
#define PT_CSV_HEADER "workload,case,params,rep,metric,value,unit,better"

/* Which direction of a metric is better. */
enum pt_better { PT_LOWER = 0, PT_HIGHER = 1, PT_NEITHER = 2 };

/*
 * The one definition of a number in results.csv, shared with the Python
 * reader (plot/ptdata.py) and checked by both against
 * tests/fixtures/numbers.txt: a rep is 0 or digits without a leading zero
 * (no sign, blank, underscore); a value is what %.9g writes:
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, no hex, inf or nan.
 */
bool pt_schema_rep_ok(const char *s);
bool pt_schema_number_ok(const char *s);

const char *pt_better_name(enum pt_better b);
int pt_better_parse(const char *s, enum pt_better *b);

#endif
