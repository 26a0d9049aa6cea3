// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include "harness/damon.h"
#include "util/sysfs.h"

#define DAMON_DIR "/sys/kernel/mm/damon/admin/kdamonds"
#define MAX_LISTED 8

static void append(char *out, size_t len, size_t *o, const char *fmt, const char *a, const char *b)
{
	int n;

	if (*o >= len)
		return;
	n = snprintf(out + *o, len - *o, fmt, a, b);
	if (n > 0)
		*o += (size_t)n;
}

/* Context c of kdamond k: its operations set and the actions of its schemes. */
static void describe_context(unsigned k, unsigned c, char *out, size_t len, size_t *o)
{
	char path[160], ops[32], act[32];
	long nr = 0, s;

	snprintf(path, sizeof(path), DAMON_DIR "/%u/contexts/%u/operations", k, c);
	if (pt_sys_read(path, ops, sizeof(ops)) < 0)
		snprintf(ops, sizeof(ops), "?");
	append(out, len, o, "%s%s", c ? ", " : "", ops);
	snprintf(path, sizeof(path), DAMON_DIR "/%u/contexts/%u/schemes/nr_schemes", k, c);
	if (pt_sys_read_long(path, &nr) || nr <= 0) {
		append(out, len, o, "%s%s", ", no schemes", "");
		return;
	}
	for (s = 0; s < nr && s < MAX_LISTED; s++) {
		snprintf(path, sizeof(path), DAMON_DIR "/%u/contexts/%u/schemes/%ld/action", k, c,
			 s);
		if (pt_sys_read(path, act, sizeof(act)) < 0)
			snprintf(act, sizeof(act), "?");
		append(out, len, o, "%s%s", s ? " " : ", schemes ", act);
	}
}

void pt_damon_describe(char *out, size_t len)
{
	char path[160], state[32], pid[32];
	long n = 0, nctx;
	unsigned k, c;
	size_t o = 0;

	out[0] = '\0';
	if (pt_sys_read_long(DAMON_DIR "/nr_kdamonds", &n))
		return;
	if (n <= 0) {
		snprintf(out, len, "none");
		return;
	}
	for (k = 0; k < (unsigned)n && k < MAX_LISTED; k++) {
		snprintf(path, sizeof(path), DAMON_DIR "/%u/state", k);
		if (pt_sys_read(path, state, sizeof(state)) < 0)
			snprintf(state, sizeof(state), "?");
		snprintf(path, sizeof(path), DAMON_DIR "/%u/pid", k);
		if (pt_sys_read(path, pid, sizeof(pid)) < 0)
			snprintf(pid, sizeof(pid), "?");
		if (o < len)
			o += (size_t)snprintf(out + o, len - o,
					      "%skdamond %u %s (pid %s): ", k ? "; " : "", k, state,
					      pid);
		snprintf(path, sizeof(path), DAMON_DIR "/%u/contexts/nr_contexts", k);
		if (pt_sys_read_long(path, &nctx) || nctx <= 0) {
			append(out, len, &o, "%s%s", "no contexts", "");
			continue;
		}
		for (c = 0; c < (unsigned)nctx && c < MAX_LISTED; c++)
			describe_context(k, c, out, len, &o);
	}
	if (o >= len && len > 4)
		memcpy(out + len - 4, "...", 4);
}
