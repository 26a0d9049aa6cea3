# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of compare.py on synthetic samples with known answers."""
import random
import unittest

import compare
import ptdata


def series(values, metric="ns_per_op", better="lower", case="c"):
    s = ptdata.Series("w", case, "size=4096", metric, "ns", better)
    s.values = list(values)
    return s


def noisy(center, cv, n, seed):
    rng = random.Random(seed)
    return [center * (1 + rng.gauss(0, cv)) for _ in range(n)]


class TestCompare(unittest.TestCase):
    def verdict(self, base, new, **kw):
        result = compare.compare([base], [new], **kw)
        self.assertEqual(len(result.rows), 1)
        return result.rows[0]

    def test_identical_sets_nothing_significant(self):
        v = noisy(100, 0.01, 10, 1)
        self.assertEqual(self.verdict(series(v), series(v)).verdict, "no significant change")

    def test_ten_percent_slower_is_a_regression(self):
        row = self.verdict(series(noisy(100, 0.01, 10, 1)), series(noisy(110, 0.01, 10, 2)))
        self.assertEqual(row.verdict, "regression")
        self.assertAlmostEqual(row.change_pct, 10, delta=2)
        self.assertLess(row.ci_lo_pct, row.change_pct)
        self.assertGreater(row.ci_hi_pct, row.change_pct)

    def test_faster_is_an_improvement_not_a_regression(self):
        row = self.verdict(series(noisy(100, 0.01, 10, 1)), series(noisy(90, 0.01, 10, 2)))
        self.assertEqual(row.verdict, "improvement")

    def test_higher_is_better_direction(self):
        row = self.verdict(series(noisy(100, 0.01, 10, 1), better="higher"),
                           series(noisy(90, 0.01, 10, 2), better="higher"))
        self.assertEqual(row.verdict, "regression")

    def test_small_change_below_threshold(self):
        row = self.verdict(series(noisy(100, 0.001, 10, 1)), series(noisy(102, 0.001, 10, 2)))
        self.assertLess(row.p_adj, 0.01)
        self.assertEqual(row.verdict, "no significant change")

    def test_too_few_samples_said(self):
        row = self.verdict(series([100, 101, 99]), series([150, 151, 149]))
        self.assertEqual(row.verdict, "too few samples")

    def test_one_sided_series_listed(self):
        a, b = series([1, 2, 3], case="only-a"), series([1, 2, 3], case="only-b")
        result = compare.compare([a], [b])
        self.assertEqual(result.rows, [])
        self.assertEqual([s.case for s in result.only_base], ["only-a"])
        self.assertEqual([s.case for s in result.only_new], ["only-b"])

    def test_constant_series_left_out_of_the_family(self):
        row = self.verdict(series([7] * 10), series([7] * 10))
        self.assertEqual(row.verdict, "no significant change")
        self.assertFalse(row.tested)

    def test_descriptive_metric_changed(self):
        d = self.verdict(series(noisy(1, 0.01, 10, 1), better="neither"),
                         series(noisy(2, 0.01, 10, 2), better="neither"))
        self.assertEqual(d.verdict, "changed (descriptive)")

    def test_holm_over_many_series(self):
        base = [series(noisy(100, 0.01, 10, i), case="c%d" % i) for i in range(50)]
        new = [series(noisy(100, 0.01, 10, 100 + i), case="c%d" % i) for i in range(50)]
        result = compare.compare(base, new)
        self.assertFalse([r for r in result.rows if r.verdict == "regression"])
        self.assertEqual(result.tested, 50)

    def test_gate_floor(self):
        base = [series([1, 2, 3, 4, 5], case="c%d" % i) for i in range(10)]
        new = [series([6, 7, 8, 9, 10], case="c%d" % i) for i in range(10)]
        result = compare.compare(base, new)
        self.assertGreaterEqual(compare.gate_floor(result), 0.01)


if __name__ == "__main__":
    unittest.main()


class TestGateCsv(unittest.TestCase):
    HEADER = ("workload,case,params,metric,unit,better,base_n,base_median,base_ci_lo,"
              "base_ci_hi,new_n,new_median,new_ci_lo,new_ci_hi,change_pct,p,p_adj,alpha,"
              "threshold_pct,verdict\n")

    def test_gate_verdicts_replace_ours(self):
        base = series(noisy(100, 0.01, 10, 1))
        new = series(noisy(100, 0.01, 10, 2))
        result = compare.compare([base], [new])
        text = self.HEADER + ("w,c,size=4096,ns_per_op,ns,lower,10,1,1,1,10,1,1,1,9,"
                              "0.001,0.002,0.01,5,worse\n")
        gated = compare.apply_gate(result, text)
        self.assertEqual(gated.rows[0].verdict, "regression")
        self.assertEqual(gated.rows[0].p_adj, 0.002)
        self.assertEqual(gated.source, "ptbench compare")

    def test_unrecognised_csv_keeps_ours(self):
        result = compare.compare([series([1, 2, 3])], [series([1, 2, 3])])
        self.assertIs(compare.apply_gate(result, "a,b\n1,2\n"), result)
        self.assertIs(compare.apply_gate(result, ""), result)
