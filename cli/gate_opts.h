/* SPDX-License-Identifier: GPL-2.0-only */
/* The gate options compare and calibrate share. */
#ifndef PTBENCH_GATE_OPTS_H
#define PTBENCH_GATE_OPTS_H

#include <stdbool.h>

#include "analysis/compare.h"
#include "analysis/pool_factors.h"
#include "analysis/pool_serial.h"
#include "util/stats.h"

/* --alpha ('a'), --threshold ('t'), --correction ('c'): 0, or exit status 2. */
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
