/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sysfs knobs changed for a run (THP and mTHP modes, hugetlb pools): the old
 * value is saved before the first write and restored at exit, and on SIGINT
 * and SIGTERM before the signal's default action.
 */
#ifndef PTBENCH_KNOBS_H
#define PTBENCH_KNOBS_H

#define PT_MAX_KNOBS 32

/* Save the current value (once) and write a new one. */
int pt_knob_set(const char *path, const char *value);
/* Restore every saved knob, newest first. Async-signal-safe. */
void pt_knob_restore_all(void);
/* Install SIGINT/SIGTERM/SIGHUP/SIGPIPE handlers and an atexit hook (once). */
void pt_knob_install_handlers(void);
/* handler for SIGINT, SIGTERM, SIGHUP and SIGPIPE: the signals that stop a run. */
void pt_on_stop_signals(void (*handler)(int));
/* Number of knobs currently changed. */
int pt_knob_count(void);

/*
 * Temporary files removed if the run is interrupted (SIGINT/SIGTERM), so an
 * interrupted run leaves no half-written result behind.
 */
void pt_cleanup_add(const char *path);
void pt_cleanup_remove(const char *path);
/* A directory the run created: removed too if it is empty (NULL: forget it). */
void pt_cleanup_dir(const char *path);

#endif
