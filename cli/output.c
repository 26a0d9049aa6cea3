// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "util/atomicfile.h"

int pt_output_write(const char *cmd, const char *path, pt_output_fn write, const void *ctx)
{
	char tmp[PATH_MAX + 32];
	FILE *f;
	int err;

	if (!path) {
		if (write(stdout, ctx) || fflush(stdout)) {
			fprintf(stderr, "ptbench %s: writing stdout failed\n", cmd);
			return PT_EXIT_FAIL;
		}
		return PT_EXIT_OK;
	}
	f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f) {
		/* never "Success": a failure without errno is the long name */
		fprintf(stderr, "ptbench %s: %s: %s\n", cmd, path,
			strerror(errno ? errno : ENAMETOOLONG));
		return PT_EXIT_USAGE;
	}
	if (write(f, ctx)) {
		pt_atomic_abort(f, tmp);
		fprintf(stderr, "ptbench %s: %s: write failed\n", cmd, path);
		return PT_EXIT_FAIL;
	}
	err = pt_atomic_commit(f, tmp, path);
	if (err) {
		fprintf(stderr, "ptbench %s: %s: %s\n", cmd, path, strerror(-err));
		return PT_EXIT_FAIL;
	}
	return PT_EXIT_OK;
}
