#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fig_pgtable keeps a readable number of bars: the largest size per family."""
import unittest
from collections import OrderedDict

import fig_pgtable
import ptdata


def _case(workload, backing, size):
    params = "backing=%s;size=%d" % (backing, size)
    bars = [ptdata.Series(workload, "%s-%d" % (backing, size), params, metric, "bytes",
                          "lower") for metric, _label, _colour in fig_pgtable.BARS]
    bars[1] = None  # a missing bar must not matter
    return (workload, "%s-%d" % (backing, size), params), bars


class ThinTest(unittest.TestCase):
    def test_few_cases_untouched(self):
        cases = OrderedDict([_case("fork", "4k", 1 << 20)])
        kept, note = fig_pgtable._thin(cases)
        self.assertIs(kept, cases)
        self.assertIsNone(note)

    def test_many_cases_keep_largest_per_family(self):
        cases = OrderedDict()
        for workload in ("fork", "munmap"):
            for backing in ("4k", "thp"):
                for i in range(12):
                    key, bars = _case(workload, backing, (i + 1) << 20)
                    cases[key] = bars
        self.assertGreater(len(cases), fig_pgtable.MAX_CASES)
        kept, note = fig_pgtable._thin(cases)
        self.assertEqual(len(kept), 4)
        self.assertTrue(all(key[1].endswith("-%d" % (12 << 20)) for key in kept))
        self.assertIn("48 cases", note)


if __name__ == "__main__":
    unittest.main()
