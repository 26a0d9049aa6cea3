// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>

#include "cli/commands.h"

int pt_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ptbench %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'ptbench %s --help')\n", cmd);
	return PT_EXIT_USAGE;
}

int pt_opt_error(const char *cmd, int c, char *const argv[])
{
	/* getopt_long has moved optind past the option it could not take */
	if (c == ':')
		return pt_usage_error(cmd, "%s needs a value", argv[optind - 1]);
	return pt_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}
