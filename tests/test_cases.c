// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every case of every suite, on a few fixed machines, against a golden
 * file: case names and params are what a run's results are keyed by, so a
 * change to them (or to the memory the guard sees) must be deliberate. The
 * test also holds each suite to the contract: names unique within the
 * suite, params non-empty with their keys sorted.
 *
 * After a deliberate change, regenerate the golden file with
 *   PTBENCH_CASES_WRITE=tests/fixtures/cases.txt build/tests/test_cases
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "util/sysfs.h"
#include "workloads/suite.h"
#include "workloads/workload.h"

/* A machine the suites are described for; max_mem 0: the suite's default. */
struct machine {
	const char *name;
	uint64_t page, pmd, pud, max_mem;
	int ncpus;
	bool root;
};

static const struct machine machines[] = {
	{ "x86-root", 4ull << 10, 2ull << 20, 1ull << 30, 0, 8, true },
	{ "x86-user", 4ull << 10, 2ull << 20, 1ull << 30, 512ull << 20, 2, false },
	{ "d128-4k", 4ull << 10, 1ull << 20, 256ull << 20, 8ull << 30, 16, true },
	{ "arm-64k", 64ull << 10, 512ull << 20, 4ull << 40, 0, 4, true },
};

/* A sysroot with the mTHP knobs of every size from 16K to 2M. */
static void make_sysroot(char *root)
{
	char path[512];
	unsigned kb;
	FILE *f;

	assert_non_null(mkdtemp(root));
	for (kb = 16; kb <= 2048; kb *= 2) {
		snprintf(path, sizeof(path), "%s/sys/kernel/mm/transparent_hugepage/hugepages-%ukB",
			 root, kb);
		for (char *p = path + strlen(root) + 1; *p; p++) {
			if (*p == '/') {
				*p = 0;
				mkdir(path, 0755);
				*p = '/';
			}
		}
		assert_int_equal(mkdir(path, 0755), 0);
		strcat(path, "/enabled");
		f = fopen(path, "w");
		assert_non_null(f);
		fputs("always inherit madvise [never]\n", f);
		fclose(f);
	}
	setenv("PTBENCH_SYSROOT", root, 1);
	pt_sysroot_reload();
}

/* Keys of "k=v;k=v" present and strictly ascending. */
static void check_params(const char *cs, const char *params)
{
	char prev[64] = "", key[64];
	const char *p = params;

	if (!*p)
		fail_msg("%s: empty params", cs);
	while (*p) {
		size_t n = strcspn(p, "=;");

		if (!n || n >= sizeof(key) || p[n] != '=')
			fail_msg("%s: malformed params '%s'", cs, params);
		memcpy(key, p, n);
		key[n] = 0;
		if (strcmp(prev, key) >= 0)
			fail_msg("%s: params keys out of order: '%s'", cs, params);
		strcpy(prev, key);
		p += strcspn(p, ";");
		if (*p == ';')
			p++;
	}
}

static void describe(FILE *out, const struct machine *m, enum pt_suite suite)
{
	struct pt_case *cases = calloc(PT_MAX_CASES, sizeof(*cases));
	char(*seen)[140] = calloc(PT_MAX_CASES * 8, sizeof(*seen));
	struct pt_suite_opts o;
	size_t w, nseen = 0, k;
	int n, i;

	assert_non_null(cases);
	assert_non_null(seen);
	pt_suite_opts_init(&o, suite, m->max_mem);
	o.page_size = m->page;
	o.pmd_size = m->pmd;
	o.pud_size = m->pud;
	o.ncpus = m->ncpus;
	o.is_root = m->root;
	for (w = 0; pt_workloads[w]; w++) {
		n = pt_workloads[w]->cases(&o, cases, PT_MAX_CASES);
		assert_true(n >= 0 && n < PT_MAX_CASES);
		for (i = 0; i < n; i++) {
			const struct pt_case *c = &cases[i];

			check_params(c->name, c->params);
			assert_true(nseen < PT_MAX_CASES * 8);
			snprintf(seen[nseen], sizeof(seen[0]), "%s/%s", pt_workloads[w]->name,
				 c->name);
			for (k = 0; k < nseen; k++)
				if (!strcmp(seen[k], seen[nseen]))
					fail_msg("%s %s: case %s twice", m->name,
						 pt_suite_name(suite), seen[k]);
			nseen++;
			fprintf(out, "%s %s %s %s %s backing=%s size=%llu mthp=%llu mem=%llu\n",
				m->name, pt_suite_name(suite), pt_workloads[w]->name, c->name,
				c->params, pt_backing_name(c->backing), (unsigned long long)c->size,
				(unsigned long long)c->mthp_size, (unsigned long long)c->mem_bytes);
		}
	}
	free(seen);
	free(cases);
}

static char *slurp(FILE *f, size_t *len)
{
	long n;
	char *buf;

	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

static void test_cases_match_golden(void **state)
{
	const char *write = getenv("PTBENCH_CASES_WRITE");
	char root[] = "/tmp/ptbench-cases-XXXXXX", golden[1024], cmd[64];
	FILE *out = tmpfile(), *g;
	size_t m, nout, ngold;
	int s;
	char *got, *want;

	(void)state;
	assert_non_null(out);
	make_sysroot(root);
	for (m = 0; m < sizeof(machines) / sizeof(machines[0]); m++)
		for (s = 0; s < PT_SUITE_N; s++)
			describe(out, &machines[m], (enum pt_suite)s);
	unsetenv("PTBENCH_SYSROOT");
	pt_sysroot_reload();
	snprintf(cmd, sizeof(cmd), "rm -r %s", root);
	assert_int_equal(system(cmd), 0);
	got = slurp(out, &nout);
	fclose(out);
	if (write) {
		g = fopen(write, "w");
		assert_non_null(g);
		assert_int_equal(fwrite(got, 1, nout, g), nout);
		fclose(g);
	}
	snprintf(golden, sizeof(golden), "%s/cases.txt", getenv("PTBENCH_FIXTURES"));
	g = fopen(golden, "r");
	if (!g)
		fail_msg("%s: missing (PTBENCH_CASES_WRITE=%s regenerates it)", golden, golden);
	want = slurp(g, &ngold);
	fclose(g);
	if (nout != ngold || memcmp(got, want, nout)) {
		g = fopen("cases.actual.txt", "w");
		if (g) {
			fwrite(got, 1, nout, g);
			fclose(g);
		}
		fail_msg("cases differ from %s: see cases.actual.txt (diff them)", golden);
	}
	free(got);
	free(want);
}

/* A workload's case data survives the copies the harness makes of a case. */
struct probe_case {
	int kind;
	bool flag;
	uint64_t bytes;
};
PT_CASE_DATA(struct probe_case, probe_case)

static void test_case_data(void **state)
{
	struct probe_case in = { 3, true, 1ull << 40 }, out;
	struct pt_case a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	probe_case_set(&a, &in);
	assert_string_equal(a.data_type, "struct probe_case");
	b = a;
	memset(a.data, 0xff, sizeof(a.data)); /* b is a copy, not a view */
	out = probe_case_get(&b);
	assert_int_equal(out.kind, 3);
	assert_true(out.flag);
	assert_int_equal(out.bytes, 1ull << 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases_match_golden),
		cmocka_unit_test(test_case_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
