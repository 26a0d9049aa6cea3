// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/fileio.h"
#include "util/path.h"

static void test_join(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(pt_path_join(buf, sizeof(buf), "dir", "name"), 0);
	assert_string_equal(buf, "dir/name");
	/* 15 characters fit in 16 bytes, 16 do not */
	assert_int_equal(pt_path_join(buf, sizeof(buf), "0123456789", "abcd"), 0);
	assert_string_equal(buf, "0123456789/abcd");
	errno = 0;
	assert_int_equal(pt_path_join(buf, sizeof(buf), "0123456789", "abcde"), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_string_equal(buf, "");
	assert_int_equal(pt_path_join(buf, 0, "a", "b"), -1);
}

static void test_mkdir_and_read(void **state)
{
	char dir[] = "/tmp/ptbench-test-path-XXXXXX", deep[PATH_MAX], file[PATH_MAX];
	char err[PATH_MAX + 64], *buf;
	struct stat st;
	size_t len;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(pt_path_join(deep, sizeof(deep), dir, "a/b/c"), 0);
	assert_int_equal(pt_mkdir_p(deep, 0755), 0);
	assert_int_equal(pt_mkdir_p(deep, 0755), 0); /* existing: fine */
	assert_int_equal(stat(deep, &st), 0);
	assert_true(S_ISDIR(st.st_mode));

	assert_int_equal(pt_path_join(file, sizeof(file), deep, "f"), 0);
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("0123456789", f);
	fclose(f);
	buf = pt_read_file(file, 10, &len, err, sizeof(err));
	assert_non_null(buf);
	assert_int_equal(len, 10);
	assert_string_equal(buf, "0123456789");
	free(buf);
	/* one byte over the limit is an error, not a prefix */
	errno = 0;
	assert_null(pt_read_file(file, 9, &len, err, sizeof(err)));
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(err, "larger than 9 bytes"));
	assert_int_equal(unlink(file), 0);
	assert_null(pt_read_file(file, 10, &len, err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, file));

	/* a file where a directory is wanted */
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(pt_path_join(deep, sizeof(deep), file, "x"), 0);
	assert_int_equal(pt_mkdir_p(deep, 0755), -1);
	unlink(file);
	assert_int_equal(pt_path_join(deep, sizeof(deep), dir, "a/b/c"), 0);
	rmdir(deep);
	assert_int_equal(pt_path_join(deep, sizeof(deep), dir, "a/b"), 0);
	rmdir(deep);
	assert_int_equal(pt_path_join(deep, sizeof(deep), dir, "a"), 0);
	rmdir(deep);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_mkdir_and_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
