/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The environments of two runs side by side, each field marked by how much
 * a difference matters: a kernel change is the point of a comparison, a
 * different CPU or page size makes its numbers the hardware's as well.
 */
#ifndef PTBENCH_COMPARE_ENV_H
#define PTBENCH_COMPARE_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/rundir.h"

enum pt_env_kind {
	PT_ENV_INFO, /* shown, marked when it differs */
	PT_ENV_EXPECTED, /* differs between a D64 and a D128 kernel: the point */
	PT_ENV_LOUD, /* different hardware or page size: a WARNING */
};

struct pt_env_field {
	const char *label;
	const char *base, *cand; /* "" when unknown */
	enum pt_env_kind kind;
};

#define PT_ENV_FIELDS 16

struct pt_cmp_env {
	struct pt_env_field f[PT_ENV_FIELDS];
	size_t n;
	size_t loud; /* loud fields that differ */
};

/* The fields of b and c (which must outlive e), in the order they are shown. */
void pt_cmp_env_collect(const struct pt_rundir_meta *b, const struct pt_rundir_meta *c,
			struct pt_cmp_env *e);
/* Known on both sides and different. */
bool pt_env_differs(const struct pt_env_field *f);
/* What to say beside the field: "" when nothing. */
const char *pt_env_mark(const struct pt_env_field *f);

#endif
