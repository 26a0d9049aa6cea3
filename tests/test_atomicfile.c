// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files written safely: renamed into place, never written through a
 * link, and a device or FIFO named as the output written, not replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/atomicfile.h"

static char dir[] = "/tmp/ptbench-atomic-XXXXXX";

static void at(char *out, const char *name)
{
	snprintf(out, PATH_MAX, "%s/%s", dir, name);
}

static int write_text(const char *path, const char *text)
{
	char tmp[PATH_MAX + 32];
	FILE *f = pt_atomic_open(path, tmp, sizeof(tmp));

	if (!f)
		return -errno;
	fputs(text, f);
	return pt_atomic_commit(f, tmp, path);
}

static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void test_new_and_replaced(void **state)
{
	char path[PATH_MAX], buf[64];

	(void)state;
	at(path, "out.csv");
	assert_int_equal(write_text(path, "one\n"), 0);
	read_text(path, buf, sizeof(buf));
	assert_string_equal(buf, "one\n");
	assert_int_equal(write_text(path, "two\n"), 0);
	read_text(path, buf, sizeof(buf));
	assert_string_equal(buf, "two\n");
}

/*
 * '-o /dev/null' writes to it and leaves it a character device. A null
 * device node of the test's own (mknod, root only), so that a regression
 * replaces that node and never the machine's /dev/null.
 */
static void test_dev_null_written_not_replaced(void **state)
{
	char path[PATH_MAX];
	struct stat st;

	(void)state;
	at(path, "null");
	if (mknod(path, S_IFCHR | 0666, makedev(1, 3)))
		skip();
	assert_int_equal(write_text(path, "discarded\n"), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	unlink(path);
}

static void test_fifo_written(void **state)
{
	char path[PATH_MAX], buf[64];
	struct stat st;
	ssize_t n;
	int rd;

	(void)state;
	at(path, "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	/* a reader first, so the writer's open does not wait for one */
	rd = open(path, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	assert_int_equal(write_text(path, "through the pipe\n"), 0);
	n = read(rd, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "through the pipe\n");
	close(rd);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	unlink(path);
}

static void test_directory_refused(void **state)
{
	char path[PATH_MAX];

	(void)state;
	at(path, "adir");
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(write_text(path, "x\n"), -EISDIR);
	rmdir(path);
}

/* a link to a device is neither written through nor replaced */
static void test_link_to_device_refused(void **state)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct stat st;
	ssize_t n;

	(void)state;
	at(path, "to-null");
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(write_text(path, "x\n"), -EINVAL);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	n = readlink(path, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "/dev/null");
	unlink(path);
}

/* a link to a regular file: the link is replaced, its target untouched */
static void test_link_to_file_replaced(void **state)
{
	char path[PATH_MAX], victim[PATH_MAX], buf[64];
	struct stat st;

	(void)state;
	at(victim, "victim");
	at(path, "to-victim");
	assert_int_equal(write_text(victim, "keep\n"), 0);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(write_text(path, "new\n"), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	read_text(path, buf, sizeof(buf));
	assert_string_equal(buf, "new\n");
	read_text(victim, buf, sizeof(buf));
	assert_string_equal(buf, "keep\n");
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_and_replaced),
		cmocka_unit_test(test_dev_null_written_not_replaced),
		cmocka_unit_test(test_fifo_written),
		cmocka_unit_test(test_directory_refused),
		cmocka_unit_test(test_link_to_device_refused),
		cmocka_unit_test(test_link_to_file_replaced),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
