// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/sink.h"
#include "util/csv.h"

static void test_escape(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(pt_csv_escape("plain", out, sizeof(out)), 0);
	assert_string_equal(out, "plain");
	assert_int_equal(pt_csv_escape("a,b", out, sizeof(out)), 0);
	assert_string_equal(out, "\"a,b\"");
	assert_int_equal(pt_csv_escape("say \"hi\"", out, sizeof(out)), 0);
	assert_string_equal(out, "\"say \"\"hi\"\"\"");
	assert_int_equal(pt_csv_escape("two\nlines", out, sizeof(out)), 0);
	assert_string_equal(out, "\"two\nlines\"");
	assert_int_equal(pt_csv_escape("", out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(pt_csv_escape("far too long for it", out, 8), -1);
}

static void test_better(void **state)
{
	enum pt_better b;

	(void)state;
	assert_int_equal(pt_better_parse("higher", &b), 0);
	assert_int_equal(b, PT_HIGHER);
	assert_string_equal(pt_better_name(PT_LOWER), "lower");
	assert_int_equal(pt_better_parse("up", &b), -1);
}

static char *slurp(const char *path)
{
	static char buf[65536];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_in_place(void **state)
{
	char dir[] = "/tmp/ptbench-sink-XXXXXX", path[256], *text;
	struct pt_sink *s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	assert_int_equal(pt_sink_open(&s, path), 0);
	/* the header is on disk at once: a run killed before its first round has it */
	assert_string_equal(slurp(path), PT_CSV_HEADER "\n");
	assert_int_equal(pt_sink_row(s, "tlb", "chase-4k-1M", "backing=4k;ws=1048576", 0,
				     "ns_per_access", 2.5, "ns", PT_LOWER),
			 0);
	/* NaN is never written: a missing row is not a number. */
	assert_int_not_equal(pt_sink_row(s, "tlb", "x", "", 0, "m", NAN, "ns", PT_LOWER), 0);
	assert_int_equal(pt_sink_row(s, "w", "a,b", "k=\"v\"", 1, "m", 1e-12, "s", PT_NEITHER), 0);
	assert_int_equal(pt_sink_rows(s), 2);
	/* pending rows are not in the file until the round's commit */
	assert_string_equal(slurp(path), PT_CSV_HEADER "\n");
	assert_int_equal(pt_sink_commit(s), 0);
	assert_int_equal(pt_sink_close(s), 0);
	text = slurp(path);
	assert_non_null(text);
	assert_string_equal(text, PT_CSV_HEADER
			    "\n"
			    "tlb,chase-4k-1M,backing=4k;ws=1048576,0,ns_per_access,2.5,ns,lower\n"
			    "w,\"a,b\",\"k=\"\"v\"\"\",1,m,1e-12,s,neither\n");
	/* never over an existing file, never through a symlink */
	assert_int_equal(pt_sink_open(&s, path), -EEXIST);
	snprintf(path, sizeof(path), "%s/link.csv", dir);
	assert_int_equal(symlink("/nonexistent-ptbench-target", path), 0);
	assert_int_equal(pt_sink_open(&s, path), -EEXIST);
	assert_int_not_equal(access("/nonexistent-ptbench-target", F_OK), 0);
	/* An aborted sink with no committed row leaves nothing behind. */
	snprintf(path, sizeof(path), "%s/aborted.csv", dir);
	assert_int_equal(pt_sink_open(&s, path), 0);
	assert_int_equal(pt_sink_row(s, "w", "c", "", 0, "m", 1, "s", PT_LOWER), 0);
	pt_sink_abort(s);
	assert_int_not_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

/* A retried repetition's rows are dropped before they reach the file. */
static void test_rewind(void **state)
{
	char dir[] = "/tmp/ptbench-sink-XXXXXX", path[256];
	struct pt_sink_mark m;
	struct pt_sink *s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	assert_int_equal(pt_sink_open(&s, path), 0);
	assert_int_equal(pt_sink_row(s, "w", "c", "", 0, "m", 1, "s", PT_LOWER), 0);
	m = pt_sink_mark(s);
	assert_int_equal(pt_sink_row(s, "w", "c", "", 1, "m", 2, "s", PT_LOWER), 0);
	pt_sink_rewind(s, m);
	assert_int_equal(pt_sink_rows(s), 1);
	assert_int_equal(pt_sink_row(s, "w", "c", "", 1, "m", 3, "s", PT_LOWER), 0);
	assert_int_equal(pt_sink_close(s), 0);
	assert_string_equal(slurp(path),
			    PT_CSV_HEADER "\nw,c,,0,m,1,s,lower\nw,c,,1,m,3,s,lower\n");
	unlink(path);
	rmdir(dir);
}

/*
 * A write that fails part-way (a full disk; here RLIMIT_FSIZE, EFBIG) is
 * reported and cut back to the last commit: the file holds whole rows only,
 * and the rows committed before are kept.
 */
static void test_write_error(void **state)
{
	char dir[] = "/tmp/ptbench-sink-XXXXXX", path[256], *text;
	struct rlimit old, lim;
	struct pt_sink *s;
	size_t before;
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	assert_int_equal(pt_sink_open(&s, path), 0);
	assert_int_equal(pt_sink_row(s, "w", "c", "", 0, "m", 1, "s", PT_LOWER), 0);
	assert_int_equal(pt_sink_commit(s), 0);
	before = strlen(slurp(path));
	for (i = 0; i < 200; i++)
		assert_int_equal(pt_sink_row(s, "w", "c", "", 1, "metric", i, "s", PT_LOWER), 0);
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = before + 100; /* a row or two fits, then EFBIG */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(pt_sink_commit(s), -EFBIG);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	text = slurp(path);
	assert_int_equal(strlen(text), before);
	assert_string_equal(text, PT_CSV_HEADER "\nw,c,,0,m,1,s,lower\n");
	/* the pending rows are kept: a later commit with room writes them after */
	assert_int_equal(pt_sink_close(s), 0);
	assert_true(strlen(slurp(path)) > before);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),	    cmocka_unit_test(test_better),
		cmocka_unit_test(test_in_place),    cmocka_unit_test(test_rewind),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
