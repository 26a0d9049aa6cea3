/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The environment of a run and the translation regime derived from it.
 */
#ifndef PTBENCH_ENV_H
#define PTBENCH_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "model/geometry.h"

struct pt_json;

struct pt_regime {
	char arch[16]; /* "x86_64", "aarch64" */
	uint64_t page_size;
	uint64_t pmd_size; /* hpage_pmd_size; 0 when THP is absent */
	unsigned va_bits;
	unsigned levels;
	enum pt_format format; /* D64 or D128 */
	bool config_known; /* kernel config was readable */
	char text[160]; /* "arm64 4K D128 VA48, 5 levels" */
};

/* Derive the regime from the (sys)root in use. 0, or -1 when unknowable. */
int pt_regime_detect(struct pt_regime *r);
/* A line of the kernel config ("CONFIG_X=..."): value or NULL. */
int pt_kconfig_get(const char *key, char *val, size_t len);
/* Write the "env" object of meta.json. */
void pt_env_write_json(struct pt_json *j);
/* Is there a hardware PMU (a "cpu" or armv8 PMU under event_source)? */
bool pt_env_has_hw_pmu(void);

#endif
