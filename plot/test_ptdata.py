# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of ptdata: reading results.csv, meta.json and walk_model.csv,
and the errors bad input gets (file and line)."""
import os
import shutil
import tempfile
import unittest

import ptdata

HEADER = "workload,case,params,rep,metric,value,unit,better\n"


class TestParsing(unittest.TestCase):
    def test_sizes(self):
        self.assertEqual(ptdata.parse_size("4096"), 4096)
        self.assertEqual(ptdata.parse_size("64K"), 65536)
        self.assertEqual(ptdata.parse_size("1G"), 1 << 30)
        self.assertEqual(ptdata.parse_size("2MiB"), 2 << 20)
        self.assertIsNone(ptdata.parse_size("big"))

    def test_params(self):
        p = ptdata.parse_params("backing=4k;ws=65536")
        self.assertEqual(ptdata.size_of(p), 65536)
        self.assertEqual(p["backing"], "4k")
        with self.assertRaises(ValueError):
            ptdata.parse_params("backing")


class TestOneNumberDefinition(unittest.TestCase):
    """tests/fixtures/numbers.txt, which the C reader is held to as well."""

    def test_numbers_fixture(self):
        here = os.path.dirname(os.path.abspath(__file__))
        fixture = os.path.join(os.environ.get("PTBENCH_FIXTURES",
                                              os.path.join(here, "..", "tests", "fixtures")),
                               "numbers.txt")
        checked = 0
        with open(fixture) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                kind, verdict, text = line.split(" ", 2)
                text = "" if text == "<empty>" else text
                row = ["w", "c", "", text if kind == "rep" else "0", "m",
                       text if kind == "value" else "1", "ns", "lower"]
                cols = {c: i for i, c in enumerate(ptdata.RESULT_COLUMNS)}
                try:
                    ptdata._parse_row("t.csv", 2, row, 8, cols)
                    ok = True
                except ptdata.InputError:
                    ok = False
                self.assertEqual(ok, verdict == "ok", "%s %r" % (kind, text))
                checked += 1
        self.assertGreater(checked, 30)


class TestFiles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.write("meta.json", "{\"schema_version\": 1}\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def error_of(self, csv_text):
        self.write("results.csv", csv_text)
        with self.assertRaises(ptdata.InputError) as ctx:
            ptdata.Run(self.dir)
        return str(ctx.exception)

    def test_duplicate_rep_and_reordered_header(self):
        self.assertIn("appears twice", self.error_of(
            HEADER + "w,c,,0,m,1,ns,lower\nw,c,,0,m,2,ns,lower\n"))
        self.assertIn("header is not", self.error_of(
            "case,workload,params,rep,metric,value,unit,better\nc,w,,0,m,1,ns,lower\n"))

    def test_newer_schema_refused(self):
        self.write("meta.json", "{\"schema_version\": 2}\n")
        self.assertIn("newer", self.error_of(HEADER + "w,c,,0,m,1,ns,lower\n"))

    def test_good_run(self):
        self.write("results.csv", HEADER + "tlb,a,ws=4096,0,ns_per_access,1.5,ns,lower\n"
                   "tlb,a,ws=4096,1,ns_per_access,2.5,ns,lower\n")
        run = ptdata.Run(self.dir)
        self.assertEqual(len(run.series), 1)
        self.assertEqual(run.series[0].values, [1.5, 2.5])
        self.assertEqual(run.series[0].size, 4096)
        self.assertIsNone(run.walk)
        # the statistics are ptbench summary's: median of 1.5 and 2.5, and
        # two samples are too few for a 95% interval of the median
        m = run.series[0].summary()
        self.assertEqual((m.n, m.median, m.min, m.max), (2, 2.0, 1.5, 2.5))
        self.assertFalse(m.ci_valid)

    def test_no_binary(self):
        self.write("results.csv", HEADER + "t,a,,0,m,1,ns,lower\n")
        with self.assertRaises(ptdata.ToolError):
            ptdata.Run(self.dir, ptbench=os.path.join(self.dir, "no-such-ptbench"))

    def test_bad_value_names_line(self):
        msg = self.error_of(HEADER + "tlb,a,,0,ns_per_access,1,ns,lower\n"
                            "tlb,a,,1,ns_per_access,fast,ns,lower\n")
        self.assertIn("results.csv:3", msg)
        self.assertIn("fast", msg)

    def test_bad_header(self):
        self.assertIn("header is not", self.error_of("workload,case\n"))

    def test_field_count(self):
        self.assertIn(":2:", self.error_of(HEADER + "tlb,a,,0,ns_per_access,1,ns\n"))

    def test_bad_better_and_rep_and_nan(self):
        self.assertIn("better", self.error_of(HEADER + "t,a,,0,m,1,ns,up\n"))
        self.assertIn("rep", self.error_of(HEADER + "t,a,,x,m,1,ns,lower\n"))
        self.assertIn("not a number", self.error_of(HEADER + "t,a,,0,m,nan,ns,lower\n"))

    def test_empty(self):
        self.assertIn("no data rows", self.error_of(HEADER))
        self.assertIn("empty", self.error_of(""))

    def test_malformed_meta(self):
        self.write("results.csv", HEADER + "t,a,,0,m,1,ns,lower\n")
        self.write("meta.json", "{not json")
        with self.assertRaises(ptdata.InputError) as ctx:
            ptdata.Run(self.dir)
        self.assertIn("meta.json", str(ctx.exception))

    def test_walk_model(self):
        self.write("results.csv", HEADER + "t,a,,0,m,1,ns,lower\n")
        self.write("walk_model.csv", "source,ws,backing,ns_per_access\n"
                   "fitted-d64,1073741824,4k,100\npredicted-d128,1G,4k,120\n")
        walk = ptdata.Run(self.dir).walk
        self.assertEqual([r["ws"] for r in walk], [1 << 30, 1 << 30])
        self.write("walk_model.csv", "source,ws,backing,ns_per_access\nfitted-d64,x,4k,1\n")
        with self.assertRaises(ptdata.InputError) as ctx:
            ptdata.Run(self.dir)
        self.assertIn("walk_model.csv:2", str(ctx.exception))

    def test_missing_dir(self):
        with self.assertRaises(ptdata.InputError):
            ptdata.Run(os.path.join(self.dir, "nope"))


if __name__ == "__main__":
    unittest.main()
