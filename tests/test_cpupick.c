// SPDX-License-Identifier: GPL-2.0-only
/* --cpu pick: its candidates, its choice, and a real round (harness/cpupick.h). */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "harness/cpupick.h"

static void test_candidates(void **state)
{
	static const int two[] = { 0, 1 }, many[] = { 0, 2, 3, 5, 8, 9, 11 };
	struct pt_cpu_pick p;

	(void)state;
	pt_cpu_pick_candidates(&p, two, 2);
	assert_int_equal(p.ncand, 2);
	assert_int_equal(p.cand[0], 0);
	assert_int_equal(p.cand[1], 1);
	assert_int_equal(p.chosen, -1);
	assert_true(isnan(p.ns[1]));
	/* the last PT_PICK_MAX, away from CPU 0 where most interrupts land */
	pt_cpu_pick_candidates(&p, many, 7);
	assert_int_equal(p.ncand, PT_PICK_MAX);
	assert_int_equal(p.cand[0], 5);
	assert_int_equal(p.cand[PT_PICK_MAX - 1], 11);
	pt_cpu_pick_candidates(&p, two, 1);
	assert_int_equal(p.ncand, 1);
}

static void test_choose(void **state)
{
	/* 3 probes each: candidate 1's median (11000) is the lowest */
	const double a[] = { 14500, 14600, 10000, 11000, 10900, 30000, 12000, 11500, 11800 };
	/* one probe far off does not carry the choice: medians 11000 and 11400 */
	const double b[] = { 11000, 10950, 99000, 11400, 11300, 11500 };
	/* failed probes are left out; a candidate with none is never chosen */
	const double c[] = { NAN, NAN, NAN, 13000, NAN, 12000 };
	const double none[] = { NAN, NAN, NAN, NAN, NAN, NAN };

	(void)state;
	assert_int_equal(pt_cpu_pick_choose(a, 3, 0), 1);
	assert_int_equal(pt_cpu_pick_choose(b, 2, 1), 0);
	assert_int_equal(pt_cpu_pick_choose(c, 2, 0), 1);
	/* no probe at all: keep the CPU of the last round */
	assert_int_equal(pt_cpu_pick_choose(none, 2, 1), 1);
	assert_int_equal(pt_cpu_pick_choose(none, 2, 0), 0);
}

/* A real round where the machine has 2 CPUs: bound to one of them, and recorded. */
static void test_round(void **state)
{
	struct pt_cpu_pick p;
	struct pt_binding b;
	cpu_set_t before, set;
	int c, on = 0;

	(void)state;
	if (sched_getaffinity(0, sizeof(before), &before) || pt_cpu_pick_init(&p)) {
		skip();
		return;
	}
	pt_cpu_pick_round(&p, &b);
	pt_cpu_pick_round(&p, &b);
	assert_int_equal((int)p.npicks, 2);
	assert_int_equal(p.picks[1], p.chosen);
	assert_true(b.ok);
	assert_int_equal(b.cpu, p.chosen);
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	assert_int_equal(CPU_COUNT(&set), 1);
	assert_true(CPU_ISSET(p.chosen, &set));
	for (c = 0; c < p.ncand; c++) {
		on += p.rounds_on[c];
		assert_true(p.ns[c] > 0); /* a fault takes time */
	}
	assert_int_equal(on, 2);
	assert_int_equal(p.failed, 0);
	assert_int_equal(p.unpinned, 0);
	assert_true(p.probe_s > 0);
	pt_cpu_pick_free(&p);
	sched_setaffinity(0, sizeof(before), &before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_round),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
