// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sysfs knobs are restored at exit and on SIGINT/SIGTERM, in a fixture tree;
 * after SIGKILL the next run restores them from the journal; a second run
 * cannot change knobs while the first holds the lock.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/knobs.h"
#include "util/sysfs.h"

#define ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"
#define POOL "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"

static char root[64];

static int make_root(void **state)
{
	char cmd[512];
	const char *fx = getenv("PTBENCH_FIXTURES");

	(void)state;
	snprintf(root, sizeof(root), "/tmp/ptbench-knobs-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -r %s/sysroot-x86_64/. %s/ && chmod -R u+w %s",
		 fx ? fx : "tests/fixtures", root, root);
	if (system(cmd))
		return -1;
	setenv("PTBENCH_SYSROOT", root, 1);
	pt_sysroot_reload();
	return 0;
}

static int remove_root(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) ? -1 : 0;
}

static void read_knob(const char *path, char *buf, size_t len)
{
	assert_true(pt_sys_read(path, buf, len) >= 0);
}

/* In a child: change two knobs, then end as told. Returns the wait status. */
static int child_changes_knobs(int how)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (!pid) {
		if (pt_knob_set(ENABLED, "always") || pt_knob_set(POOL, "512"))
			_exit(3);
		if (pt_knob_set(ENABLED, "never")) /* a second write keeps the first saved value */
			_exit(3);
		if (how == SIGINT || how == SIGTERM || how == SIGKILL)
			raise(how);
		exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void check_restored(void)
{
	char buf[64];

	assert_int_equal(pt_sys_read_choice(ENABLED, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	read_knob(POOL, buf, sizeof(buf));
	assert_string_equal(buf, "0");
}

/* Under qemu-user (7.2) here, a forked guest child never ends: no fork tests. */
static bool emulated(void)
{
	const char *e = getenv("PTBENCH_EMULATED");

	return e && !strcmp(e, "1");
}

static void test_restored_on_sigint(void **state)
{
	int status;

	(void)state;
	if (emulated())
		skip();
	status = child_changes_knobs(SIGINT);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGINT);
	check_restored();
}

static void test_restored_on_sigterm(void **state)
{
	int status;

	(void)state;
	if (emulated())
		skip();
	status = child_changes_knobs(SIGTERM);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	check_restored();
}

static void test_restored_at_exit(void **state)
{
	int status;

	(void)state;
	if (emulated())
		skip();
	status = child_changes_knobs(0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	check_restored();
}

static bool journal_exists(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/run/ptbench/knobs.journal", root);
	return access(path, F_OK) == 0;
}

/* A second run refuses (here: after a 1 s wait) while the first holds the lock. */
static void test_concurrent_run_refused(void **state)
{
	int go[2], done[2], status;
	char note[512], c = 0;
	pid_t pid;

	(void)state;
	if (emulated())
		skip();
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(go[0]);
		close(done[1]);
		if (pt_knob_lock(0, note, sizeof(note)) || pt_knob_set(ENABLED, "always"))
			_exit(3);
		if (write(go[1], "x", 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(4);
		exit(0);
	}
	close(go[1]);
	close(done[0]);
	assert_int_equal(read(go[0], &c, 1), 1);
	assert_int_equal(pt_knob_lock(1, note, sizeof(note)), -EBUSY);
	assert_non_null(strstr(note, "another ptbench run holds the lock"));
	assert_int_equal(pt_knob_set(POOL, "4"), -EBUSY); /* no knob changes either */
	assert_int_equal(write(done[1], "x", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	check_restored();
	assert_false(journal_exists());
	close(go[0]);
	close(done[1]);
}

/* SIGKILL runs no handler: the next run's lock restores from the journal. */
static void test_sigkill_recovered_by_next_run(void **state)
{
	char note[512], buf[64];
	int status;

	(void)state;
	if (emulated())
		skip();
	status = child_changes_knobs(SIGKILL);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(pt_sys_read_choice(ENABLED, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "never"); /* left changed */
	assert_true(journal_exists());
	assert_int_equal(pt_knob_lock(0, note, sizeof(note)), 0);
	assert_non_null(strstr(note, "restored 2 knob(s)"));
	assert_non_null(strstr(pt_knob_recovered(), ENABLED "=madvise"));
	check_restored();
	assert_false(journal_exists());
}

static void test_set_and_restore_in_process(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(pt_knob_set(POOL, "8"), 0);
	assert_int_equal(pt_knob_count(), 1);
	read_knob(POOL, buf, sizeof(buf));
	assert_string_equal(buf, "8");
	assert_true(journal_exists());
	pt_knob_restore_all();
	assert_int_equal(pt_knob_count(), 0);
	check_restored();
	assert_false(journal_exists());
	assert_int_not_equal(pt_knob_set("/sys/no/such/knob", "1"), 0);
	assert_int_equal(pt_knob_count(), 0);
}

int main(void)
{
	/*
	 * Order matters: a child restores only knobs it changed itself, so the
	 * children that restore come before this process changes any; and once
	 * this process holds the lock it keeps it.
	 */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restored_on_sigint),
		cmocka_unit_test(test_restored_on_sigterm),
		cmocka_unit_test(test_restored_at_exit),
		cmocka_unit_test(test_concurrent_run_refused),
		cmocka_unit_test(test_sigkill_recovered_by_next_run),
		cmocka_unit_test(test_set_and_restore_in_process),
	};

	return cmocka_run_group_tests(tests, make_root, remove_root);
}
