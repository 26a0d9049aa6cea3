// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two-thread simulation (model/walk_pipe.h) against one thread: every
 * count, the walk-cycle sum to the last bit, and the caches' state (a
 * second run after the first) must be the same.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/walk_pipe.h"
#include "model/walk_run.h"

struct setup {
	enum pt_format format;
	enum pt_pattern_kind pattern;
	uint64_t ws;
	unsigned block_h;
	const char *keys[4][2]; /* configuration keys set, NULL-ended */
};

/* Simulate su with threads, warm-up then counted, twice; the stats of both runs. */
static void simulate(const struct setup *su, unsigned threads, struct pt_walk_stats *st,
		     uint64_t *threaded_runs)
{
	struct pt_walk_cfg cfg;
	struct pt_geometry g;
	struct pt_walksim s;
	struct pt_pattern p;
	char err[256];
	unsigned k;

	pt_walk_cfg_default(&cfg);
	for (k = 0; k < 4 && su->keys[k][0]; k++)
		assert_int_equal(
			pt_walk_cfg_set(&cfg, su->keys[k][0], su->keys[k][1], err, sizeof(err)), 0);
	assert_int_equal(pt_geometry_make(&g, su->format, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_pattern_init(&p, su->pattern, su->ws, 0, 3, err, sizeof(err)), 0);
	assert_int_equal(pt_walksim_init(&s, &g, &cfg, su->block_h, p.base, p.base + su->ws, err,
					 sizeof(err)),
			 0);
	s.threads = threads;
	pt_walk_run_pattern(&s, 1, &p, PT_PIPE_MIN_ACCESSES, 3 * PT_PIPE_MIN_ACCESSES);
	st[0] = s.st;
	/* the caches' state after the first run decides the second's counts */
	pt_walk_run_pattern(&s, 1, &p, 0, 2 * PT_PIPE_MIN_ACCESSES + 17);
	st[1] = s.st;
	*threaded_runs = s.threaded_runs;
	pt_walksim_free(&s);
	pt_pattern_free(&p);
}

static void check_same(const struct setup *su)
{
	static struct pt_walk_stats one[2], two[2];
	uint64_t runs1, runs2;

	simulate(su, 1, one, &runs1);
	simulate(su, 2, two, &runs2);
	assert_int_equal(runs1, 0);
	assert_int_equal(runs2, 3); /* warm-up, counted, second run */
	assert_true(one[0].walks > 0);
	assert_memory_equal(&one[0], &two[0], sizeof(one[0]));
	assert_memory_equal(&one[1], &two[1], sizeof(one[1]));
}

static void test_default_random(void **state)
{
	const struct setup su = { PT_D64, PT_PAT_RANDOM, 256ull << 20, 0, { { NULL } } };

	(void)state;
	check_same(&su);
}

static void test_d128_pa_tagged_prefetch(void **state)
{
	const struct setup su = {
		PT_D128,
		PT_PAT_CHASE_HALF,
		128ull << 20,
		0,
		{ { "pwc.tag", "pa" }, { "cache.prefetch.lines", "2" }, { NULL } }
	};

	(void)state;
	check_same(&su);
}

static void test_thp_evictions(void **state)
{
	const struct setup su = {
		PT_D64, PT_PAT_CHASE, 512ull << 20, 1, { { "tlb.l2.evictions", "0.5" }, { NULL } }
	};

	(void)state;
	check_same(&su);
}

/*
 * Random victims: the LLC's generator is state the back half carries, so
 * the second run differs unless it comes back (a 16M random pattern on a
 * 4M LLC hits in about a quarter, and walks past the 2048-entry L2 TLB).
 */
static void test_llc_random_victims(void **state)
{
	const struct setup su = {
		PT_D64,
		PT_PAT_RANDOM,
		16ull << 20,
		0,
		{ { "cache.llc.replacement", "random" }, { "cache.llc.size", "4194304" }, { NULL } }
	};

	(void)state;
	check_same(&su);
}

/* Too short a run to gain: one thread, same counts. */
static void test_short_run_one_thread(void **state)
{
	struct pt_walk_cfg cfg;
	struct pt_geometry g;
	struct pt_walksim s;
	struct pt_pattern p;
	char err[256];

	(void)state;
	pt_walk_cfg_default(&cfg);
	assert_int_equal(pt_geometry_make(&g, PT_D64, 12, 48, err, sizeof(err)), 0);
	assert_int_equal(pt_pattern_init(&p, PT_PAT_RANDOM, 64ull << 20, 0, 3, err, sizeof(err)),
			 0);
	assert_int_equal(pt_walksim_init(&s, &g, &cfg, 0, p.base, p.base + (64ull << 20), err,
					 sizeof(err)),
			 0);
	s.threads = 2;
	pt_walk_run_pattern(&s, 1, &p, 0, PT_PIPE_MIN_ACCESSES - 1);
	assert_int_equal(s.threaded_runs, 0);
	assert_int_equal(s.st.accesses, PT_PIPE_MIN_ACCESSES - 1);
	pt_walksim_free(&s);
	pt_pattern_free(&p);
}

/* Several formats spread over two threads: each one's counts, and the pattern's state after. */
static void feed_formats(unsigned threads, struct pt_walk_stats *st, uint64_t *next,
			 uint64_t *threaded)
{
	const enum pt_format f[3] = { PT_D64, PT_D128, PT_D64 };
	struct pt_walksim s[3];
	struct pt_walk_cfg cfg;
	struct pt_pattern p;
	char err[256];
	unsigned k;

	pt_walk_cfg_default(&cfg);
	assert_int_equal(pt_pattern_init(&p, PT_PAT_CHASE, 256ull << 20, 0, 5, err, sizeof(err)),
			 0);
	for (k = 0; k < 3; k++) {
		struct pt_geometry g;

		assert_int_equal(pt_geometry_make(&g, f[k], 12, 48, err, sizeof(err)), 0);
		assert_int_equal(pt_walksim_init(&s[k], &g, &cfg, k == 2, p.base,
						 p.base + (256ull << 20), err, sizeof(err)),
				 0);
	}
	s[0].threads = threads;
	pt_walk_run_pattern(s, 3, &p, PT_PIPE_MIN_ACCESSES, 2 * PT_PIPE_MIN_ACCESSES + 5);
	*threaded = s[0].threaded_runs;
	for (k = 0; k < 3; k++) {
		st[k] = s[k].st;
		pt_walksim_free(&s[k]);
	}
	*next = pt_pattern_next(&p);
	pt_pattern_free(&p);
}

static void test_formats_apart(void **state)
{
	static struct pt_walk_stats one[3], two[3];
	uint64_t next1, next2, th1, th2;

	(void)state;
	feed_formats(1, one, &next1, &th1);
	feed_formats(2, two, &next2, &th2);
	assert_int_equal(th1, 0);
	/* warm-up and counted; pt_parallel_for takes one thread per online CPU */
	assert_int_equal(th2, sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 0);
	assert_int_equal(next1, next2);
	assert_memory_equal(one, two, sizeof(one));
	/* the three differ from each other: a mix-up between them would show */
	assert_true(one[0].walk_cycles != one[1].walk_cycles);
	assert_true(one[0].walks != one[2].walks);
}

int main(void)
{
	const char *emu = getenv("PTBENCH_EMULATED");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_random),
		cmocka_unit_test(test_d128_pa_tagged_prefetch),
		cmocka_unit_test(test_thp_evictions),
		cmocka_unit_test(test_llc_random_victims),
		cmocka_unit_test(test_short_run_one_thread),
		cmocka_unit_test(test_formats_apart),
	};

	/*
	 * Under qemu-aarch64-static -L (the arm64 test build) a dynamically
	 * linked program's first pthread_create never returns
	 * (tests/test_parallel.c): skipped (77), not passed.
	 */
	if (emu && !strcmp(emu, "1"))
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
