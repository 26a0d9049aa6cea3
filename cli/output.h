/* SPDX-License-Identifier: GPL-2.0-only */
/* A command's one output, to stdout or (with -o FILE) written atomically. */
#ifndef PTBENCH_CLI_OUTPUT_H
#define PTBENCH_CLI_OUTPUT_H

#include <stdio.h>

/* Writes the whole output to f; nonzero when a write failed. */
typedef int (*pt_output_fn)(FILE *f, const void *ctx);

/*
 * write(f, ctx) into path (NULL: stdout). PT_EXIT_OK; PT_EXIT_USAGE when
 * path cannot be opened; PT_EXIT_FAIL when a write or the rename failed
 * (path then keeps what it held). Each failure is said on stderr as
 * "ptbench CMD: ...".
 */
int pt_output_write(const char *cmd, const char *path, pt_output_fn write, const void *ctx);

#endif
