// SPDX-License-Identifier: GPL-2.0-only
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

/* The option getopt_long could not take, as typed: "-x" or "--name...". */
static void failed_opt(int argc, char *const argv[], char *buf, size_t len)
{
	const char *prev = argv[optind - 1];
	const char *next = optind < argc ? argv[optind] : NULL;
	bool shortopt = optopt > 0 && optopt < 128;

	/* inside a cluster (-xv failing at x) getopt has not moved optind yet */
	if (shortopt && next && next[0] == '-' && next[1] && next[1] != '-' &&
	    strchr(next + 1, optopt))
		snprintf(buf, len, "-%c", optopt);
	else if (!strncmp(prev, "--", 2) || !shortopt)
		snprintf(buf, len, "%s", prev);
	else
		snprintf(buf, len, "-%c", optopt);
}

int pt_opt_error(const char *cmd, int c, int argc, char *const argv[])
{
	char opt[256];

	failed_opt(argc, argv, opt, sizeof(opt));
	if (c == ':')
		return pt_usage_error(cmd, "%s needs a value", opt);
	/* a known long option given a value it does not take: optopt is its value */
	if (optopt && !strncmp(opt, "--", 2) && strchr(opt, '='))
		return pt_usage_error(cmd, "%.*s takes no value", (int)(strchr(opt, '=') - opt),
				      opt);
	return pt_usage_error(cmd, "unknown option '%s'", opt);
}
