/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PTBENCH_PIN_H
#define PTBENCH_PIN_H

#include <stdbool.h>

struct pt_binding {
	int requested; /* -1: automatic choice */
	int cpu; /* the PU actually bound, -1 when unbound */
	bool ok;
	char cpuset[64]; /* the binding read back, hwloc list syntax */
	char err[128];
};

/* Number of PUs (logical CPUs) of the machine as hwloc sees it. */
int pt_pu_count(void);
/* Bind the calling thread to one PU; cpu < 0 picks the last PU. */
int pt_pin_thread(int cpu, struct pt_binding *b);
/*
 * Bind task n of a case: the n-th PU from the one pt_pin_thread last bound
 * (task 0 shares the main thread's CPU, which --cpu pick may move each round).
 */
int pt_pin_thread_nth(int n);

#endif
