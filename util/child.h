/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Child processes that stop with their parent: a program run to completion
 * with its output in a log, and SIGINT, SIGTERM, SIGHUP or SIGPIPE passed
 * on to it, so that it can restore what it changed before both exit.
 */
#ifndef PTBENCH_CHILD_H
#define PTBENCH_CHILD_H

/*
 * From now on a stop signal is recorded and sent on to the child that
 * pt_child_run is waiting for, instead of killing this process.
 */
void pt_child_forward_signals(void);
/* The stop signal received since pt_child_forward_signals, or 0. */
int pt_child_stop_signal(void);

/*
 * Run argv[0] (a path, not searched) with argv, its stdout and stderr
 * appended to a new log file (NULL: inherited), and wait for it.
 * 0: it ended, *status its exit status or -1 when a signal killed it;
 * a stop signal (> 0): the signal arrived, was passed on and the child
 * reaped; -1: fork or wait failed (errno). A program that cannot be
 * executed exits with 127 after "<who>: cannot run PROG: reason" in the log.
 */
int pt_child_run(const char *who, char *const argv[], const char *log, int *status);

#endif
