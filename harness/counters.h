/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Counters through libperf, event names through libpfm4. Counts the calling
 * process (its threads, and children forked after opening: inherit).
 */
#ifndef PTBENCH_COUNTERS_H
#define PTBENCH_COUNTERS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#define PT_MAX_EVENTS 32

struct pt_counters;

struct pt_counter_reading {
	const char *name;
	double value; /* scaled for multiplexing */
	double running_ratio; /* time running / time enabled: 1 never muxed, 0 never counted */
};

struct pt_unsupported {
	const char *name;
	const char *reason;
};

/* The default list: software events plus this CPU's TLB/walk events. */
size_t pt_default_events(const char **names, size_t max);
/*
 * Open a set. names == NULL opens the default list. An unknown name is an
 * error (-2 and a message in err); a known name that the kernel refuses is
 * recorded as unsupported and the set still opens.
 */
int pt_counters_open(struct pt_counters **out, const char *const *names, size_t n, char *err,
		     size_t errlen);
void pt_counters_close(struct pt_counters *c);
void pt_counters_start(struct pt_counters *c);
/* Stop and add the counts since start to the running totals. */
void pt_counters_stop(struct pt_counters *c);
void pt_counters_reset(struct pt_counters *c);
size_t pt_counters_count(const struct pt_counters *c);
int pt_counters_get(const struct pt_counters *c, size_t i, struct pt_counter_reading *r);
/* Total of a named counter, or -1 when it is not open. */
double pt_counters_value(const struct pt_counters *c, const char *name);
size_t pt_counters_unsupported(const struct pt_counters *c, const struct pt_unsupported **list);

#endif
