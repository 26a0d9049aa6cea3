// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
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

#include "analysis/aa_calibrate.h"
#include "analysis/aa_report.h"
#include "util/path.h"

#define PAIRS 3
#define REPS 10

static void test_upper95(void **state)
{
	(void)state;
	/* 0 of n: 1 - 0.025^(1/n) */
	assert_true(fabs(pt_aa_rate_upper95(0, 10) - (1 - pow(0.025, 0.1))) < 1e-9);
	assert_true(fabs(pt_aa_rate_upper95(0, 100) - (1 - pow(0.025, 0.01))) < 1e-9);
	/* 5 of 10: 0.8129 (Clopper-Pearson tables) */
	assert_true(fabs(pt_aa_rate_upper95(5, 10) - 0.8129) < 1e-4);
	assert_true(pt_aa_rate_upper95(10, 10) == 1);
}

/*
 * Run i of the A/A series: every run holds the same ten values of a quiet
 * series (so no two differ), and a "wild" series 80% slower in the a run
 * of each pair, a run-to-run change no repetition inside a run sees.
 */
static void write_run(const char *dir, int i)
{
	char path[PATH_MAX];
	FILE *f;
	int r;

	assert_int_equal(pt_mkdir_p(dir, 0755), 0);
	assert_int_equal(pt_path_join(path, sizeof(path), dir, "results.csv"), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "workload,case,params,rep,metric,value,unit,better\n");
	for (r = 0; r < REPS; r++) {
		/* 37 is prime to 10: each run a permutation of the same values */
		double jitter = 0.002 * ((r * 37 + i * 11) % 10 - 4.5);

		fprintf(f, "tlb,quiet,,%d,ns_per_access,%.9g,ns,lower\n", r, 100 * (1 + jitter));
		fprintf(f, "tlb,wild,,%d,ns_per_access,%.9g,ns,lower\n", r,
			(i % 2 ? 100 : 180) * (1 + jitter));
	}
	fclose(f);
}

static void test_aa(void **state)
{
	struct pt_cmp_opts opts = { .alpha = PT_CMP_ALPHA_DEFAULT,
				    .threshold_pct = PT_CMP_THRESHOLD_DEFAULT,
				    .correction = PT_CORR_HOLM };
	struct pt_floor_opts floor = { .margin = 2, .max_pct = 50 };
	char top[] = "/tmp/ptbench-test-aa-XXXXXX", err[PATH_MAX + 256], name[16], *text;
	const struct pt_aa_series *quiet, *wild;
	struct pt_aa_report rep;
	struct pt_aa k;
	size_t raised, off, len;
	bool gate_off;
	FILE *f;
	int p, s;

	(void)state;
	assert_non_null(mkdtemp(top));
	assert_int_equal(pt_aa_init(&k, PAIRS, &opts, &floor), 0);
	for (p = 0; p < PAIRS; p++)
		for (s = 0; s < 2; s++) {
			snprintf(name, sizeof(name), "%d%c", p, s ? 'b' : 'a');
			assert_int_equal(pt_path_join(k.pairs[p].run[s].dir, PATH_MAX, top, name),
					 0);
			write_run(k.pairs[p].run[s].dir, 2 * p + s);
		}
	for (p = 0; p < PAIRS; p++)
		assert_int_equal(pt_aa_load(&k, p, err, sizeof(err)), 0);
	assert_int_equal(pt_aa_analyse(&k), 0);

	/* wild gets faster in every pair: significant, but never a regression */
	assert_int_equal(k.fired, 0);
	assert_int_equal(k.any_significant, PAIRS);
	assert_int_equal(k.tested_total, 2 * PAIRS);
	assert_int_equal(k.ndet, 2);
	quiet = &k.det[0];
	wild = &k.det[1];
	assert_string_equal(quiet->key->cs, "quiet");
	/* +5% is the threshold: 4% is not caught, 5% in every pair */
	assert_true(quiet->smallest_pct == 5);
	assert_int_equal(quiet->hits[3], 0);
	assert_int_equal(quiet->hits[4], PAIRS);
	assert_int_equal(quiet->pairs_tested, PAIRS);

	/* noise floor: nothing between quiet runs; wild's 80% is too much to gate */
	assert_true(pt_aa_floor_worst(quiet, -1, -1) == 0);
	assert_true(pt_aa_floor_threshold(&k, quiet, -1, -1, &gate_off) == 5 && !gate_off);
	assert_true(fabs(pt_aa_floor_worst(wild, -1, -1) - 80) < 1e-6);
	pt_aa_floor_threshold(&k, wild, -1, -1, &gate_off);
	assert_true(gate_off);
	assert_true(isnan(pt_aa_floor_detect_pct(&k, wild)));
	assert_true(pt_aa_floor_detect_pct(&k, quiet) == 5);
	pt_aa_floor_count(&k, &raised, &off);
	assert_int_equal(raised, 0);
	assert_int_equal(off, 1);
	/* 6 runs: 15 comparisons; a fast run as BASE before a slow one fires 3 times */
	assert_int_equal(k.loo_total, 15);
	assert_int_equal(k.all_fired, 3);
	assert_int_equal(k.loo_fired, 0);

	/* the gate.conf it writes turns wild off and leaves quiet alone */
	rep = (struct pt_aa_report){ .k = &k, .suite = "ci", .runner = "r", .tool_version = "t" };
	f = tmpfile();
	assert_non_null(f);
	pt_aa_write_gate_conf(&rep, f);
	len = (size_t)ftell(f);
	rewind(f);
	text = calloc(1, len + 1);
	assert_int_equal(fread(text, 1, len, f), len);
	fclose(f);
	assert_non_null(strstr(text, "\ntlb/wild/ns_per_access gate=off  # significant A/A "
				     "change up to 80%\n"));
	assert_null(strstr(text, "quiet"));
	free(text);
	pt_aa_free(&k);
	snprintf(err, sizeof(err), "rm -r '%s'", top);
	assert_int_equal(system(err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_upper95),
		cmocka_unit_test(test_aa),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
