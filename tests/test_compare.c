// SPDX-License-Identifier: GPL-2.0-only
/* The comparison and the gate on synthetic samples with known answers. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/compare.h"

#define MAX_N 64

struct fake {
	struct pt_series s;
	double v[MAX_N];
	int reps[MAX_N];
	char workload[32], cs[32], metric[48];
};

static uint64_t rng_state;

static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* Box-Muller: a standard normal deviate. */
static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* n samples of center * (1 + noise * N(0,1)). */
static void fake_init(struct fake *f, const char *workload, const char *cs, const char *metric,
		      enum pt_better better, size_t n, double center, double noise)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	snprintf(f->workload, sizeof(f->workload), "%s", workload);
	snprintf(f->cs, sizeof(f->cs), "%s", cs);
	snprintf(f->metric, sizeof(f->metric), "%s", metric);
	for (i = 0; i < n; i++) {
		f->v[i] = center * (1 + noise * normal());
		f->reps[i] = (int)i;
	}
	f->s = (struct pt_series){
		.workload = f->workload,
		.cs = f->cs,
		.params = "",
		.metric = f->metric,
		.unit = "ns",
		.better = better,
		.values = f->v,
		.reps = f->reps,
		.n = n,
	};
}

static struct pt_cmp_opts default_opts(void)
{
	return (struct pt_cmp_opts){ .alpha = PT_CMP_ALPHA_DEFAULT,
				     .threshold_pct = PT_CMP_THRESHOLD_DEFAULT,
				     .correction = PT_CORR_HOLM };
}

/* Compare one base series with one new series; returns the verdict. */
static enum pt_verdict compare_one(const struct fake *b, const struct fake *c,
				   const struct pt_cmp_opts *o, struct pt_cmp_row *row)
{
	struct pt_cmp_result r;
	enum pt_verdict v;

	assert_int_equal(pt_compare(&b->s, 1, &c->s, 1, o, &r), 0);
	assert_int_equal(r.n, 1);
	v = r.rows[0].verdict;
	if (row)
		*row = r.rows[0];
	pt_cmp_result_free(&r);
	return v;
}

static void test_p_adjust(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") and "BH" */
	const double holm[] = { 0.03, 0.06, 0.06, 0.02 }, bh[] = { 0.02, 0.04, 0.04, 0.02 };
	double adj[4];
	size_t i;

	(void)state;
	assert_int_equal(pt_p_adjust(p, 4, PT_CORR_HOLM, adj), 0);
	for (i = 0; i < 4; i++)
		assert_true(fabs(adj[i] - holm[i]) < 1e-12);
	assert_int_equal(pt_p_adjust(p, 4, PT_CORR_BH, adj), 0);
	for (i = 0; i < 4; i++)
		assert_true(fabs(adj[i] - bh[i]) < 1e-12);
	assert_int_equal(pt_p_adjust(p, 4, PT_CORR_NONE, adj), 0);
	for (i = 0; i < 4; i++)
		assert_true(adj[i] == p[i]);
	/* capped at 1 */
	{
		const double big[] = { 0.6, 0.9 };

		pt_p_adjust(big, 2, PT_CORR_HOLM, adj);
		assert_true(adj[0] == 1.0 && adj[1] == 1.0);
	}
}

static void test_identical_not_significant(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_cmp_row row;
	struct fake b;

	(void)state;
	rng_state = 1;
	fake_init(&b, "tlb", "chase", "ns_per_access", PT_LOWER, 10, 100, 0.01);
	assert_int_equal(compare_one(&b, &b, &o, &row), PT_V_SAME);
	assert_true(row.change_pct == 0);
	assert_true(row.p > 0.45); /* one-sided: half the two-sided p of ~1 */
}

static void test_shift_is_regression(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_cmp_row row;
	struct fake b, c;

	(void)state;
	rng_state = 2;
	fake_init(&b, "tlb", "chase", "ns_per_access", PT_LOWER, 10, 100, 0.01);
	fake_init(&c, "tlb", "chase", "ns_per_access", PT_LOWER, 10, 110, 0.01);
	assert_int_equal(compare_one(&b, &c, &o, &row), PT_V_WORSE);
	assert_true(row.change_pct > 7 && row.change_pct < 13);
	assert_true(row.p < 0.001);
	assert_true(row.sb.ci_valid && row.sn.ci_valid);
	/* The same shift of a higher-is-better metric is an improvement. */
	b.s.better = c.s.better = PT_HIGHER;
	assert_int_equal(compare_one(&b, &c, &o, NULL), PT_V_BETTER);
	/* ... and of a descriptive metric only a change. */
	b.s.better = c.s.better = PT_NEITHER;
	assert_int_equal(compare_one(&b, &c, &o, NULL), PT_V_CHANGED);
	/* A 10% drop of a lower-is-better metric is an improvement. */
	b.s.better = c.s.better = PT_LOWER;
	assert_int_equal(compare_one(&c, &b, &o, NULL), PT_V_BETTER);
}

