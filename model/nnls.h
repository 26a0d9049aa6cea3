/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Non-negative least squares, exactly: min |A x - b| subject to x >= 0, by
 * the Lawson-Hanson active-set method. For the calibration's small systems
 * (at most PT_NNLS_MAX_COLS unknowns); rows are unbounded.
 */
#ifndef PTBENCH_MODEL_NNLS_H
#define PTBENCH_MODEL_NNLS_H

#include <stddef.h>

#define PT_NNLS_MAX_COLS 16

/*
 * a: m rows of n values (row-major), b: m values, x: n results. 0, or -1
 * when n is out of range or the iteration limit is reached (x then holds
 * the last feasible point).
 */
int pt_nnls(const double *a, const double *b, size_t m, size_t n, double *x);

#endif
