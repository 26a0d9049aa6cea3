# SPDX-License-Identifier: GPL-2.0-only
"""The sections of REPORT.md and of the appendix beside it. Each function
appends Markdown to a Doc from the data of a run; none of them invents a
number or computes a statistic: medians and intervals come from `ptbench
summary`, comparisons from `ptbench compare --format json`. Standard library
only."""
import math
import os
import re
from collections import OrderedDict

import cmpjson
import decision
import headline
import ptdata

# The metrics each workload's table shows; the appendix has them all.
PRIMARY = OrderedDict([
    ("tlb", ("ns_per_access", "ticks_per_access")),
    ("fault", ("ns_per_fault", "faults_per_page")),
    ("mprotect", ("ns_per_call", "ns_per_page")),
    ("fork", ("ns_per_fork", "ns_per_mib_resident")),
    ("munmap", ("ns_per_page",)),
    ("thp", ("ns_per_huge_fault", "thp_fraction", "ns_per_mthp_fault", "mthp_fraction",
             "ns_per_collapse", "ns_per_split")),
    ("pgtable", ("pgtable_bytes_kernel", "pgtable_bytes_model_d64",
                 "pgtable_bytes_model_d128", "pgtable_d128_d64_ratio")),
])
FIGURE_OF = {"tlb": "translation", "pgtable": "pgtable", "fork": "mmcost",
             "mprotect": "mmcost", "munmap": "mmcost", "fault": "faults", "thp": "faults"}
FIGURE_NUMBER = {"pgtable": 1, "translation": 2, "mmcost": 3, "faults": 4, "compare": 5,
                 "opcost": 6}
HIGH_CV = 0.10
MAX_LISTED = 15
APPENDIX = "REPORT-series.md"


class Doc:
    """Markdown being written, and the figures it may show."""

    def __init__(self, directory, figures, no_plots):
        self.dir = directory
        self.figures = figures
        self.no_plots = no_plots
        self.lines = []
        self.shown = set()

    def add(self, *lines):
        self.lines.extend(lines)

    def text(self):
        return "\n".join(self.lines).rstrip() + "\n"


# Characters that let a value from meta.json or results.csv (a --tag, a
# case note, the CPU model, a counter's reason) become markup: a link or an
# image ([ ]), an HTML tag or entity (< > &), a code span (`), emphasis (*),
# a table cell (|), and the backslash itself. Values never start a line (a
# heading's or a list item's marker comes first), and _ inside a word is not
# emphasis, so metric names stay readable.
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
_MD_SPECIAL = set("\\`*[]<>|&")


def md(value):
    """A value as literal Markdown text: special characters backslash-escaped
    (CommonMark's escape for any ASCII punctuation), line breaks flattened."""
    text = " ".join(str(value).splitlines())
    return "".join("\\" + c if c in _MD_SPECIAL else c for c in text)


def code(value):
    """A value as an inline code span that it cannot end early: the fence is
    longer than any run of backticks in it (no escape works inside one)."""
    text = " ".join(str(value).splitlines())
    longest = run = 0
    for c in text:
        run = run + 1 if c == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    # a pipe ends a table cell even inside a code span, unless escaped
    return fence + pad + _UNESCAPED_PIPE.sub(r"\\|", text) + pad + fence


def num(value):
    """A number for a table: thousands separated, 4 significant digits."""
    if value is None:
        return "-"
    if abs(value) >= 1e4:
        return "{:,.0f}".format(value)
    return "%.4g" % value


def pct(value):
    return "%+.1f%%" % value


def mib(nbytes):
    return "%.2f MiB" % (nbytes / (1 << 20))


def table(doc, header, rows):
    doc.add("| " + " | ".join(header) + " |", "|" + "---|" * len(header))
    for row in rows:
        # md() and code() have escaped their pipes; escape any other one
        doc.add("| " + " | ".join(_UNESCAPED_PIPE.sub(r"\\|", " ".join(str(c).splitlines()))
                                  for c in row) + " |")
    doc.add("")


