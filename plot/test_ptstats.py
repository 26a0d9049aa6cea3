# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of ptstats: known vectors, the same answers as harness/stats.c."""
import math
import random
import unittest

import ptstats


class TestSummary(unittest.TestCase):
    def test_known_vector(self):
        s = ptstats.summarize([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        self.assertEqual(s.n, 10)
        self.assertEqual(s.median, 5.5)
        self.assertAlmostEqual(s.stddev, 3.0276503540974917)
        # n = 10: P(X <= 1) = 11/1024, 2 * that <= 0.05, so the interval
        # is the 2nd and 9th order statistics.
        self.assertEqual((s.ci_lo, s.ci_hi, s.ci_valid), (2, 9, True))

    def test_too_few_for_95(self):
        s = ptstats.summarize([3.0, 1.0, 2.0, 5.0, 4.0])
        self.assertEqual(s.median, 3.0)
        self.assertFalse(s.ci_valid)  # 2 / 32 > 0.05
        self.assertEqual((s.ci_lo, s.ci_hi), (1.0, 5.0))

    def test_empty_is_an_error(self):
        with self.assertRaises(ValueError):
            ptstats.summarize([])


class TestMannWhitney(unittest.TestCase):
    def test_separated_exact(self):
        p = ptstats.mann_whitney_p([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        self.assertAlmostEqual(p, 2 / math.comb(10, 5))
        self.assertAlmostEqual(p, ptstats.mann_whitney_min_p(5, 5))

    def test_identical_is_not_significant(self):
        self.assertEqual(ptstats.mann_whitney_p([1, 2, 3], [1, 2, 3]), 1.0)

    def test_exact_distribution_sums_to_all_arrangements(self):
        counts = ptstats._u_distribution(4, 6)
        self.assertEqual(sum(counts), math.comb(10, 4))
        self.assertEqual(len(counts), 4 * 6 + 1)
        self.assertEqual(counts, counts[::-1])  # symmetric

    def test_normal_approximation_with_ties(self):
        rng = random.Random(1)
        a = [round(rng.gauss(100, 1)) for _ in range(40)]
        b = [round(rng.gauss(103, 1)) for _ in range(40)]
        self.assertLess(ptstats.mann_whitney_p(a, b), 1e-6)

    def test_empty_side(self):
        self.assertIsNone(ptstats.mann_whitney_p([], [1.0]))


class TestHolm(unittest.TestCase):
    def test_known(self):
        self.assertEqual(ptstats.holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])

    def test_capped_at_one(self):
        self.assertEqual(ptstats.holm([0.5, 0.9]), [1.0, 1.0])


if __name__ == "__main__":
    unittest.main()
