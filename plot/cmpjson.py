# SPDX-License-Identifier: GPL-2.0-only
"""The comparison of two runs, as `ptbench compare --format json` computes
it (analysis/compare.c, docs/compare.md): medians with their intervals, the
change and its interval, raw and corrected p-values, verdicts, the gate's
settings and its exit status. Nothing here computes a statistic; it reads
the C code's answer and names its verdicts for a reader. Standard library
only.
"""
import json
from collections import namedtuple

import ptdata

Comparison = namedtuple(
    "Comparison", "workload case params metric unit better base new change_pct ci_lo_pct "
                  "ci_hi_pct p p_adj tested gated verdict")
Result = namedtuple("Result", "rows summary gate environment base_run new_run")

# compare's verdicts in the report's words.
VERDICT_WORDS = {"worse": "regression", "better": "improvement", "~": "no significant change",
                 "changed": "changed (descriptive)", "too few samples": "too few samples",
                 "not gated": "not gated", "base only": "only in BASE",
                 "new only": "only in NEW"}
SIGNIFICANT = ("regression", "improvement", "changed (descriptive)")


def _side(obj):
    return ptdata.summary_from_json(obj) if obj else None


def parse(text, what="ptbench compare --format json"):
    """A Result from compare's JSON; ToolError when it is not that."""
    try:
        doc = json.loads(text)
        rows = [Comparison(r["workload"], r["case"], r["params"], r["metric"], r["unit"],
                           r["better"], _side(r["base"]), _side(r["new"]), r["change_pct"],
                           r["change_ci_lo_pct"], r["change_ci_hi_pct"], r["p"], r["p_adj"],
                           r["tested"], r["gated"],
                           VERDICT_WORDS.get(r["verdict"], r["verdict"]))
                for r in doc["series"]]
        return Result(rows, doc["summary"], doc["gate"], doc["environment"],
                      doc["base_run"], doc["new_run"])
    except (ValueError, KeyError, TypeError) as e:
        raise ptdata.ToolError("%s wrote unexpected JSON: %s" % (what, e)) from None


def compare(ptbench, base_dir, new_dir, config=None, fmt="json"):
    """Run `ptbench compare BASE NEW --format FMT`: a Result for json, the
    text otherwise. Exit 1 (a regression) is an answer, not a failure; exit
    2 (bad input) raises InputError, anything else ToolError."""
    args = ["compare", base_dir, new_dir, "--format", fmt]
    if config:
        args += ["--config", config]
    text = ptdata.run_ptbench(ptbench, args, ok=(0, 1))
    return parse(text) if fmt == "json" else text


def label(row):
    return "%s/%s %s" % (row.workload, row.case, row.metric)