def kind(series):
    return "modelled" if series.modelled else "measured"


def figure(doc, name):
    """Embed a figure the first time, refer to it after; say why it is absent."""
    number = FIGURE_NUMBER[name]
    if name in doc.shown:
        doc.add("See Figure %d above." % number, "")
        return
    doc.shown.add(name)
    if doc.no_plots:
        doc.add("_Figure %d was not made (--no-plots)._" % number, "")
        return
    fig = doc.figures.get(name)
    if fig is None or not fig.paths:
        doc.add("_Figure %d omitted: %s._" % (number, fig.note if fig else "not made"), "")
        return
    rel = [os.path.relpath(p, doc.dir) for p in fig.paths]
    png = next((p for p in rel if p.endswith(".png")), rel[0])
    svg = next((p for p in rel if p.endswith(".svg")), None)
    doc.add("![Figure %d: %s](%s)" % (number, fig.title, png), "")
    line = "_Figure %d: %s._" % (number, fig.title)
    if svg:
        line += " [SVG](%s)" % svg
    if fig.note:
        line += " Note: %s." % fig.note
    doc.add(line, "")


def title(doc, run, run2):
    name = os.path.basename(os.path.normpath(run.dir))
    doc.add("# ptbench report: %s" % md(name), "")
    tag = run.meta_get("run", "tag")
    what = "Run tag \"%s\". " % md(tag) if tag else ""
    doc.add(what + "Written by `ptbench report` from this directory's `results.csv`, "
            "`meta.json` and, where present, `walk_model.csv`. **Measured**: sampled by "
            "ptbench on the machine below. **Modelled**: ptbench's D64/D128 page-table model "
            "and its TLB/page-walk simulator. Every series, and the full environment, are "
            "in [%s](%s)." % (APPENDIX, APPENDIX), "")
    doc.add(machine_line(run), "")
    if run2 is not None:
        doc.add("Compared with %s (BASE: this run, NEW: that run)." % code(run2.dir), "")


def budget_note(run):
    """Why a run measured fewer repetitions than planned (run --budget), or ''."""
    reps = run.meta_get("run", "reps")
    planned = run.meta_get("run", "reps_planned")
    budget = run.meta_get("run", "budget_seconds")
    if not (isinstance(reps, int) and isinstance(planned, int) and planned > reps
            and isinstance(budget, (int, float))):
        return ""
    return " (of %d planned: the run's %.0f s time budget, run --budget)" % (planned, budget)


def machine_line(run):
    """One line: what was measured, where."""
    parts = [run.meta_get("regime", "text") or "regime not recorded",
             "kernel %s" % run.meta_get("env", "kernel_release", default="?"),
             run.meta_get("env", "cpu_model", default="CPU not recorded"),
             "suite %s, %s repetitions%s" % (run.meta_get("run", "suite", default="?"),
                                            run.meta_get("run", "reps", default="?"),
                                            budget_note(run))]
    started = run.meta_get("run", "started_utc")
    if started:
        parts.append("started %s" % started)
    return "**Machine and run:** " + "; ".join(md(p) for p in parts) + "."


def decision_table(doc, run):
    doc.add("## What D128 would change against D64", "")
    doc.add("For this machine and run: the D64 column is this kernel, measured or modelled "
            "as marked; no D128 kernel or hardware was measured, so every D128 number is "
            "modelled or follows from the architecture's geometry.", "")
    table(doc, ("question", "D64", "D128", "change", "kind", "basis, and what it leaves out"),
          decision.rows(run))


def _flatten(node, prefix=""):
    """Leaf values of nested dicts as (dotted key, value)."""
    out = []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _flatten(value, "%s.%s" % (prefix, key) if prefix else key)
    elif isinstance(node, list):
        out.append((prefix, ", ".join(str(v) for v in node) if node else "(none)"))
    else:
        out.append((prefix, node))
    return out


