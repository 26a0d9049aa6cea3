# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of the headline numbers on the fixture run: each must equal
what a direct computation over its files gives."""
import csv
import math
import os
import unittest

import headline
import ptdata

FIXTURES = os.environ.get("PTBENCH_FIXTURES") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")
RUN = os.path.join(FIXTURES, "run-small")


def rows(name):
    with open(os.path.join(RUN, name), newline="") as f:
        return list(csv.DictReader(f))


class TestFitMiss(unittest.TestCase):
    def test_fit_miss(self):
        import reporttext
        self.assertAlmostEqual(reporttext._fit_miss_pct(33.5, 402.0), (33.5 - 402) / 402 * 100)
        self.assertIsNone(reporttext._fit_miss_pct(33.5, 0))
        self.assertIsNone(reporttext._fit_miss_pct(None, 10))


class TestWalkFitFloor(unittest.TestCase):
    """The report's floor is calibrate's fit_floor, recomputed from walk_model.csv."""

    class FakeRun:
        def __init__(self, rows):
            self.walk = rows

    @staticmethod
    def row(source, backing, ws, ns):
        return {"source": source, "backing": backing, "ws": ws, "ns_per_access": ns}

    def rows(self, measured):
        """Three chases of one working set fitted alike, a dense case alone, a check."""
        out = []
        for (backing, ws), y in measured.items():
            out.append(self.row("measured", backing, ws, y))
            fitted = 50.0 if backing == "dense" else 120.0
            if backing != "half":
                out.append(self.row("fitted-d64", backing, ws, fitted))
        out.append(self.row("fitted-d64", "half", 1 << 26, 120.0))
        return out

    def test_group_best_value(self):
        y = {("4k", 1 << 26): 100.0, ("thp", 1 << 26): 200.0, ("hugetlb", 1 << 26): 100.0,
             ("dense", 1 << 26): 40.0, ("half", 1 << 26): 900.0}
        floor, fit, groups, grouped, n = headline.walk_fit_floor(self.FakeRun(self.rows(y)))
        best = (2 / 100 + 1 / 200) / (2 / 1e4 + 1 / 4e4)
        want = math.sqrt((2 * ((best - 100) / 100) ** 2 + ((best - 200) / 200) ** 2) / 4)
        self.assertAlmostEqual(floor, want * 100)
        fit_sq = 2 * (20 / 100) ** 2 + (80 / 200) ** 2 + (10 / 40) ** 2
        self.assertAlmostEqual(fit, math.sqrt(fit_sq / 4) * 100)
        self.assertEqual((groups, grouped, n), (1, 3, 4))
        self.assertLessEqual(floor, fit)

    def test_report_line(self):
        import reporttext

        class Doc:
            def __init__(self):
                self.lines = []

            def add(self, *lines):
                self.lines.extend(lines)

        y = {("4k", 1 << 26): 100.0, ("thp", 1 << 26): 200.0, ("hugetlb", 1 << 26): 100.0,
             ("dense", 1 << 26): 40.0}
        run = self.FakeRun(self.rows(y))
        for r in run.walk:
            r["hypothesis"] = "shadow-nested-d64-host-4k-scatter"
        saved = headline.walk_fit_error
        headline.walk_fit_error = lambda run, backing: None
        try:
            doc = Doc()
            reporttext._walk_fit(doc, run)
        finally:
            headline.walk_fit_error = saved
        floor, fit = headline.walk_fit_floor(run)[:2]
        line = [l for l in doc.lines if l.startswith("- Walk model floor:")]
        self.assertEqual(len(line), 1)
        self.assertIn("3 of the 4 fitted cases fall in 1 group that", line[0])
        self.assertIn("error of %.1f%%" % floor, line[0])
        self.assertIn("The fit's is %.1f%% over all 4" % fit, line[0])
        self.assertIn("shadow with 4K leaves", line[0])

    def test_agreement_and_nothing(self):
        y = {("4k", 1 << 26): 120.0, ("thp", 1 << 26): 120.0, ("dense", 1 << 26): 40.0}
        floor = headline.walk_fit_floor(self.FakeRun(self.rows(y)))
        self.assertAlmostEqual(floor[0], 0.0)
        self.assertEqual(floor[2:], (1, 2, 3))
        self.assertIsNone(headline.walk_fit_floor(self.FakeRun([])))
        self.assertIsNone(headline.walk_fit_floor(self.FakeRun(None)))


class TestBudgetNote(unittest.TestCase):
    """The machine line says when a time budget cut the repetitions."""

    class FakeRun:
        def __init__(self, run):
            self.meta = {"run": run}

        meta_get = ptdata.Run.meta_get

    def test_cut(self):
        import reporttext
        r = self.FakeRun({"reps": 3, "reps_planned": 10, "budget_seconds": 180})
        self.assertEqual(reporttext.budget_note(r),
                         " (of 10 planned: the run's 180 s time budget, run --budget)")

    def test_not_cut(self):
        import reporttext
        for run in ({"reps": 10, "reps_planned": 10, "budget_seconds": 180},
                    {"reps": 10, "reps_planned": 10, "budget_seconds": None},
                    {"reps": 10}):
            self.assertEqual(reporttext.budget_note(self.FakeRun(run)), "")


class TestHeadline(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fixture = ptdata.Run(RUN)

    def test_pgtable_headline_is_marginal_dense_4k(self):
        h = headline.pgtable_headline(self.fixture)
        self.assertEqual((h["small"].case, h["series"].case), ("dense-4k-64M", "dense-4k-1G"))
        values = {(r["case"], r["metric"]): float(r["value"]) for r in rows("results.csv")
                  if r["case"] in ("dense-4k-64M", "dense-4k-1G")}

        def slope(metric):
            return values[("dense-4k-1G", metric)] - values[("dense-4k-64M", metric)]

        span = (1 << 30) - (64 << 20)
        self.assertAlmostEqual(h["ratio"], slope("pgtable_bytes_model_d128")
                               / slope("pgtable_bytes_model_d64"))
        self.assertAlmostEqual(h["d128_mib_per_gib"],
                               slope("pgtable_bytes_model_d128") / span * 1024)

    def test_translation_headline_at_1g(self):
        h = headline.translation_headline(self.fixture, "4k")
        self.assertEqual(h["ws"], 1 << 30)
        walk = {r["source"]: float(r["ns_per_access"]) for r in rows("walk_model.csv")
                if r["backing"] == "4k" and int(r["ws_bytes"]) == 1 << 30}
        self.assertAlmostEqual(h["change_pct"],
                               (walk["predicted-d128"] / walk["fitted-d64"] - 1) * 100)

    def test_nearest_working_set(self):
        self.assertEqual(headline._nearest([1 << 28, 1 << 31], 1 << 30), 1 << 31)
        self.assertEqual(headline._nearest([1 << 29, 1 << 31], 1 << 30), 1 << 31)

    def test_model_vs_kernel_pairs(self):
        pairs = headline.model_vs_kernel(self.fixture)
        self.assertEqual(len(pairs), len(self.fixture.select(metric="pgtable_bytes_kernel")))


if __name__ == "__main__":
    unittest.main()
