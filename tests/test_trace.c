// SPDX-License-Identifier: GPL-2.0-only
/* Lackey parsing, the binary trace format and its error reporting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/trace.h"

struct collect {
	struct pt_access a[64];
	size_t n, loads, stores, instrs;
};

static int collect_fn(const struct pt_access *a, void *p)
{
	struct collect *c = p;

	if (c->n < 64)
		c->a[c->n] = *a;
	c->n++;
	c->loads += a->kind == PT_ACC_LOAD || a->kind == PT_ACC_MODIFY;
	c->stores += a->kind == PT_ACC_STORE || a->kind == PT_ACC_MODIFY;
	c->instrs += a->kind == PT_ACC_INSTR;
	return 0;
}

static const char lackey_text[] = "==123== Lackey, an example Valgrind tool\n"
				  "I  04001a50,3\n"
				  " S 1ffefffe88,8\n"
				  " L 04026e30,8\n"
				  " M 0402a0c8,4\n"
				  "I  04001a53,5\n"
				  "\n"
				  " L 7ff000000010,32\n"
				  " S 00000008,100\n"
				  "==123== \n";

static void test_lackey_lines(void **state)
{
	struct pt_access a;
	char err[160];

	(void)state;
	assert_int_equal(pt_lackey_parse_line(" L 04026e30,8", &a, err, sizeof(err)), 1);
	assert_int_equal(a.kind, PT_ACC_LOAD);
	assert_int_equal(a.addr, 0x04026e30);
	assert_int_equal(a.size, 8);
	assert_int_equal(pt_lackey_parse_line("I  04001a50,3", &a, err, sizeof(err)), 1);
	assert_int_equal(a.kind, PT_ACC_INSTR);
	assert_int_equal(pt_lackey_parse_line("==1== hello", &a, err, sizeof(err)), 0);
	assert_int_equal(pt_lackey_parse_line("", &a, err, sizeof(err)), 0);
	assert_int_equal(pt_lackey_parse_line(" X 0400,8", &a, err, sizeof(err)), -1);
	assert_int_equal(pt_lackey_parse_line(" L 0400", &a, err, sizeof(err)), -1);
	assert_int_equal(pt_lackey_parse_line(" L zz,8", &a, err, sizeof(err)), -1);
	assert_int_equal(pt_lackey_parse_line(" L 0400,8x", &a, err, sizeof(err)), -1);
	assert_int_equal(pt_lackey_parse_line(" L 0400,0", &a, err, sizeof(err)), -1);
}

static void test_lackey_stream(void **state)
{
	FILE *f = fmemopen((void *)lackey_text, strlen(lackey_text), "r");
	struct collect c = { 0 };
	char err[256];

	(void)state;
	assert_non_null(f);
	assert_int_equal(pt_lackey_read(f, "mem", collect_fn, &c, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(c.n, 7);
	assert_int_equal(c.instrs, 2);
	assert_int_equal(c.a[5].addr, 0x7ff000000010ull);
	assert_int_equal(c.a[6].size, 100);
}

static void test_lackey_malformed_line_number(void **state)
{
	static const char bad[] = "I  0400,3\n L 0400,8\n L 04g0,8\n";
	FILE *f = fmemopen((void *)bad, strlen(bad), "r");
	struct collect c = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(pt_lackey_read(f, "trace.txt", collect_fn, &c, err, sizeof(err)), -1);
	fclose(f);
	assert_non_null(strstr(err, "trace.txt:3:"));
}

/* Write c's accesses as a binary trace into a malloc'd buffer. */
static char *encode(const struct collect *c, size_t *len)
{
	struct pt_trace_writer w;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	size_t i;

	assert_non_null(f);
	assert_int_equal(pt_trace_write_begin(&w, f), 0);
	for (i = 0; i < c->n; i++)
		assert_int_equal(pt_trace_write(&w, &c->a[i]), 0);
	assert_int_equal(pt_trace_write_end(&w), 0);
	fclose(f);
	return buf;
}

static void test_binary_round_trip(void **state)
{
	FILE *f = fmemopen((void *)lackey_text, strlen(lackey_text), "r");
	struct collect in = { 0 }, out = { 0 };
	char err[256], *buf;
	size_t len, i;

	(void)state;
	assert_int_equal(pt_lackey_read(f, "mem", collect_fn, &in, err, sizeof(err)), 0);
	fclose(f);
	/* addresses that go down as well as up, and the largest */
	in.a[in.n++] = (struct pt_access){ 0xffffffffffffffc0ull, 64, PT_ACC_STORE };
	in.a[in.n++] = (struct pt_access){ 0, 1, PT_ACC_LOAD };
	buf = encode(&in, &len);
	assert_true(len < 8 + in.n * 12);
	f = fmemopen(buf, len, "r");
	assert_int_equal(pt_trace_read(f, "bin", collect_fn, &out, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(out.n, in.n);
	for (i = 0; i < in.n; i++) {
		assert_int_equal(out.a[i].addr, in.a[i].addr);
		assert_int_equal(out.a[i].size, in.a[i].size);
		assert_int_equal(out.a[i].kind, in.a[i].kind);
	}
	free(buf);
}

/* Every proper prefix of a trace is rejected with an offset. */
static void test_binary_truncated(void **state)
{
	struct collect in = { 0 };
	char err[256], *buf;
	size_t len, cut;

	(void)state;
	in.a[in.n++] = (struct pt_access){ 0x400000, 8, PT_ACC_LOAD };
	in.a[in.n++] = (struct pt_access){ 0x7fff0000, 200, PT_ACC_STORE };
	buf = encode(&in, &len);
	for (cut = 0; cut < len; cut++) {
		struct collect out = { 0 };
		FILE *f = fmemopen(buf, cut ? cut : 1, "r");

		if (!cut)
			fgetc(f); /* an empty stream */
		assert_int_equal(pt_trace_read(f, "t.bin", collect_fn, &out, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "t.bin: offset "));
		fclose(f);
	}
	buf[0] = 'X';
	{
		FILE *f = fmemopen(buf, len, "r");
		struct collect out = { 0 };

		assert_int_equal(pt_trace_read(f, "t.bin", collect_fn, &out, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "not a ptbench trace"));
		fclose(f);
	}
	free(buf);
}

/* The trace of a small real program, from valgrind's lackey. */
static void test_lackey_real_program(void **state)
{
	char path[] = "/tmp/ptbench-lackey-XXXXXX", cmd[256], err[256];
	struct collect c = { 0 };
	FILE *f;
	int fd;

	(void)state;
	if (system("command -v valgrind >/dev/null 2>&1")) {
		skip();
		return;
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "valgrind --tool=lackey --trace-mem=yes --log-file=%s /bin/true 2>/dev/null",
		 path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(pt_lackey_read(f, path, collect_fn, &c, err, sizeof(err)), 0);
	fclose(f);
	unlink(path);
	assert_true(c.n > 10000);
	assert_true(c.instrs > 0 && c.loads > 0 && c.stores > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lackey_lines),
		cmocka_unit_test(test_lackey_stream),
		cmocka_unit_test(test_lackey_malformed_line_number),
		cmocka_unit_test(test_binary_round_trip),
		cmocka_unit_test(test_binary_truncated),
		cmocka_unit_test(test_lackey_real_program),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