def environment(doc, run):
    """The full environment, for the appendix."""
    doc.add("## Environment and translation regime", "")
    regime = run.meta_get("regime", "text")
    doc.add("**Translation regime:** %s." % (md(regime) if regime else
                                             "not recorded in meta.json"), "")
    rows = [("tool", md("%s %s" % (run.meta_get("tool", "name", default="ptbench"),
                                   run.meta_get("tool", "version", default="?"))))]
    rows.append(("command line", code(run.meta_get("tool", "command_line", default="?"))))
    for key in ("suite", "reps", "warmup", "order", "free_page_reporting", "started_utc",
                "finished_utc", "steal_pct"):
        value = run.meta_get("run", key)
        if value is not None:
            rows.append(("run." + key, md(value)))
    for section in ("regime", "env", "timer", "pinning"):
        rows += [(md("%s.%s" % (section, k)), md(v))
                 for k, v in _flatten(run.meta_get(section, default={}))
                 if not (section == "regime" and k == "text")]
    table(doc, ("what", "value"), rows)


def _pgtable_sentences(doc, run):
    h = headline.pgtable_headline(run)
    if h is None:
        doc.add("- Page-table memory: no 4K case that populates every page has modelled D64 "
                "and D128 bytes in this run, so no headline figure.")
        return
    s = h["series"]
    if h["small"] is not None:
        how = ("marginal cost from `%s/%s` to `%s/%s`: the difference in bytes over the "
               "%s more populated, which cancels the rest of the process" % (
                   s.workload, h["small"].case, s.workload, s.case,
                   ptdata.human_bytes(h["span"])))
    else:
        how = ("`%s/%s`, bytes over its %s populated, including the rest of the process" % (
            s.workload, s.case, ptdata.human_bytes(h["span"])))
    doc.add("- **D128 would use %.2fx the page-table memory of D64: %.2f MiB per populated "
            "GiB instead of %.2f MiB** (modelled; %s; populated bytes from the %s)." % (
                h["ratio"], h["d128_mib_per_gib"], h["d64_mib_per_gib"], how,
                h["populated_how"]))
    if h["kernel_mib_per_gib"] is not None:
        doc.add("  The kernel's own count over the same cases (measured, `%s`): %.2f MiB per "
                "populated GiB." % (h["kernel_metric"], h["kernel_mib_per_gib"]))
    rr = headline.ratio_range(run)
    if rr:
        doc.add("- Modelled D128/D64 page-table memory ratio of the whole process over all %d "
                "cases with a model row: %.2fx to %.2fx." % (rr[2], rr[0], rr[1]))


def _translation_sentences(doc, run):
    if run.walk is None:
        doc.add("- Translation cost: no `walk_model.csv` in this run (the walk model was not "
                "calibrated), so no modelled D128 translation figure.")
        return
    any_line = False
    for backing in ("4k", "thp"):
        h = headline.translation_headline(run, backing)
        if h is None:
            continue
        any_line = True
        at = ptdata.human_bytes(h["ws"])
        if h["ws"] != headline.HEADLINE_WS:
            at += " (the modelled working set nearest 1 GiB)"
        measured = ""
        if h["measured"] is not None:
            measured = "; measured %s ns (median, n=%d)" % (num(h["measured"].median),
                                                             h["measured"].n)
            miss = _fit_miss_pct(h["d64"], h["measured"].median)
            if miss is not None and abs(miss) > FIT_WARN_PCT:
                measured += (". **The fit misses the measurement here by %.0f%%**: what the "
                             "simulator does not model (on a VM, the nested second walk) is "
                             "not in the prediction, so read the ratio as the cost of the "
                             "modelled walk alone" % abs(miss))
        doc.add("- **Modelled translation cost %s per access at a %s working set with %s "
                "pages**: predicted D128 %s ns vs fitted D64 %s ns%s." % (
                    pct(h["change_pct"]), at, backing.upper(), num(h["d128"]), num(h["d64"]),
                    measured))
    if not any_line:
        doc.add("- Translation cost: `walk_model.csv` has no fitted-d64/predicted-d128 pair "
                "at a common working set.")


