// SPDX-License-Identifier: GPL-2.0-only
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/tlb.h"

/* Following next[] from 0 visits every element once and returns to 0. */
static void check_one_cycle(uint32_t n, uint64_t seed)
{
	uint32_t *next = malloc(n * sizeof(*next)), i, at = 0;
	uint8_t *seen = calloc(n, 1);

	assert_non_null(next);
	assert_non_null(seen);
	tlb_cyclic_permutation(next, n, seed);
	for (i = 0; i < n; i++) {
		assert_true(next[at] < n);
		assert_false(seen[at]);
		seen[at] = 1;
		at = next[at];
	}
	assert_int_equal(at, 0);
	for (i = 0; i < n; i++)
		assert_true(seen[i]);
	free(next);
	free(seen);
}

static void test_permutation_is_one_cycle(void **state)
{
	static const uint32_t sizes[] = { 1, 2, 3, 4, 17, 1000, 262144 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		check_one_cycle(sizes[i], 1);
		check_one_cycle(sizes[i], 0x9e3779b97f4a7c15ull);
	}
}

static void test_permutation_is_random(void **state)
{
	uint32_t a[64], b[64], fixed = 0, i;

	(void)state;
	tlb_cyclic_permutation(a, 64, 1);
	tlb_cyclic_permutation(b, 64, 2);
	assert_memory_not_equal(a, b, sizeof(a));
	/* Not the trivial i -> i + 1 cycle. */
	for (i = 0; i < 64; i++)
		fixed += a[i] == (i + 1) % 64;
	assert_true(fixed < 16);
}

static void test_chase_follows_chain(void **state)
{
	void *ring[5];
	int i;

	(void)state;
	for (i = 0; i < 5; i++)
		ring[i] = &ring[(i + 1) % 5];
	assert_ptr_equal(tlb_chase(&ring[0], 5), &ring[0]);
	assert_ptr_equal(tlb_chase(&ring[0], 13), &ring[3]);
	assert_ptr_equal(tlb_chase(&ring[2], 0), &ring[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_permutation_is_one_cycle),
		cmocka_unit_test(test_permutation_is_random),
		cmocka_unit_test(test_chase_follows_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
