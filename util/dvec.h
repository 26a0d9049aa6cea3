/* SPDX-License-Identifier: GPL-2.0-only */
/* A growable array of doubles: the values of one series as rows stream in. */
#ifndef PTBENCH_DVEC_H
#define PTBENCH_DVEC_H

#include <stddef.h>

/* Zero-initialised is empty; n = 0 empties it and keeps the memory. */
struct pt_dvec {
	double *v;
	size_t n, cap;
};

/* Appends x; -1 when out of memory (the values so far stay). */
int pt_dvec_push(struct pt_dvec *d, double x);
void pt_dvec_free(struct pt_dvec *d);

#endif