FIT_WARN_PCT = 25.0


def _fit_miss_pct(fitted, measured):
    """(fitted - measured) / measured in %, None when it cannot be computed."""
    if fitted is None or measured is None or not measured:
        return None
    return (fitted - measured) / measured * 100


def _key_measurements(doc, run):
    """One line per workload: its first primary metric at the largest size."""
    for workload in run.workloads():
        metrics = PRIMARY.get(workload, ())
        if workload == "pgtable":
            continue
        for metric in metrics[:1]:
            series = [s for s in run.select(workload, metric)]
            if not series:
                continue
            biggest = OrderedDict()
            for s in series:
                backing = s.param_map.get("backing", "")
                if backing not in biggest or (s.size or 0) > (biggest[backing].size or 0):
                    biggest[backing] = s
            parts = ["`%s` %s (CV %.1f%%, n=%d)" % (s.case, num(s.summary().median),
                                                   s.summary().cv * 100, s.summary().n)
                     for s in biggest.values()]
            doc.add("- %s, %s [%s], largest size per backing: %s." % (
                workload, metric, series[0].unit, "; ".join(parts)))


def headlines(doc, run):
    doc.add("## Headline figures", "")
    doc.add("Modelled:", "")
    _pgtable_sentences(doc, run)
    _translation_sentences(doc, run)
    doc.add("", "Measured on this machine (median over repetitions):", "")
    _key_measurements(doc, run)
    doc.add("")
    figure(doc, "pgtable")
    figure(doc, "translation")


def _validation(doc, run):
    rows = headline.model_vs_kernel(run)
    if not rows:
        doc.add("No case has both the kernel's page-table bytes and the model's for the "
                "running format, so the model is not checked against the kernel here.", "")
        return
    page = run.meta_get("regime", "page_size", default=4096) or 4096
    exact = [r for r in rows if abs(r[2] - r[1]) <= page]
    doc.add("The model for the running format against the kernel's own count "
            "(pgtable_bytes_model_running vs pgtable_bytes_kernel_total, or "
            "pgtable_bytes_kernel where there is no total): %d of %d cases agree "
            "within one %d-byte table page." % (len(exact), len(rows), page), "")
    off = sorted((r for r in rows if abs(r[2] - r[1]) > page),
                 key=lambda r: -abs(r[2] - r[1]))
    if off:
        table(doc, ("case", "kernel (measured)", "model (running format)", "model / kernel"),
              [("%s/%s" % (s.workload, s.case), num(k), num(m),
                "%.3f" % (m / k) if k else "-") for s, k, m in off[:MAX_LISTED]])
        if len(off) > MAX_LISTED:
            doc.add("... and %d more." % (len(off) - MAX_LISTED), "")


def _walk_fit(doc, run):
    if run.walk is None:
        return
    for backing in ("4k", "thp"):
        fit = headline.walk_fit_error(run, backing)
        if fit:
            doc.add("- Walk model fit, %s: fitted D64 vs measured median ns per access over "
                    "%d working sets: mean error %.1f%%, worst %.1f%% at %s." % (
                        backing.upper(), fit[3], fit[0], fit[1], ptdata.human_bytes(fit[2])))
    floor = headline.walk_fit_floor(run)
    if floor and floor[2]:
        shadow = any("shadow" in (r.get("hypothesis") or "") for r in run.walk)
        doc.add("- Walk model floor: %d of the %d fitted cases fall in %d group%s that the "
                "chosen structure simulates alike, one cost each whatever the latencies%s; "
                "their measured differences alone leave an RMS relative error of %.1f%% "
                "that no fit removes. The fit's is %.1f%% over all %d; the rest, %.1f%%, "
                "is the model's shape (fit² = floor² + shape²)." % (
                    floor[3], floor[4], floor[2], "" if floor[2] == 1 else "s",
                    " (under its shadow with 4K leaves, the 4K, THP and hugetlb chases of "
                    "one working set among them)" if shadow else "",
                    floor[0], floor[1], floor[4],
                    math.sqrt(max(0.0, floor[1] ** 2 - floor[0] ** 2))))
    doc.add("")


