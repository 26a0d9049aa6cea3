/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event names through libpfm4 (and the kernel's sysfs event list). Kept apart
 * from libperf: libpfm4's perf header and the kernel's cannot be included in
 * one file.
 */
#ifndef PTBENCH_EVENTS_H
#define PTBENCH_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pt_event_code {
	uint32_t type;
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel, exclude_hv;
};

/* Resolve one event name. -1 with a message in err for an unknown name. */
int pt_event_resolve(const char *name, struct pt_event_code *code, char *err, size_t errlen);

#endif
