/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Free page reporting (virtio-balloon) paused for a run. A guest with it
 * hands memory freed for a while back to the host, which drops it; the
 * next touch then faults in the host too. Between repetitions that is most
 * of what a run frees, so a run pauses it, and restores it at exit.
 */
#ifndef PTBENCH_PAGE_REPORTING_H
#define PTBENCH_PAGE_REPORTING_H

#include <stdbool.h>
#include <stddef.h>

#define PT_PAGE_REPORTING_ORDER "/sys/module/page_reporting/parameters/page_reporting_order"

/* The largest buddy order in /proc/buddyinfo text (its first line); -1 unknown. */
int pt_buddy_max_order(const char *buddyinfo);

enum pt_pr_choice {
	PT_PR_KEEP, /* asked to keep it on */
	PT_PR_UNKNOWN, /* the largest buddy order is unknown: left on */
	PT_PR_PAUSED_ALREADY, /* above the largest order: another run's pause */
	PT_PR_PAUSE, /* set the order to *want */
};

/*
 * The order to set: one above the buddy allocator's largest means nothing
 * is reported. An order already above it was set by another run still
 * going: left alone, so that the two restores cannot cross.
 */
enum pt_pr_choice pt_page_reporting_choose(const char *cur, int max_order, bool keep, int *want);

/*
 * Pause it (unless keep) as a restorable knob, and say what was done in
 * desc for meta.json: "absent", "paused (order 9 -> 11)", "on (order 9)"...
 */
void pt_page_reporting_pause(bool keep, char *desc, size_t len);

#endif