def measured_vs_modelled(doc, run):
    doc.add("## Measured vs modelled", "")
    measured = sorted({s.workload for s in run.series if not s.modelled})
    modelled = sorted({s.metric for s in run.series if s.modelled})
    rows = [("every row of results.csv except those below (workloads: %s)"
             % ", ".join(measured), "measured", "timed and counted by `ptbench run` here")]
    if modelled:
        rows.append((", ".join(modelled), "modelled",
                     "model/ from the populated pages at each case's measurement point"))
    if run.walk is not None:
        rows.append(("walk_model.csv `fitted-d64`", "modelled",
                     "walk simulator with latencies fitted to the measured tlb sweep"))
        rows.append(("walk_model.csv `predicted-d128`", "modelled (prediction)",
                     "the same simulator and latencies with D128 tables"))
    table(doc, ("numbers", "kind", "source"), rows)
    _validation(doc, run)
    _walk_fit(doc, run)


def _workload_metrics(run, workload):
    """The metrics of a workload's table, in PRIMARY's order; for a workload
    PRIMARY does not know, every metric with a better direction."""
    present = OrderedDict((s.metric, None) for s in run.select(workload))
    wanted = [m for m in PRIMARY.get(workload, ()) if m in present]
    if wanted:
        return wanted
    return [m for m in present if run.select(workload, m)[0].better != "neither"] or \
        list(present)


def _cell(s):
    """median (95% interval) for a table cell; the interval marked ~ when too
    few samples for 95% (then it is the range)."""
    if s is None:
        return "-"
    m = s.summary()
    if m.ci_lo == m.ci_hi:
        return num(m.median)  # every sample the same: an interval adds nothing
    return "%s (%s-%s%s)" % (num(m.median), num(m.ci_lo), num(m.ci_hi),
                             "" if m.ci_valid else " ~")


def workloads(doc, run):
    doc.add("## Workloads", "")
    doc.add("Per case: the median over repetitions and, in brackets, its 95%% interval "
            "(order statistics; `~`: too few samples for 95%%, the range is shown), the "
            "largest CV of the row, the samples per series, and whether the row is measured "
            "or modelled. Every metric is in [%s](%s)." % (APPENDIX, APPENDIX), "")
    for workload in run.workloads():
        doc.add("### %s" % md(workload), "")
        metrics = _workload_metrics(run, workload)
        units = {s.metric: s.unit for s in run.select(workload)}
        cases = OrderedDict()
        for s in run.select(workload):
            if s.metric in metrics:
                cases.setdefault((s.case, s.params), {})[s.metric] = s
        params_of = {}
        for case, params in cases:
            params_of.setdefault(case, set()).add(params)
        show_params = any(len(p) > 1 for p in params_of.values())
        header = ["case"] + (["params"] if show_params else []) + [
            md("%s (%s)" % (m, units[m])) for m in metrics] + ["CV", "n", "kind"]
        out = []
        for (case, params), by_metric in cases.items():
            present = list(by_metric.values())
            cv = max(s.summary().cv or 0 for s in present)
            ns = sorted({s.summary().n for s in present})
            kinds = sorted({kind(s) for s in present})
            out.append([md(case)] + ([code(params)] if show_params else []) +
                       [_cell(by_metric.get(m)) for m in metrics] +
                       ["%.1f%%" % (cv * 100), "/".join(str(n) for n in ns),
                        "/".join(kinds)])
        table(doc, header, out)
        if workload in FIGURE_OF:
            figure(doc, FIGURE_OF[workload])
    for name in ("pgtable", "translation", "mmcost", "faults"):
        if name not in doc.shown:
            doc.add("_Figure %d (%s): the run has no %s rows._" % (
                FIGURE_NUMBER[name], name, name), "")
            doc.shown.add(name)


