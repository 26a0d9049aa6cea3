// SPDX-License-Identifier: GPL-2.0-only
/* The strict results.csv reader and the meta.json extractor. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/rundir.h"

#define HDR PT_CSV_HEADER "\n"

static int parse_str(const char *text, struct pt_rundir *r, char *err, size_t errlen)
{
	/* fmemopen refuses a zero-length buffer on older glibc. */
	FILE *f = *text ? fmemopen((void *)text, strlen(text), "r") : fopen("/dev/null", "r");
	int ret;

	assert_non_null(f);
	memset(r, 0, sizeof(*r));
	err[0] = '\0';
	ret = pt_results_parse(f, "t.csv", r, err, errlen);
	fclose(f);
	return ret;
}

/* The text must be refused with a message that contains want. */
static void expect_error(const char *text, const char *want)
{
	struct pt_rundir r;
	char err[512];

	assert_int_equal(parse_str(text, &r, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' does not contain '%s'", err, want);
}

/*
 * Every line of tests/fixtures/numbers.txt through the reader: a row with
 * that rep or value is read or refused as the line says (the Python reader
 * is held to the same file by plot/test_ptdata.py).
 */
static void test_one_number_definition(void **state)
{
	const char *fx = getenv("PTBENCH_FIXTURES");
	char path[512], line[256], csv[512];
	int checked = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/numbers.txt", fx ? fx : "tests/fixtures");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *kind = line, *verdict, *text;
		struct pt_rundir r;
		char err[512];
		int ret;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		verdict = strchr(kind, ' ');
		assert_non_null(verdict);
		*verdict++ = '\0';
		text = strchr(verdict, ' ');
		assert_non_null(text);
		*text++ = '\0';
		if (!strcmp(text, "<empty>"))
			text = "";
		if (!strcmp(kind, "rep"))
			snprintf(csv, sizeof(csv), HDR "w,c,,%s,m,1,ns,lower\n", text);
		else
			snprintf(csv, sizeof(csv), HDR "w,c,,0,m,%s,ns,lower\n", text);
		ret = parse_str(csv, &r, err, sizeof(err));
		if ((ret == 0) != !strcmp(verdict, "ok"))
			fail_msg("%s '%s': read gives %d, the fixture says %s (%s)", kind, text,
				 ret, verdict, err);
		if (!ret)
			pt_rundir_free(&r);
		checked++;
	}
	fclose(f);
	assert_true(checked > 30);
}

static void test_newer_schema_refused(void **state)
{
	struct pt_rundir_meta m;
	char err[256];

	(void)state;
	assert_int_equal(pt_meta_parse("{\"schema_version\": 1}", "m.json", &m, err, sizeof(err)),
			 0);
	assert_int_equal(pt_meta_parse("{\"schema_version\": 2}", "m.json", &m, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "newer than this ptbench reads"));
}

static void test_groups_and_sorts(void **state)
{
	const char *csv = HDR "tlb,b,size=1M,1,ns_per_access,2.5,ns,lower\n"
			      "tlb,b,size=1M,0,ns_per_access,1.5,ns,lower\n"
			      "fault,a,,0,ops,100,count,higher\n"
			      "tlb,b,size=1M,0,check,1,ratio,neither\n";
	struct pt_rundir r;
	char err[256];

	(void)state;
	assert_int_equal(parse_str(csv, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nrows, 4);
	assert_int_equal(r.nseries, 3);
	assert_string_equal(r.series[0].workload, "fault");
	assert_int_equal(r.series[0].better, PT_HIGHER);
	assert_string_equal(r.series[0].params, "");
	assert_string_equal(r.series[1].metric, "check");
	assert_int_equal(r.series[1].better, PT_NEITHER);
	assert_string_equal(r.series[2].metric, "ns_per_access");
	assert_int_equal(r.series[2].n, 2);
	/* ordered by rep, not by line */
	assert_int_equal(r.series[2].reps[0], 0);
	assert_true(r.series[2].values[0] == 1.5);
	assert_true(r.series[2].values[1] == 2.5);
	assert_int_equal(r.series[2].line, 2);
	pt_rundir_free(&r);
}

static void test_quoting_and_crlf(void **state)
{
	const char *csv = "workload,case,params,rep,metric,value,unit,better\r\n"
			  "w,\"a,b\",\"k=\"\"x\"\"\",0,m,1e3,ns,lower\r\n"
			  "w,\"two\nlines\",,0,m,2,ns,lower\r\n"
			  "w,c,,0,m,nan,ns,lower\r\n";
	struct pt_rundir r;
	char err[256];

	(void)state;
	/* The row after the two-line field starts on physical line 5. */
	assert_int_equal(parse_str(csv, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.csv:5:"));
	assert_non_null(strstr(err, "value 'nan'"));
	assert_int_equal(parse_str("workload,case,params,rep,metric,value,unit,better\r\n"
				   "w,\"a,b\",\"k=\"\"x\"\"\",0,m,1e3,ns,lower\r\n"
				   "w,\"two\nlines\",,0,m,2,ns,lower",
				   &r, err, sizeof(err)),
			 0);
	assert_int_equal(r.nseries, 2);
	assert_string_equal(r.series[0].cs, "a,b");
	assert_string_equal(r.series[0].params, "k=\"x\"");
	assert_true(r.series[0].values[0] == 1000);
	assert_string_equal(r.series[1].cs, "two\nlines");
	pt_rundir_free(&r);
}

static void test_bad_header(void **state)
{
	(void)state;
	expect_error("", "t.csv:1: empty file");
	expect_error("workload,case,params,rep,metric,value,unit\nw,c,,0,m,1,ns,lower\n",
		     "t.csv:1: header has 7 fields");
	expect_error("workload,case,params,rep,metric,val,unit,better\n",
		     "t.csv:1: header column 6");
}

static void test_bad_rows(void **state)
{
	(void)state;
	expect_error(HDR "w,c,,0,m,1,ns,lower\nw,c,,1,m,1,ns\n", "t.csv:3: 7 fields, expected 8");
	expect_error(HDR "w,c,,0,m,1,ns,lower,x\n", "t.csv:2: 9 fields");
	expect_error(HDR "w,c,,0,m,fast,ns,lower\n", "t.csv:2: value 'fast' is not a finite");
	expect_error(HDR "w,c,,0,m,,ns,lower\n", "t.csv:2: value ''");
	expect_error(HDR "w,c,,0,m,inf,ns,lower\n", "t.csv:2: value 'inf'");
	expect_error(HDR "w,c,,0,m,0x10,ns,lower\n", "t.csv:2: value '0x10'");
	expect_error(HDR "w,c,,0,m,1 ,ns,lower\n", "t.csv:2: value '1 '");
	expect_error(HDR "w,c,,0,m,1,ns,smaller\n", "t.csv:2: better 'smaller'");
	expect_error(HDR "w,c,,-1,m,1,ns,lower\n", "t.csv:2: rep '-1'");
	expect_error(HDR "w,c,,1.5,m,1,ns,lower\n", "t.csv:2: rep '1.5'");
	expect_error(HDR ",c,,0,m,1,ns,lower\n", "t.csv:2: empty workload");
	expect_error(HDR "w,c,,0,,1,ns,lower\n", "t.csv:2: empty metric");
	expect_error(HDR "w,c,,0,m,1,ns,lower\n\nw,c,,1,m,1,ns,lower\n", "t.csv:3: 1 fields");
	expect_error(HDR "w,\"c,,0,m,1,ns,lower\n", "t.csv:2: unterminated quoted field");
	expect_error(HDR "w,\"c\"x,,0,m,1,ns,lower\n", "t.csv:2: text after a closing quote");
	expect_error(HDR "w,c\"d,,0,m,1,ns,lower\n", "t.csv:2: quote inside an unquoted");
}

static void test_series_consistency(void **state)
{
	(void)state;
	expect_error(HDR "w,c,,0,m,1,ns,lower\nw,c,,0,m,2,ns,lower\n", "t.csv:3: rep 0 of w/c/m");
	expect_error(HDR "w,c,,0,m,1,ns,lower\nw,c,,1,m,2,us,lower\n", "t.csv:3: unit 'us'");
	expect_error(HDR "w,c,,0,m,1,ns,lower\nw,c,,1,m,2,ns,higher\n",
		     "t.csv:3: better 'higher' differs");
}

static void test_meta(void **state)
{
	const char *json = "{\n  \"schema_version\": 1,\n  \"tool\": {\"name\": \"ptbench\", "
			   "\"version\": \"0.1.0\"},\n"
			   "  \"run\": {\"suite\": \"ci\", \"reps\": 10, \"workloads\": [\"a\", "
			   "\"b\"]},\n"
			   "  \"env\": {\"kernel_release\": \"6.1.0-x\", \"page_size\": 4096,\n"
			   "    \"hpage_pmd_size\": \"2097152\", \"thp_enabled\": \"madvise\",\n"
			   "    \"cpu_model\": \"Intel \\\"Xeon\\\" \\u00b5\", \"hw_pmu\": false,"
			   " \"nothing\": null, \"kconfig\": {},\n"
			   "    \"virtualization\": {\"virtualized\": true, "
			   "\"hypervisor\": \"KVM\"}},\n"
			   "  \"pinning\": {\"cpu\": 1, \"mode\": \"pick\"},\n"
			   "  \"regime\": {\"arch\": \"x86_64\", \"format\": \"D64\", \"text\": "
			   "\"x86-64 4-level\"}\n}\n";
	struct pt_rundir_meta m;
	char err[256];

	(void)state;
	assert_int_equal(pt_meta_parse(json, "meta.json", &m, err, sizeof(err)), 0);
	assert_true(m.present);
	assert_string_equal(m.kernel_release, "6.1.0-x");
	assert_string_equal(m.page_size, "4096");
	assert_string_equal(m.pmd_size, "2097152");
	assert_string_equal(m.thp_mode, "madvise");
	assert_string_equal(m.cpu_model, "Intel \"Xeon\" \xc2\xb5");
	assert_string_equal(m.pmu, "no");
	assert_string_equal(m.format, "D64");
	assert_string_equal(m.arch, "x86_64");
	assert_string_equal(m.regime_text, "x86-64 4-level");
	assert_string_equal(m.suite, "ci");
	assert_string_equal(m.reps, "10");
	assert_string_equal(m.tool_version, "0.1.0");
	assert_string_equal(m.virtualized, "true");
	assert_string_equal(m.hypervisor, "KVM");
	assert_string_equal(m.pinning, "pick");

	assert_int_equal(pt_meta_parse("{\"a\": 1,\n\"b\": }", "m.json", &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "m.json:2: invalid JSON"));
	assert_int_equal(pt_meta_parse("{\"a\": 1} x", "m.json", &m, err, sizeof(err)), -1);
	assert_int_equal(pt_meta_parse("[1]", "m.json", &m, err, sizeof(err)), -1);
	assert_int_equal(pt_meta_parse("{\"a\": \"x\n\"}", "m.json", &m, err, sizeof(err)), -1);
}

static void test_run_dir(void **state)
{
	char dir[] = "/tmp/ptbench-rr-XXXXXX", path[256], err[512];
	struct pt_rundir r;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(pt_rundir_read(dir, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "results.csv"));
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(HDR "w,c,,0,m,1,ns,lower\n", f);
	fclose(f);
	assert_int_equal(pt_rundir_read(dir, &r, err, sizeof(err)), 0);
	assert_false(r.meta.present);
	assert_non_null(strstr(r.meta_note, "No such file"));
	pt_rundir_free(&r);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"env\": {\"page_size\": 16384}}", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	assert_int_equal(pt_rundir_read(path, &r, err, sizeof(err)), 0);
	assert_true(r.meta.present);
	assert_string_equal(r.meta.page_size, "16384");
	pt_rundir_free(&r);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"env\": ", f);
	fclose(f);
	assert_int_equal(pt_rundir_read(dir, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "meta.json:1: invalid JSON"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	unlink(path);
	rmdir(dir);
	assert_int_equal(pt_rundir_read("/nonexistent/ptbench-run", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/ptbench-run: No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_number_definition),
		cmocka_unit_test(test_newer_schema_refused),
		cmocka_unit_test(test_groups_and_sorts),
		cmocka_unit_test(test_quoting_and_crlf),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_series_consistency),
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_run_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
