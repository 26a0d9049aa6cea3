// SPDX-License-Identifier: GPL-2.0-only
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "harness/page_reporting.h"
#include "util/knobs.h"
#include "util/parse.h"
#include "util/sysfs.h"

int pt_buddy_max_order(const char *buddyinfo)
{
	char buf[1024], *save = NULL, *tok;
	int n = 0, i = 0;

	snprintf(buf, sizeof(buf), "%s", buddyinfo);
	buf[strcspn(buf, "\n")] = '\0';
	/* "Node 0, zone   DMA32   c0 c1 ... cN": four words, then one count per order */
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		n += i++ >= 4;
	return n ? n - 1 : -1;
}

enum pt_pr_choice pt_page_reporting_choose(const char *cur, int max_order, bool keep, int *want)
{
	int order;

	if (keep)
		return PT_PR_KEEP;
	if (max_order < 0)
		return PT_PR_UNKNOWN;
	/* an order that is not a number is not one this or another run set */
	if (!pt_parse_int(cur, 0, INT_MAX, &order) && order > max_order)
		return PT_PR_PAUSED_ALREADY;
	*want = max_order + 1;
	return PT_PR_PAUSE;
}

void pt_page_reporting_pause(bool keep, char *desc, size_t len)
{
	char cur[32], want_s[16], buddy[1024];
	int max = -1, want = 0;

	if (pt_sys_read_choice(PT_PAGE_REPORTING_ORDER, cur, sizeof(cur))) {
		snprintf(desc, len, "absent");
		return;
	}
	if (pt_sys_read("/proc/buddyinfo", buddy, sizeof(buddy)) >= 0)
		max = pt_buddy_max_order(buddy);
	switch (pt_page_reporting_choose(cur, max, keep, &want)) {
	case PT_PR_KEEP:
		snprintf(desc, len, "on (order %s)", cur);
		return;
	case PT_PR_UNKNOWN:
		snprintf(desc, len, "on (order %s; largest buddy order unknown)", cur);
		return;
	case PT_PR_PAUSED_ALREADY:
		snprintf(desc, len, "paused already (order %s)", cur);
		return;
	case PT_PR_PAUSE:
		break;
	}
	snprintf(want_s, sizeof(want_s), "%d", want);
	if (pt_knob_set(PT_PAGE_REPORTING_ORDER, want_s))
		snprintf(desc, len, "on (order %s; cannot pause)", cur);
	else
		snprintf(desc, len, "paused (order %s -> %d)", cur, want);
}