def _env_diff(run, run2):
    a = dict(_flatten({"regime": run.meta_get("regime", default={}),
                       "env": run.meta_get("env", default={})}))
    b = dict(_flatten({"regime": run2.meta_get("regime", default={}),
                       "env": run2.meta_get("env", default={})}))
    keys = sorted(set(a) | set(b))
    return [(k, a.get(k, "(absent)"), b.get(k, "(absent)")) for k in keys
            if a.get(k) != b.get(k)]


LOUD_KEYS = ("env.cpu_model", "env.page_size", "regime.page_size", "regime.arch")


def _comparison_env(doc, result):
    diff = [e for e in result.environment if e["differs"]]
    if not diff:
        doc.add("The environments `ptbench compare` checks are the same on both sides.", "")
        return
    loud = [e["field"] for e in diff if e["warning"]]
    if loud:
        doc.add("**WARNING: the runs differ in %s: a comparison across hardware or page "
                "sizes measures the machines, not the kernels.**" % md(", ".join(loud)), "")
    table(doc, ("differs", "BASE", "NEW"), [(md(e["field"]), md(e["base"]), md(e["new"]))
                                           for e in diff])


def _verdict_counts(result):
    sm = result.summary
    return ("%d series: %d worse, %d better, %d changed (descriptive), %d no significant "
            "change, %d too few samples, %d not gated, %d only in BASE, %d only in NEW" % (
                sm["series"], sm["worse"], sm["better"], sm["changed"],
                sm["series"] - sm["worse"] - sm["better"] - sm["changed"] - sm["too_few"]
                - sm["not_gated"] - sm["base_only"] - sm["new_only"],
                sm["too_few"], sm["not_gated"], sm["base_only"], sm["new_only"]))


def _pct_or_dash(v):
    return "-" if v is None else pct(v)


def _interval(r):
    if r.ci_lo_pct is None or r.ci_hi_pct is None:
        return "- (too few samples)"
    return "%s to %s" % (pct(r.ci_lo_pct), pct(r.ci_hi_pct))


def _flagged_table(doc, rows):
    table(doc, ("series", "BASE median", "NEW median", "change", "95% interval of the change",
                "p (corrected)", "verdict"),
          [("%s/%s %s %s" % (md(r.workload), md(r.case), code(r.params), md(r.metric)),
            num(r.base.median), num(r.new.median), _pct_or_dash(r.change_pct), _interval(r),
            "%.3g" % r.p_adj if r.p_adj is not None else "-", "**%s**" % md(r.verdict))
           for r in rows[:MAX_LISTED]])
    if len(rows) > MAX_LISTED:
        doc.add("... and %d more in [%s](%s)." % (len(rows) - MAX_LISTED, APPENDIX, APPENDIX),
                "")


