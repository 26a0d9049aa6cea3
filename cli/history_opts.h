// SPDX-License-Identifier: GPL-2.0-only
/* ptbench history: its usage text and its options, before or after the action. */
#ifndef PT_CLI_HISTORY_OPTS_H
#define PT_CLI_HISTORY_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/history.h"
#include "analysis/pool_aa.h"

struct history_args {
	const char *db, *out, *format;
	struct pt_history_filter filter;
	struct pt_pool_aa_opts aa;
	bool allow_incomplete; /* add: a run whose meta.json says complete: false */
	const char *aa_only; /* the first of aa's own options given, for the other actions' refusal */
};

void history_usage(FILE *f);
/*
 * Parse argv into a; the action and its positional arguments are then
 * argv[optind..]. 0, an exit status, or -1 after --help.
 */
int history_parse_args(int argc, char **argv, struct history_args *a);

#endif
