// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/child.h"
#include "util/fileio.h"

/* Under qemu-user (7.2) here, a forked guest child never ends: no fork tests. */
static bool emulated(void)
{
	const char *e = getenv("PTBENCH_EMULATED");

	return e && !strcmp(e, "1");
}

static void test_status_and_log(void **state)
{
	char log[] = "/tmp/ptbench-test-child-XXXXXX", err[256], *text;
	char *ok[] = { "/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	char *killed[] = { "/bin/sh", "-c", "kill -KILL $$", NULL };
	char *missing[] = { "/nonexistent/prog", NULL };
	size_t len;
	int fd, status = -2;

	(void)state;
	if (emulated())
		skip();
	fd = mkstemp(log);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pt_child_run("test", ok, log, &status), 0);
	assert_int_equal(status, 3);
	text = pt_read_file(log, 4096, &len, err, sizeof(err));
	assert_non_null(text);
	assert_string_equal(text, "out\nerr\n");
	free(text);

	assert_int_equal(pt_child_run("test", killed, NULL, &status), 0);
	assert_int_equal(status, -1);

	assert_int_equal(pt_child_run("test", missing, log, &status), 0);
	assert_int_equal(status, 127);
	text = pt_read_file(log, 4096, &len, err, sizeof(err));
	assert_non_null(text);
	assert_non_null(strstr(text, "test: cannot run /nonexistent/prog: "));
	free(text);
	unlink(log);
}

/* A stop signal to this process goes on to the child, which is reaped. */
static void test_forward(void **state)
{
	/* the child signals its parent, then would sleep a minute */
	char *argv[] = { "/bin/sh", "-c", "kill -TERM $PPID; exec sleep 60", NULL };
	int status = -2;

	(void)state;
	if (emulated())
		skip();
	pt_child_forward_signals();
	assert_int_equal(pt_child_stop_signal(), 0);
	assert_int_equal(pt_child_run("test", argv, NULL, &status), SIGTERM);
	assert_int_equal(pt_child_stop_signal(), SIGTERM);
	assert_int_equal(status, -2); /* not set: the run was stopped */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_and_log),
		cmocka_unit_test(test_forward),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
