/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sysfs knobs changed for a run (THP and mTHP modes, hugetlb pools): the old
 * value is saved (in memory and in a journal a later run can recover from)
 * before the first write and restored at exit, and on SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE before the signal's default action.
 */
#ifndef PTBENCH_KNOBS_H
#define PTBENCH_KNOBS_H

#include <stddef.h>

#define PT_MAX_KNOBS 32
/* How long a run waits for another run's system changes to end. */
#define PT_KNOB_LOCK_WAIT_S 300

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
 * The lock of ptbench's system changes (knoblock.c), held until exit. Waits
 * up to wait_s seconds for another run; then -EBUSY. Restores a journal a
 * dead run left, and describes what it restored in note ("" when nothing).
 * pt_knob_set takes it without waiting when no one has.
 */
int pt_knob_lock(int wait_s, char *note, size_t notelen);
/* What the lock restored from a dead run ("" when nothing), for meta.json. */
const char *pt_knob_recovered(void);
/* Append a knob's original value to the journal, synced (knobs.c). */
int pt_knob_journal(const char *real, const char *value);
/* Every knob is restored: remove the journal. Async-signal-safe. */
void pt_knob_journal_done(void);

/*
 * Temporary files removed if the run is interrupted (SIGINT/SIGTERM), so an
 * interrupted run leaves no half-written result behind.
 */
void pt_cleanup_add(const char *path);
void pt_cleanup_remove(const char *path);
/* A directory the run created: removed too if it is empty (NULL: forget it). */
void pt_cleanup_dir(const char *path);

#endif
