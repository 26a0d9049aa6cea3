// SPDX-License-Identifier: GPL-2.0-only
/* The run directory's rules: new or empty, ours, not writable by others; --force clears. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/outdir.h"
#include "util/path.h"

static void touch(const char *dir, const char *name)
{
	char path[PATH_MAX];
	FILE *f;

	assert_int_equal(pt_path_join(path, sizeof(path), dir, name), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old\n", f);
	fclose(f);
}

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	assert_int_equal(pt_path_join(path, sizeof(path), dir, name), 0);
	return !lstat(path, &st);
}

static void test_new_and_empty(void **state)
{
	char base[] = "/tmp/ptbench-outdir-XXXXXX", dir[PATH_MAX], err[PATH_MAX + 200];
	bool created;

	(void)state;
	assert_non_null(mkdtemp(base));
	assert_int_equal(chmod(base, 0755), 0);
	assert_int_equal(pt_path_join(dir, sizeof(dir), base, "run"), 0);
	assert_int_equal(pt_outdir_prepare(dir, false, &created, err, sizeof(err)), 0);
	assert_true(created);
	/* existing and empty: fine, not created */
	assert_int_equal(pt_outdir_prepare(dir, false, &created, err, sizeof(err)), 0);
	assert_false(created);
	/* a file where the directory should be */
	touch(base, "file");
	assert_int_equal(pt_path_join(dir, sizeof(dir), base, "file"), 0);
	assert_int_equal(pt_outdir_prepare(dir, false, &created, err, sizeof(err)), -1);
	assert_int_equal(errno, ENOTDIR);
	assert_int_equal(pt_path_join(dir, sizeof(dir), base, "run"), 0);
	rmdir(dir);
	assert_int_equal(pt_path_join(dir, sizeof(dir), base, "file"), 0);
	unlink(dir);
	rmdir(base);
}

/*
 * A directory with an earlier run in it was silently reused: new results
 * beside a stale REPORT.md, figures and walk_model.csv. Refused now; with
 * force, exactly ptbench's artefacts go, symlinks in figures/ unfollowed.
 */
static void test_non_empty_and_force(void **state)
{
	char dir[] = "/tmp/ptbench-outdir-XXXXXX", sub[PATH_MAX], victim[PATH_MAX];
	char err[PATH_MAX + 200];
	bool created;
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	for (i = 0; pt_outdir_artefacts[i]; i++)
		if (strcmp(pt_outdir_artefacts[i], "figures") &&
		    strcmp(pt_outdir_artefacts[i], "plot-data"))
			touch(dir, pt_outdir_artefacts[i]);
	assert_int_equal(pt_path_join(sub, sizeof(sub), dir, "figures"), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	touch(sub, "fig.png");
	/* a file outside, linked from figures/: the link goes, the file stays */
	touch(dir, "keep.txt");
	touch(dir, "meta.json.tmp.1234"); /* a writer killed by SIGKILL */
	touch(dir, "keep.tmp.1234");
	assert_int_equal(pt_path_join(victim, sizeof(victim), dir, "keep.txt"), 0);
	assert_int_equal(pt_path_join(sub, sizeof(sub), dir, "figures/link"), 0);
	assert_int_equal(symlink(victim, sub), 0);

	assert_int_equal(pt_outdir_prepare(dir, false, &created, err, sizeof(err)), -1);
	assert_int_equal(errno, EEXIST);
	assert_non_null(strstr(err, "not empty"));
	assert_non_null(strstr(err, "--force"));
	assert_true(exists(dir, "results.csv"));

	assert_int_equal(pt_outdir_prepare(dir, true, &created, err, sizeof(err)), 0);
	for (i = 0; pt_outdir_artefacts[i]; i++)
		assert_false(exists(dir, pt_outdir_artefacts[i]));
	assert_true(exists(dir, "keep.txt")); /* not ptbench's: kept */
	assert_false(exists(dir, "meta.json.tmp.1234"));
	assert_true(exists(dir, "keep.tmp.1234"));
	unlink(victim);
	assert_int_equal(pt_path_join(victim, sizeof(victim), dir, "keep.tmp.1234"), 0);
	unlink(victim);
	rmdir(dir);
}

/* A directory others can write to: they could swap results.csv for a symlink. */
static void test_others(void **state)
{
	char dir[] = "/tmp/ptbench-outdir-XXXXXX", err[PATH_MAX + 200];
	bool created;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(pt_outdir_prepare(dir, false, &created, err, sizeof(err)), -1);
	assert_int_equal(errno, EPERM);
	assert_non_null(strstr(err, "writable by others"));
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(pt_outdir_prepare(dir, true, &created, err, sizeof(err)), -1);
	assert_int_equal(chmod(dir, 0755), 0);
	if (geteuid() == 0) {
		/* root, as ptbench runs: a directory another user made is refused */
		assert_int_equal(chown(dir, 65534, 65534), 0);
		assert_int_equal(pt_outdir_prepare(dir, false, &created, err, sizeof(err)), -1);
		assert_int_equal(errno, EPERM);
		assert_non_null(strstr(err, "owned by uid 65534"));
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_and_empty),
		cmocka_unit_test(test_non_empty_and_force),
		cmocka_unit_test(test_others),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