def comparison(doc, run, run2, result, gate_config=None):
    """The first screen when two runs are given: compare's verdicts."""
    gate, sm = result.gate, result.summary
    doc.add("## Comparison: BASE against NEW", "")
    doc.add("BASE %s (this run, %s) against NEW %s (%s). Verdicts, medians, intervals "
            "and p-values are `ptbench compare`'s (Mann-Whitney U, %s-corrected over %d "
            "tested series; alpha %g, threshold %g%%%s): **%s**, exit status %d." % (
                code(run.dir), md(result.base_run.get("kernel_release") or "kernel not recorded"),
                code(run2.dir), md(result.new_run.get("kernel_release") or "kernel not recorded"),
                md(gate["correction"]), sm["tested"], gate["alpha"], gate["threshold_pct"],
                ", per-series settings of %s" % code(gate_config) if gate_config else "",
                md(sm["exit_meaning"]), sm["exit_status"]), "")
    doc.add("Verdicts: %s." % _verdict_counts(result), "")
    if gate_config:
        doc.add("The gate used the per-series settings of %s (`ptbench compare --config`): "
                "thresholds raised to the run-to-run noise `ptbench calibrate` measured, and "
                "series too noisy to judge are `not gated`." % code(gate_config), "")
    if sm["gate_blind"]:
        doc.add("**With these sample counts the gate cannot fire**: no series can reach its "
                "alpha after the correction. Run more repetitions.", "")
    if sm["too_few"]:
        doc.add("**%d series have too few samples to be judged.**" % sm["too_few"], "")
    _comparison_env(doc, result)
    for title_, verdicts in (("Regressions", ("regression",)),
                             ("Improvements and descriptive changes",
                              ("improvement", "changed (descriptive)"))):
        rows = sorted((r for r in result.rows if r.verdict in verdicts),
                      key=lambda r: -abs(r.change_pct or 0))
        doc.add("### %s" % title_, "")
        if rows:
            _flagged_table(doc, rows)
        else:
            doc.add("None.", "")
    for label, verdict in (("only in BASE", "only in BASE"), ("only in NEW", "only in NEW")):
        only = [r for r in result.rows if r.verdict == verdict]
        if only:
            names = ", ".join(md(cmpjson.label(r)) for r in only[:MAX_LISTED])
            more = " ... and %d more" % (len(only) - MAX_LISTED) if len(only) > MAX_LISTED else ""
            doc.add("Series %s (%d, not compared): %s%s." % (label, len(only), names, more), "")
    figure(doc, "compare")
    doc.add("Every series compared: [%s](%s)." % (APPENDIX, APPENDIX), "")


def _demoted(markdown):
    """Embedded Markdown with its headings two levels down."""
    return "\n".join("##" + line if line.startswith("#") else line
                     for line in markdown.rstrip().splitlines())


def compare_appendix(doc, gate_md):
    doc.add("## Comparison: every series (`ptbench compare --format markdown`)", "")
    doc.add(_demoted(gate_md), "")


def _vm_line(run):
    hits = [(k, v) for k, v in _flatten(run.meta_get("env", default={}))
            if any(w in k.lower() for w in ("hypervisor", "virtual", "virt")) and v]
    if hits:
        return ("This run was in a virtual machine (%s): a TLB miss walks two dimensions "
                "(nested paging), so measured walk costs are higher than on bare metal, and "
                "the walk model is calibrated on them." % ", ".join(
                    "%s: %s" % (md(k), md(v)) for k, v in hits))
    return ("meta.json does not say whether this run was in a virtual machine; in one, "
            "every TLB miss walks two dimensions (nested paging) and costs more than on "
            "bare metal.")


def _counter_lines(run):
    unsupported = run.meta_get("counters", "unsupported", default=[]) or []
    if not unsupported:
        return []
    names = ", ".join("%s (%s)" % (code(u.get("name", "?")),
                                   md(u.get("reason", "no reason given")))
                      if isinstance(u, dict) else code(u) for u in unsupported)
    return ["Counters not supported here, so they have no rows (never zero): %s." % names]


def _case_lines(run):
    cases = run.meta_get("cases", default=[]) or []
    bad = [c for c in cases if isinstance(c, dict) and c.get("status") not in (None, "ok")]
    if not bad:
        return []
    items = ["%s %s%s" % (code("%s/%s" % (c.get("workload", "?"), c.get("case", "?"))),
                          md(c.get("status")),
                          (": " + md("; ".join(str(n) for n in c.get("notes"))))
                          if isinstance(c.get("notes"), list) and c.get("notes") else "")
             for c in bad[:MAX_LISTED]]
    more = " ... and %d more" % (len(bad) - MAX_LISTED) if len(bad) > MAX_LISTED else ""
    return ["%d cases did not produce results: %s%s." % (len(bad), "; ".join(items), more)]


def _noise_lines(run):
    noisy = sorted((s for s in run.series if not s.modelled and s.summary().n > 1
                    and s.summary().cv > HIGH_CV), key=lambda s: -s.summary().cv)
    if not noisy:
        return []
    names = ", ".join("%s (%.0f%%)" % (md("%s/%s %s" % (s.workload, s.case, s.metric)),
                                       s.summary().cv * 100) for s in noisy[:5])
    return ["%d measured series have a CV above %.0f%%; read their medians with care: %s%s."
            % (len(noisy), HIGH_CV * 100, names, " ..." if len(noisy) > 5 else "")]


