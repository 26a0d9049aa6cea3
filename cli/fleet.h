/* SPDX-License-Identifier: GPL-2.0-only */
/* ptbench report --db: what the fleet report writes (fleet_out.c). */
#ifndef PTBENCH_CLI_FLEET_H
#define PTBENCH_CLI_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/fleet.h"

/* What FLEET.md says about where its numbers came from. */
struct fleet_source {
	const char *db;
	const char *const *tags;
	size_t ntags;
	size_t history_runs;
	const char *figure_note; /* NULL: the figure was drawn; else why not */
};

/*
 * DIR/fleet.csv (one row per series and host x kernel) and
 * DIR/fleet-groups.csv (one per host x kernel), atomically: 0, or -errno.
 */
int fleet_write_csv(const char *dir, const struct pt_fleet *f);
/* DIR/FLEET.md, the table: 0, or -errno. */
int fleet_write_md(const char *dir, const struct pt_fleet *f, const struct fleet_source *src);

#endif
