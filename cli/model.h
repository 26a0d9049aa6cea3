/* SPDX-License-Identifier: GPL-2.0-only */
/* ptbench model's subcommands and what they share. */
#ifndef PTBENCH_CLI_MODEL_H
#define PTBENCH_CLI_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MODEL_NGRANULES 3
/* log2 of the 4K, 16K and 64K granules, in the order they are shown */
extern const unsigned model_granules[MODEL_NGRANULES];

void model_usage(FILE *f);
/* "64K", "2M", "1536B": the largest unit that divides the size. */
void model_human(uint64_t b, char *out, size_t len);
/* --granule: 0, or a usage error of cmd. */
int model_parse_granule(const char *cmd, const char *arg, unsigned *granule);

int cmd_model_geometry(int argc, char **argv);
int cmd_model_pgtable(int argc, char **argv);
/* --bench: a sparse region of size bytes, one page populated per stride. */
int model_pgtable_bench(uint64_t size, uint64_t stride);

#endif
