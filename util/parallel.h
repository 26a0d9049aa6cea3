/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Independent jobs shared among one thread per CPU (the walk calibration's
 * simulations, the walk simulator's formats).
 */
#ifndef PTBENCH_PARALLEL_H
#define PTBENCH_PARALLEL_H

#include <stddef.h>

#define PT_PARALLEL_MAX_THREADS 8

/*
 * Run job(arg, k) for k in [0, n), each once, on up to one thread per
 * online CPU (at most PT_PARALLEL_MAX_THREADS, the caller's among them).
 * After a job fails (non-zero) no new one starts. Returns the number of
 * threads used, or -1 when a job failed.
 */
int pt_parallel_for(size_t n, int (*job)(void *arg, size_t k), void *arg);

#endif
