# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of the D128 decision table on the fixture run: sizes from
`ptbench model geometry`, translation ranges from walk_model.csv and the
medians ptbench summary gives; needs $PTBENCH."""
import csv
import os
import statistics
import tempfile
import types
import unittest

import decision
import ptdata

FIXTURES = os.environ.get("PTBENCH_FIXTURES") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")
RUN = os.path.join(FIXTURES, "run-small")


def walk(source, backing):
    with open(os.path.join(RUN, "walk_model.csv"), newline="") as f:
        return {int(r["ws_bytes"]): float(r["ns_per_access"]) for r in csv.DictReader(f)
                if r["source"] == source and r["backing"] == backing}


def measured(case):
    with open(os.path.join(RUN, "results.csv"), newline="") as f:
        return statistics.median(float(r["value"]) for r in csv.DictReader(f)
                                 if r["case"] == case and r["metric"] == "ns_per_access")


class TestDecision(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fixture = ptdata.Run(RUN)
        cls.rows = {r.what: r for r in decision.rows(cls.fixture)}

    def test_geometry_rows(self):
        pmd = self.rows["PMD block: THP and the smaller hugetlb size"]
        self.assertEqual((pmd.d64, pmd.d128, pmd.change), ("2 MiB", "1 MiB", "1/2"))
        pud = self.rows["PUD block: the larger hugetlb size"]
        self.assertEqual((pud.d64, pud.d128, pud.change), ("1 GiB", "256 MiB", "1/4"))

    def test_translation_range_at_1g(self):
        f, p = walk("fitted-d64", "4k")[1 << 30], walk("predicted-d128", "4k")[1 << 30]
        m = measured("chase-4k-1G")
        pts = {ws: (lo, hi) for ws, lo, hi, _m in decision.translation_points(self.fixture, "4k")}
        lo, hi = pts[1 << 30]
        self.assertAlmostEqual(hi, max((p / f - 1) * 100, (p - f) / m * 100), places=6)
        self.assertAlmostEqual(lo, min((p / f - 1) * 100, (p - f) / m * 100), places=6)

    def test_worst_miss_names_its_repetitions(self):
        """The translation row gives, where the fit misses most, the range of
        that working set's repetitions as results.csv has them."""
        import headline
        ws = headline.walk_fit_error(self.fixture, "4k")[2]
        with open(os.path.join(RUN, "results.csv"), newline="") as f:
            reps = [float(r["value"]) for r in csv.DictReader(f)
                    if r["workload"] == "tlb" and r["metric"] == "ns_per_access" and
                    r["params"] == "backing=4k;ws=%d" % ws]
        self.assertGreaterEqual(len(reps), 2)
        basis = self.rows["translation cost per access, 4K pages, working sets measured"].basis
        self.assertIn("(its %d repetitions %s to %s ns" % (
            len(reps), decision._num(min(reps)), decision._num(max(reps))), basis)
        self.assertEqual("apart" in basis, max(reps) / min(reps) > decision.UNSTEADY)

    def test_nested_row_from_ranges(self):
        saved = self.fixture.walk
        rows = []
        for source, ratio in (("predicted-d128", 1.1), ("predicted-d128-host", 1.2),
                              ("predicted-d128-both", 1.3)):
            rows.append({"source": source, "backing": "4k", "ws": 1 << 30, "ns_per_access": 1,
                         "d128_over_d64": ratio, "d128_over_d64_lo": ratio - 0.05,
                         "d128_over_d64_hi": ratio + 0.05, "hypothesis": "nested-d64-host-4k"})
        self.fixture.walk = rows
        try:
            r = decision._nested_row(self.fixture, "4k")
            self.assertIsNone(decision._nested_row(self.fixture, "thp"))
        finally:
            self.fixture.walk = saved
        self.assertEqual(r.change, "guest 1.10x [1.05, 1.15]; host 1.20x [1.15, 1.25]; "
                                   "both 1.30x [1.25, 1.35]")
        self.assertIn("nested-d64-host-4k", r.basis)
        # the fixture's one-stage walk_model.csv has no such row
        self.assertIsNone(decision._nested_row(self.fixture, "4k"))

    def test_every_row_says_its_kind(self):
        for r in self.rows.values():
            self.assertTrue(r.kind, r)
        # the fixture run has no ops_model.csv: the row says so and how to make one
        ops = self.rows["kernel operation costs (fork, mprotect, munmap, faults)"]
        self.assertEqual(ops.kind, "not available")
        self.assertIn("ptbench model ops", ops.basis)

    def test_operation_rows(self):
        """One row per headline operation, the largest region, its range as written."""
        header = ("workload,case,params,metric,op,region_bytes,thp,d64_ns,d128_ns,d128_ns_lo,"
                  "d128_ns_hi,ratio,ratio_lo,ratio_hi,basis,profile_samples,profile_coverage,"
                  "replica_bound_share,entries_d64,entries_d128,tables_d64,tables_d128,"
                  "levels_d64,levels_d128,replicas\n")
        line = ("fork,fork-4k-%s,backing=4k;layout=dense;size=%d,ns_per_fork,fork,%d,0,"
                "100,110,105,120,1.1,1.05,1.2,%s,500,0.95,0.01,1,1,1,2,4,5,256M\n")
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "ops_model.csv"), "w") as f:
                f.write(header + line % ("64M", 1 << 26, 1 << 26, "no-profile") +
                        line % ("1G", 1 << 30, 1 << 30, "profile"))
            run = types.SimpleNamespace(dir=d)
            rows = decision._operations_rows(run)
        self.assertEqual(len(rows), 1)
        self.assertIn("fork", rows[0].what)
        self.assertEqual(rows[0].change, "fork-4k-1G 1.100x [1.050, 1.200]")
        self.assertEqual(rows[0].kind, "modelled")
        self.assertIn("500 samples", rows[0].basis)

    def test_no_geometry_without_regime(self):
        saved = self.fixture.meta
        self.fixture.meta = {}
        try:
            geo, why = decision.geometry(self.fixture)
        finally:
            self.fixture.meta = saved
        self.assertIsNone(geo)
        self.assertIn("page_size", why)


if __name__ == "__main__":
    unittest.main()
