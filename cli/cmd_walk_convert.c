// SPDX-License-Identifier: GPL-2.0-only
/* ptbench model walk convert: lackey output into the binary trace format. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd_walk.h"
#include "cli/commands.h"
#include "model/trace.h"
#include "util/atomicfile.h"

struct convert_ctx {
	struct pt_trace_writer w;
	int failed;
};

static int convert_one(const struct pt_access *a, void *p)
{
	struct convert_ctx *c = p;

	if (pt_trace_write(&c->w, a))
		c->failed = 1;
	return c->failed;
}

static int convert_stream(FILE *in, const char *name, const char *out)
{
	struct convert_ctx c = { 0 };
	char tmp[PATH_MAX], err[512];
	struct stat st;
	FILE *f;
	int r;

	/* a directory is bad usage, found before the trace is read, not a failed rename */
	if (!stat(out, &st) && S_ISDIR(st.st_mode))
		return pt_usage_error(CMD, "-o %s: is a directory; name the trace file", out);
	f = pt_atomic_open(out, tmp, sizeof(tmp));
	if (!f)
		return pt_usage_error(CMD, "-o %s: cannot create: %s", out, strerror(errno));
	c.failed = pt_trace_write_begin(&c.w, f);
	r = c.failed ? 0 : pt_lackey_read(in, name, convert_one, &c, err, sizeof(err));
	if (!r && !c.failed)
		c.failed = pt_trace_write_end(&c.w);
	if (r || c.failed) {
		pt_atomic_abort(f, tmp);
		if (r)
			return pt_usage_error(CMD, "%s", err);
		fprintf(stderr, "ptbench: %s: write failed\n", out);
		return PT_EXIT_FAIL;
	}
	r = pt_atomic_commit(f, tmp, out);
	if (r) {
		fprintf(stderr, "ptbench: %s: write failed: %s\n", out, strerror(-r));
		return PT_EXIT_FAIL;
	}
	fprintf(stderr, "ptbench: %s: %llu records\n", out, (unsigned long long)c.w.count);
	return 0;
}

int walk_convert(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	FILE *f;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", walk_long_opts, NULL)) != -1) {
		if (c == 'h') {
			printf("usage: ptbench model walk convert --lackey IN|- -o OUT\n"
			       "Converts valgrind lackey output to the binary trace format "
			       "(docs/walk.md).\n");
			return PT_EXIT_OK;
		} else if (c == OPT_LACKEY) {
			in = optarg;
		} else if (c == 'o') {
			out = optarg;
		} else {
			return walk_opt_error("convert: ", c, argv);
		}
	}
	if (!in || !out || optind < argc)
		return pt_usage_error(CMD, "convert: needs --lackey IN and -o OUT");
	f = strcmp(in, "-") ? fopen(in, "r") : stdin;
	if (!f)
		return pt_usage_error(CMD, "%s: %s", in, strerror(errno));
	r = convert_stream(f, in, out);
	if (f != stdin)
		fclose(f);
	return r;
}
