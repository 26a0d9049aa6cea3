/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The little dense linear algebra the pool gate's factor model needs
 * (analysis/pool_factors.c): matrices of tens of rows, so plain loops.
 * Matrices are row-major arrays of doubles.
 */
#ifndef PTBENCH_UTIL_LINALG_H
#define PTBENCH_UTIL_LINALG_H

#include <stddef.h>

/*
 * Eigenvalues (descending, into val) and unit eigenvectors (row i of vec
 * belongs to val[i]) of the symmetric n x n matrix a, by cyclic Jacobi
 * rotations. a is left as it was. 0, or -1 when out of memory.
 */
int pt_sym_eigen(const double *a, size_t n, double *val, double *vec);

/*
 * Solve a x = b (a n x n, b n) by Gaussian elimination with partial
 * pivoting; x replaces b, a is destroyed. -1 when a is singular (a pivot
 * under 1e-12 of the largest entry).
 */
int pt_solve(double *a, double *b, size_t n);

#endif