def _incomplete_lines(run):
    """A run killed or stopped by a full disk keeps its completed rounds
    (docs/run.md): say so before any number is read."""
    if run.meta_get("complete") is not False:
        return []
    unfinished = [u for u in run.meta_get("unfinished", default=[]) or []
                  if isinstance(u, dict)]
    names = ", ".join(code("%s/%s" % (u.get("workload", "?"), u.get("case", "?")))
                      for u in unfinished[:MAX_LISTED])
    return ["**This run did not finish** (meta.json says `complete: false`): it was killed "
            "or stopped before its end, and %d case(s) have fewer repetitions than asked%s."
            % (len(unfinished), (": " + names) if names else "")]


def caveats(doc, run):
    doc.add("## Caveats", "")
    lines = _incomplete_lines(run) + [_vm_line(run)]
    lines += _counter_lines(run)
    if run.meta_get("env", "hw_pmu") is False or run.meta_get("env", "pmu") is False:
        lines.append("No hardware PMU: TLB-miss and page-walk counters could not be read; "
                     "translation cost is inferred from time per access only.")
    if run.meta_get("regime", "arch") in ("x86_64", "x86-64"):
        lines.append("Measured on x86-64: its 4-level tables have the geometry of arm64 4K "
                     "D64 VA48, so they stand in for a D64 arm64 kernel; instruction-level "
                     "costs (128-bit atomics for D128 entries) are not modelled.")
    if run.meta_get("regime", "config_known") is False:
        lines.append("The kernel config was not readable; the regime was derived from page "
                     "and PMD sizes only.")
    lines.append("Every D128 number is modelled: no D128 hardware or kernel was measured. "
                 "The page-table memory model counts the levels the kernel counts; the walk "
                 "model predicts the cost of the extra level and halved entries per cache "
                 "line, not effects it does not simulate.")
    lines += _case_lines(run)
    lines += _noise_lines(run)
    doc.add(*["- " + line for line in lines])
    doc.add("")


def files(doc, run, extracts, notes):
    doc.add("## Files", "")
    items = ["[`%s`](%s): every series of the run and the full environment" % (
        APPENDIX, APPENDIX), "`results.csv`, `meta.json`: the run (results/SCHEMA.md)"]
    if run.walk is not None:
        items.append("`walk_model.csv`: the walk model's measured, fitted-d64 and "
                     "predicted-d128 rows")
    for name in sorted(doc.figures):
        for path in doc.figures[name].paths:
            items.append("`%s`" % os.path.relpath(path, doc.dir))
    for path in extracts:
        items.append("`%s`: data for the gnuplot scripts (plot/*.gp)" %
                     os.path.relpath(path, doc.dir))
    doc.add(*["- " + i for i in items])
    for note in notes:
        doc.add("- (%s)" % note)
    doc.add("")


def appendix_title(doc, run):
    name = os.path.basename(os.path.normpath(run.dir))
    doc.add("# ptbench report: %s, appendix" % md(name), "")
    doc.add("Beside [REPORT.md](REPORT.md), written with it by `ptbench report`. Medians, "
            "intervals and CVs are `ptbench summary`'s.", "")


def all_series(doc, run):
    doc.add("## Every series", "")
    table(doc, ("workload", "case", "params", "metric", "median", "95% interval", "CV", "n",
                "unit", "better", "kind"),
          [(md(s.workload), md(s.case), code(s.params), md(s.metric), num(s.summary().median),
            "%s-%s%s" % (num(s.summary().ci_lo), num(s.summary().ci_hi),
                         "" if s.summary().ci_valid else " ~"),
            "%.1f%%" % ((s.summary().cv or 0) * 100), s.summary().n, md(s.unit), md(s.better),
            kind(s))
           for s in run.series])
