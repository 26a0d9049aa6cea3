// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench snapshot --pid PID -o FILE: save a process's populated extents
 * (model/snapshot.h) so that it can be modelled offline with
 * 'ptbench model pgtable --snapshot FILE'.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "harness/env.h"
#include "harness/pagemap.h"
#include "harness/sink.h"
#include "model/snapshot.h"
#include "util/atomicfile.h"
#include "util/parse.h"

#define PID_MAX 0x3fffffff /* the kernel's PID_MAX_LIMIT */

static void snapshot_usage(FILE *f)
{
	fprintf(f, "usage: ptbench snapshot --pid PID -o FILE\n"
		   "\n"
		   "Read /proc/PID/maps and /proc/PID/pagemap (PAGEMAP_SCAN, or kpageflags as\n"
		   "root, to locate THP and hugetlb pages) and write the populated extents to\n"
		   "FILE in the ptbench snapshot format (docs/model.md), for\n"
		   "'ptbench model pgtable --snapshot FILE'. FILE is written to a temporary\n"
		   "file and renamed into place.\n"
		   "  --pid PID    the process (reading another user's process needs root)\n"
		   "  -o, --output FILE\n"
		   "\n"
		   "Exit status: 0 written, 1 the file could not be written, 2 bad usage or\n"
		   "an unreadable process.\n");
}

static int write_snapshot(const char *path, const struct pt_layout *l)
{
	size_t cap = pt_snapshot_size_max(l), used;
	uint8_t *buf = malloc(cap);
	char err[200], tmp[PATH_MAX];
	FILE *f;
	int rc = PT_EXIT_FAIL, ret;

	if (!buf) {
		fprintf(stderr, "ptbench snapshot: out of memory\n");
		return PT_EXIT_FAIL;
	}
	if (pt_snapshot_encode(l, buf, cap, &used, err, sizeof(err))) {
		fprintf(stderr, "ptbench snapshot: %s\n", err);
		goto out;
	}
	f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f) {
		fprintf(stderr, "ptbench snapshot: %s: %s\n", path, strerror(errno));
		goto out;
	}
	if (fwrite(buf, 1, used, f) != used) {
		fprintf(stderr, "ptbench snapshot: %s: write failed\n", path);
		pt_atomic_abort(f, tmp);
		goto out;
	}
	ret = pt_atomic_commit(f, tmp, path);
	if (ret) {
		/* the reason is what commit returns: its cleanup may change errno */
		fprintf(stderr, "ptbench snapshot: %s: %s\n", path, strerror(-ret));
		goto out;
	}
	printf("wrote %s: pid %u (%s), %zu extents, %" PRIu64 " bytes populated, %zu bytes\n", path,
	       l->pid, l->comm, l->n, pt_layout_bytes(l), used);
	rc = PT_EXIT_OK;
out:
	free(buf);
	return rc;
}

static const struct option longopts[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_snapshot(int argc, char **argv)
{
	struct pt_pagemap_stats st;
	struct pt_regime rg;
	struct pt_layout l;
	const char *out = NULL;
	char err[256];
	long pid = -1;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (pt_parse_long(optarg, 1, PID_MAX, &pid))
				return pt_usage_error("snapshot", "--pid '%s': not a process id",
						      optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			snapshot_usage(stdout);
			return PT_EXIT_OK;
		default:
			return pt_opt_error("snapshot", c, argc, argv);
		}
	}
	if (optind < argc)
		return pt_usage_error("snapshot", "unexpected argument '%s'", argv[optind]);
	if (pid <= 0 || !out)
		return pt_usage_error("snapshot", "--pid PID and -o FILE are both required");
	if (pt_pagemap_read((int)pid, 0, &l, &st, err, sizeof(err))) {
		fprintf(stderr, "ptbench snapshot: pid %ld: %s\n", pid, err);
		return PT_EXIT_USAGE;
	}
	if (!pt_regime_detect(&rg))
		l.va_bits = rg.va_bits <= 64 ? rg.va_bits : 0;
	rc = write_snapshot(out, &l);
	pt_layout_free(&l);
	return rc;
}
