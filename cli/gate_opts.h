/* SPDX-License-Identifier: GPL-2.0-only */
/* The gate options compare and calibrate share. */
#ifndef PTBENCH_GATE_OPTS_H
#define PTBENCH_GATE_OPTS_H

#include <stdbool.h>

#include "analysis/compare.h"
#include "analysis/pool_factors.h"
#include "analysis/pool_serial.h"
#include "util/stats.h"

/*
 * The two-run test compare and calibrate use unless --test says: Yuen's
 * test of each side's fastest 60% (analysis/compare.h). Chosen by the
 * rule in results/gate-two-run-rounds-2026-12-07/rule-yuen.txt: on 10
 * fault runs it was not fitted on, a copy with one primary metric 10%
 * slower was caught for 134 of 180 series (Mann-Whitney 111), the 4K
 * anonymous fault in 9 of 10; the A/A pairs of 160 ci runs fired 17 times
 * of 80 (Mann-Whitney 14).
 */
#define PT_CLI_TWO_RUN_TEST PT_TEST_YUEN

/*
 * --alpha ('a'), --threshold ('t'), --correction ('c'), --test ('Y'): 0,
 * or exit status 2.
 */
int pt_gate_option(const char *cmd, int c, const char *arg, struct pt_cmp_opts *o);

/* --factors auto|N of the pool gate: -1 (auto) or N into *out; 0, or exit status 2. */
int pt_factors_option(const char *cmd, const char *arg, int *out);
/*
 * --trim of the pool gate into *out: F (0 to 0.5) cut from each end, or
 * LO,HI (each 0 to 1, LO + HI <= 1) from the low and the high end; 0, or
 * exit status 2.
 */
int pt_trim_option(const char *cmd, const char *arg, struct pt_trim *out);
/* --run-effect on|off|split into *on and *split; 0, or exit status 2. */
int pt_run_effect_option(const char *cmd, const char *arg, bool *on, bool *split);
/* --serial auto|off|R (0 <= R < 0.95) into *mode and *rho; 0, or exit status 2. */
int pt_serial_option(const char *cmd, const char *arg, enum pt_pool_serial_mode *mode, double *rho);
/* --spread series|moderated into *moderate; 0, or exit status 2. */
int pt_spread_option(const char *cmd, const char *arg, bool *moderate);
/* --NAME on|off into *out; PT_EXIT_USAGE with a message naming NAME otherwise. */
int pt_on_off_option(const char *cmd, const char *name, const char *arg, bool *out);

#endif
