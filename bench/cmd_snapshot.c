// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER: being written; replaced wholesale by its owner. */
#include <stdio.h>

#include "bench/commands.h"

int cmd_snapshot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ptbench: cmd_snapshot is not built yet\n");
	return PT_EXIT_USAGE;
}
