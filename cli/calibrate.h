/* SPDX-License-Identifier: GPL-2.0-only */
/* ptbench calibrate's options, shared by its option parser and the command. */
#ifndef PTBENCH_CLI_CALIBRATE_H
#define PTBENCH_CLI_CALIBRATE_H

#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/noisefloor.h"

#define CALIB_MAX_EXTRA 32

struct calib_args {
	const char *suite;
	int pairs;
	const char *reps; /* NULL: the run's default */
	const char *out;
	const char *config_path;
	const char *runner; /* NULL until setup: this ptbench */
	struct pt_floor_opts floor; /* base_pct is each series' own threshold */
	char *extra[CALIB_MAX_EXTRA]; /* after "--": passed to run */
	int nextra;
	struct pt_cmp_opts opts;
};

/* 0 parsed, 1 --help, or PT_EXIT_USAGE. */
int calib_parse_args(int argc, char **argv, struct calib_args *a);
/*
 * The output directory (default in outbuf), the gate's config (into cfg),
 * the runner (this ptbench by default, its path in runner) and DIR/logs;
 * 0, or an exit status.
 */
int calib_setup(struct calib_args *a, char *outbuf, size_t outlen, char *runner, size_t runlen,
		struct pt_cmp_config *cfg);

#endif