static void test_threshold_and_config(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_cmp_config cfg;
	const char *text = "# tighter for the chase\n"
			   "tlb/*/ns_per_access  threshold=2%\n"
			   "\n"
			   "fault/*  alpha=0.05 threshold=1  # comment\n";
	struct fake b, c;
	char err[256];
	FILE *f;

	(void)state;
	rng_state = 3;
	fake_init(&b, "tlb", "chase", "ns_per_access", PT_LOWER, 10, 100, 0.001);
	fake_init(&c, "tlb", "chase", "ns_per_access", PT_LOWER, 10, 103, 0.001);
	/* Clearly real but under the 5% threshold: not a regression. */
	assert_int_equal(compare_one(&b, &c, &o, NULL), PT_V_SAME);
	o.threshold_pct = 2;
	assert_int_equal(compare_one(&b, &c, &o, NULL), PT_V_WORSE);
	o.threshold_pct = 5;
	f = fmemopen((void *)text, strlen(text), "r");
	assert_int_equal(pt_cmp_config_parse(f, "gate.conf", &cfg, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(cfg.n, 2);
	o.config = &cfg;
	assert_int_equal(compare_one(&b, &c, &o, NULL), PT_V_WORSE);
	{
		double alpha = 0.01, thr = 5;
		bool gate = true;

		pt_cmp_config_lookup(&cfg, "fault/anon/ns_per_fault", &alpha, &thr, &gate);
		assert_true(alpha == 0.05 && thr == 1 && gate);
		alpha = 0.01;
		thr = 5;
		pt_cmp_config_lookup(&cfg, "fork/x/ns", &alpha, &thr, &gate);
		assert_true(alpha == 0.01 && thr == 5 && gate);
	}
	pt_cmp_config_free(&cfg);
}

static void expect_config_error(const char *text, const char *want)
{
	struct pt_cmp_config cfg;
	char err[256] = "";
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_int_equal(pt_cmp_config_parse(f, "g.conf", &cfg, err, sizeof(err)), -1);
	fclose(f);
	if (!strstr(err, want))
		fail_msg("error '%s' does not contain '%s'", err, want);
	assert_null(cfg.rules);
}

static void test_config_errors(void **state)
{
	(void)state;
	expect_config_error("a threshold=3%\nb speed=1\n", "g.conf:2: unknown setting 'speed'");
	expect_config_error("a threshold=-3%\n", "g.conf:1: threshold '-3%'");
	expect_config_error("a threshold=3x\n", "g.conf:1: threshold '3x'");
	expect_config_error("a alpha=1.5\n", "g.conf:1: alpha '1.5'");
	expect_config_error("a alpha=0\n", "g.conf:1: alpha '0'");
	expect_config_error("\n\n  a\n", "g.conf:3: pattern 'a' sets none");
	expect_config_error("a gate=maybe\n", "g.conf:1: gate 'maybe' is neither on nor off");
	expect_config_error("a threshold\n", "g.conf:1: 'threshold' is not key=value");
	expect_config_error("threshold=3%\n", "g.conf:1: a line starts with a pattern");
}

static void expect_config_error_n(const char *text, size_t len, const char *want)
{
	struct pt_cmp_config cfg;
	char err[256] = "";
	FILE *f = fmemopen((void *)text, len, "r");

	assert_int_equal(pt_cmp_config_parse(f, "g.conf", &cfg, err, sizeof(err)), -1);
	fclose(f);
	if (!strstr(err, want))
		fail_msg("error '%s' does not contain '%s'", err, want);
	assert_null(cfg.rules);
}

/*
 * Hostile configs (issue 16, item 4): a NUL byte ended the line early, so
 * "* gate=off\0junk" un-gated everything; NULs alone read as an empty
 * config; /dev/zero never ended; a FIFO blocked. All are refused now.
 */
static void test_config_hostile(void **state)
{
	char dir[] = "/tmp/ptbench-test-cfg-XXXXXX", path[64], err[256] = "";
	static const char zeros[4096];
	struct pt_cmp_config cfg;
	FILE *f;

	(void)state;
	expect_config_error_n("* gate=off\0junk\n", 16, "g.conf:1: contains a NUL byte");
	expect_config_error_n("# c\n* gate=off\n\0", 16, "g.conf:3: contains a NUL byte");
	expect_config_error_n(zeros, sizeof(zeros), "contains a NUL byte");
	expect_config_error_n("", 0, "g.conf: empty");
	expect_config_error_n(" \n\t\n", 4, "g.conf: empty");

	/* comments only: calibrate's gate.conf when nothing needs loosening */
	f = fmemopen((void *)"# nothing to loosen\n", 20, "r");
	assert_int_equal(pt_cmp_config_parse(f, "g.conf", &cfg, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(cfg.n, 0);

	/* /dev/zero ends in an error at once, not in an endless read */
	assert_int_equal(pt_cmp_config_load("/dev/zero", &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/dev/zero: a character device, not a regular file"));
	assert_non_null(mkdtemp(dir));
	assert_int_equal(pt_cmp_config_load(dir, &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a directory, not a regular file"));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(pt_cmp_config_load(path, &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a FIFO, not a regular file"));
	unlink(path);
	/* over 1 MiB of valid text is not a gate config either */
	snprintf(path, sizeof(path), "%s/big", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 70000; i++)
		fputs("a/b/c threshold=3%\n", f);
	fclose(f);
	assert_int_equal(pt_cmp_config_load(path, &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "larger than 1048576 bytes"));
	unlink(path);
	rmdir(dir);
}

/*
 * gate=off: a 30% regression is shown with its change but not judged, is
 * left out of the correction's family, and is counted as not gated; a
 * later gate=on for the same series puts it back.
 */
static void test_gate_off(void **state)
{
	struct pt_cmp_opts o = default_opts();
	const char *text = "tlb/*  gate=off threshold=50%\n"
			   "tlb/keep/*  gate=on\n";
	struct pt_series bs[2], cs[2];
	struct pt_cmp_config cfg;
	struct pt_cmp_result r;
	struct fake f[4];
	char err[256];
	FILE *fp;

	(void)state;
	rng_state = 9;
	fake_init(&f[0], "tlb", "drop", "ns_per_access", PT_LOWER, 10, 100, 0.01);
	fake_init(&f[1], "tlb", "keep", "ns_per_access", PT_LOWER, 10, 100, 0.01);
	fake_init(&f[2], "tlb", "drop", "ns_per_access", PT_LOWER, 10, 130, 0.01);
	fake_init(&f[3], "tlb", "keep", "ns_per_access", PT_LOWER, 10, 200, 0.01);
	bs[0] = f[0].s;
	bs[1] = f[1].s;
	cs[0] = f[2].s;
	cs[1] = f[3].s;
	fp = fmemopen((void *)text, strlen(text), "r");
	assert_int_equal(pt_cmp_config_parse(fp, "gate.conf", &cfg, err, sizeof(err)), 0);
	fclose(fp);
	o.config = &cfg;
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_string_equal(r.rows[0].key->cs, "drop");
	assert_int_equal(r.rows[0].verdict, PT_V_UNGATED);
	assert_false(r.rows[0].tested);
	assert_true(r.rows[0].change_pct > 25 && r.rows[0].change_pct < 35);
	assert_int_equal(r.rows[1].verdict, PT_V_WORSE); /* 100% >= 50% */
	assert_int_equal(r.tested, 1);
	assert_int_equal(r.ungated, 1);
	assert_int_equal(r.regressions, 1);
	assert_string_equal(pt_verdict_name(PT_V_UNGATED), "not gated");
	pt_cmp_result_free(&r);
	pt_cmp_config_free(&cfg);
}

static void test_one_side_listed(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_series bs[2], cs[2];
	struct pt_cmp_result r;
	struct fake f[3];

	(void)state;
	rng_state = 4;
	fake_init(&f[0], "tlb", "a", "ns_per_access", PT_LOWER, 10, 100, 0.01);
	fake_init(&f[1], "tlb", "b", "ns_per_access", PT_LOWER, 10, 100, 0.01);
	fake_init(&f[2], "tlb", "c", "ns_per_access", PT_LOWER, 10, 100, 0.01);
	bs[0] = f[0].s; /* a: both */
	bs[1] = f[1].s; /* b: base only */
	cs[0] = f[2].s; /* c: new only; unsorted on purpose */
	cs[1] = f[0].s;
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.rows[0].key->cs, "a");
	assert_int_equal(r.rows[0].verdict, PT_V_SAME);
	assert_string_equal(r.rows[1].key->cs, "b");
	assert_int_equal(r.rows[1].verdict, PT_V_BASE_ONLY);
	assert_null(r.rows[1].cand);
	assert_string_equal(r.rows[2].key->cs, "c");
	assert_int_equal(r.rows[2].verdict, PT_V_NEW_ONLY);
	assert_int_equal(r.base_only, 1);
	assert_int_equal(r.new_only, 1);
	assert_int_equal(r.tested, 1);
	assert_int_equal(r.regressions, 0);
	pt_cmp_result_free(&r);
	/* --filter keeps only what matches workload/case/metric */
	o.filter = "tlb/[ab]/*";
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_int_equal(r.n, 2);
	pt_cmp_result_free(&r);
}

static void test_too_few(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_cmp_result r;
	struct pt_cmp_row row;
	struct fake b, c;

	(void)state;
	rng_state = 5;
	/* 3+3 samples: the smallest one-sided p is 0.05, never below 0.01. */
	fake_init(&b, "tlb", "chase", "ns_per_access", PT_LOWER, 3, 100, 0.001);
	fake_init(&c, "tlb", "chase", "ns_per_access", PT_LOWER, 3, 200, 0.001);
	assert_int_equal(compare_one(&b, &c, &o, &row), PT_V_TOO_FEW);
	assert_true(row.min_p > 0.049 && row.min_p < 0.051);
	assert_true(row.change_pct > 90);
	assert_int_equal(pt_cmp_min_samples(0.01, PT_TEST_MW), 5);
	assert_int_equal(pt_cmp_min_samples(0.01, PT_TEST_YUEN), 2);
	assert_int_equal(pt_cmp_min_samples(0.05, PT_TEST_MW), 4);
	assert_int_equal(pt_compare(&b.s, 1, &c.s, 1, &o, &r), 0);
	assert_int_equal(r.too_few, 1);
	assert_int_equal(r.regressions, 0);
	assert_true(r.gate_blind);
	pt_cmp_result_free(&r);
	/* At alpha 0.2 the same samples can be tested, and differ. */
	o.alpha = 0.2;
	assert_int_equal(compare_one(&b, &c, &o, NULL), PT_V_WORSE);
}

static void test_holm_family(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_series bs[2], cs[2];
	struct pt_cmp_result r;
	struct fake b[2], c[2];

	(void)state;
	rng_state = 6;
	/*
	 * 5+5 samples: the one-sided min p is 0.0040 < 0.005 alone, but
	 * 2 x 0.0040 > 0.005.
	 */
	o.alpha = 0.005;
	fake_init(&b[0], "tlb", "a", "ns", PT_LOWER, 5, 100, 0.001);
	fake_init(&c[0], "tlb", "a", "ns", PT_LOWER, 5, 150, 0.001);
	fake_init(&b[1], "tlb", "b", "ns", PT_LOWER, 5, 100, 0.001);
	fake_init(&c[1], "tlb", "b", "ns", PT_LOWER, 5, 100, 0.001);
	bs[0] = b[0].s;
	bs[1] = b[1].s;
	cs[0] = c[0].s;
	cs[1] = c[1].s;
	assert_int_equal(compare_one(&b[0], &c[0], &o, NULL), PT_V_WORSE);
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_int_equal(r.tested, 2);
	assert_int_equal(r.regressions, 0);
	assert_true(r.gate_blind);
	assert_true(fabs(r.rows[0].p_adj - 2 * r.rows[0].p) < 1e-12);
	pt_cmp_result_free(&r);
	o.correction = PT_CORR_BH;
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_false(r.gate_blind);
	pt_cmp_result_free(&r);
	o.correction = PT_CORR_NONE;
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_int_equal(r.regressions, 1);
	assert_false(r.gate_blind);
	pt_cmp_result_free(&r);
}

static void test_constant_left_out(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_series bs[2], cs[2];
	struct pt_cmp_result r;
	struct fake b[2], c[2];

	(void)state;
	rng_state = 8;
	/* A zero counter beside a 5+5 real shift: the family is 1, not 2. */
	fake_init(&b[0], "tlb", "a", "ns", PT_LOWER, 5, 100, 0.001);
	fake_init(&c[0], "tlb", "a", "ns", PT_LOWER, 5, 150, 0.001);
	fake_init(&b[1], "tlb", "a", "zero_count", PT_LOWER, 5, 0, 0);
	fake_init(&c[1], "tlb", "a", "zero_count", PT_LOWER, 5, 0, 0);
	bs[0] = b[0].s;
	bs[1] = b[1].s;
	cs[0] = c[0].s;
	cs[1] = c[1].s;
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.tested, 1);
	assert_int_equal(r.regressions, 1);
	assert_false(r.gate_blind);
	assert_int_equal(r.rows[1].verdict, PT_V_SAME);
	assert_true(r.rows[1].change_pct == 0);
	pt_cmp_result_free(&r);
	/* A zero that becomes non-zero is tested, and its change is infinite. */
	c[1].v[0] = c[1].v[1] = c[1].v[2] = c[1].v[3] = c[1].v[4] = 1;
	cs[1] = c[1].s;
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_int_equal(r.tested, 2);
	assert_true(isinf(r.rows[1].change_pct) && r.rows[1].change_pct > 0);
	pt_cmp_result_free(&r);
	o.correction = PT_CORR_NONE;
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_int_equal(r.rows[1].verdict, PT_V_WORSE);
	pt_cmp_result_free(&r);
}

static void test_rejudge(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_series bs[2], cs[2];
	struct pt_cmp_result r;
	struct fake b[2], c[2];
	double shifted[MAX_N];
	size_t i;

	(void)state;
	rng_state = 9;
	for (i = 0; i < 2; i++) {
		fake_init(&b[i], "w", i ? "b" : "a", "ns", PT_LOWER, 10, 100, 0.01);
		fake_init(&c[i], "w", i ? "b" : "a", "ns", PT_LOWER, 10, 100, 0.01);
		bs[i] = b[i].s;
		cs[i] = c[i].s;
	}
	assert_int_equal(pt_compare(bs, 2, cs, 2, &o, &r), 0);
	assert_int_equal(r.regressions, 0);
	assert_int_equal(pt_cmp_rejudge(&r, 0, c[0].v, 10), r.rows[0].verdict);
	for (i = 0; i < 10; i++)
		shifted[i] = c[0].v[i] * 1.2;
	assert_int_equal(pt_cmp_rejudge(&r, 0, shifted, 10), PT_V_WORSE);
	for (i = 0; i < 10; i++)
		shifted[i] = c[0].v[i] * 1.02;
	assert_int_equal(pt_cmp_rejudge(&r, 0, shifted, 10), PT_V_SAME);
	/* The result itself is not changed. */
	assert_int_equal(r.regressions, 0);
	pt_cmp_result_free(&r);
}

static void test_holm_keeps_fp_rate(void **state)
{
	struct pt_cmp_opts o = default_opts();
	struct pt_series bs[100], cs[100];
	struct fake *b = calloc(100, sizeof(*b)), *c = calloc(100, sizeof(*c));
	struct pt_cmp_result r;
	size_t i, fired = 0, fired_raw = 0, trial;

	(void)state;
	assert_non_null(b);
	assert_non_null(c);
	rng_state = 7;
	/* A/A over 100 metrics, 20 times: Holm keeps the gate quiet. */
	for (trial = 0; trial < 20; trial++) {
		for (i = 0; i < 100; i++) {
			char cs_name[16];

			snprintf(cs_name, sizeof(cs_name), "c%03zu", i);
			fake_init(&b[i], "w", cs_name, "ns", PT_LOWER, 10, 100, 0.05);
			fake_init(&c[i], "w", cs_name, "ns", PT_LOWER, 10, 100, 0.05);
			bs[i] = b[i].s;
			cs[i] = c[i].s;
		}
		o.threshold_pct = 0;
		o.correction = PT_CORR_HOLM;
		assert_int_equal(pt_compare(bs, 100, cs, 100, &o, &r), 0);
		fired += r.regressions > 0;
		pt_cmp_result_free(&r);
		o.correction = PT_CORR_NONE;
		assert_int_equal(pt_compare(bs, 100, cs, 100, &o, &r), 0);
		fired_raw += r.regressions + r.improvements;
		pt_cmp_result_free(&r);
	}
	/* Expected: Holm fires in <= 1% of trials; uncorrected ~1 per trial. */
	assert_true(fired <= 1);
	assert_true(fired_raw >= 5);
	free(b);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p_adjust),
		cmocka_unit_test(test_identical_not_significant),
		cmocka_unit_test(test_shift_is_regression),
		cmocka_unit_test(test_threshold_and_config),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_config_hostile),
		cmocka_unit_test(test_gate_off),
		cmocka_unit_test(test_one_side_listed),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_holm_family),
		cmocka_unit_test(test_holm_keeps_fp_rate),
		cmocka_unit_test(test_constant_left_out),
		cmocka_unit_test(test_rejudge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
