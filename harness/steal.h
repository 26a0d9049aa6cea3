/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Steal time: CPU time the hypervisor gave to someone else while this
 * guest's vCPUs were ready to run (/proc/stat, the 8th field of "cpu").
 * A run or case that lost much of it was slowed by its neighbours, not by
 * the kernel under test.
 */
#ifndef PTBENCH_STEAL_H
#define PTBENCH_STEAL_H

/* Steal seconds summed over all CPUs since boot; 0, or -1 when unknown. */
int pt_steal_read(double *seconds);

/*
 * Parse the text of /proc/stat; 0, or -1 when the "cpu" line has no
 * steal field (kernels before 2.6.11) or is malformed.
 */
int pt_steal_parse(const char *stat, long ticks_per_s, double *seconds);

#endif
