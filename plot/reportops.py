# SPDX-License-Identifier: GPL-2.0-only
"""REPORT.md's section on the page-table operations under D128: the
predictions of `ptbench model ops` for every case it covered, its checks on
this D64 kernel, and Figure 6. Numbers come from ops_model.csv and
ops_validation.csv as written; nothing is computed here."""
import opcost
import reporttext as rt

CHECK_WHAT = {
    "profile_coverage": "profiled time / timed time (the profile accounts for the cost)",
    "replica_bound": "replica D64 cost x entries / profiled kernel component",
    "heldout_fault": "held-out fault prediction, relative error",
    "heldout_fork": "held-out fork prediction, relative error",
}


def section(doc, run):
    doc.add("## Page-table operations under D128 (modelled)", "")
    model, valid = opcost.load(run)
    if model is None:
        doc.add("No `ops_model.csv` in this run: `ptbench model ops --results DIR` was not "
                "run, so D128's cost to fork, mprotect, munmap and faults is not predicted "
                "here.", "")
        return
    doc.add("Each D64 time was measured here; each D128 number is **modelled** by "
            "`ptbench model ops` ([docs/opcost.md](docs/opcost.md)): the case's cpu-clock "
            "profile splits its time into page-table components, each scaled by its "
            "structural count (entries, tables, levels, blocks) under D128 and by the "
            "ptops replicas' D128/D64 cost measured in this run. The range spans the "
            "replicas' interval, whether only the replicated descriptor work or the whole "
            "component moves with the format, and the profile's sampling error. It leaves "
            "out " + opcost.LEAVES_OUT + ".", "")
    headline = [r for _label, r in opcost.headline_rows(model)]
    doc.add("The headline operations (every case the model covered, and every check, "
            "are in the appendix, [%s](%s)):" % (rt.APPENDIX, rt.APPENDIX), "")
    rt.table(doc, ("case", "D64 ns (measured)", "D128 ns (modelled)", "D128/D64 [range]",
                   "profile coverage", "replica bound"),
             [(rt.md("%s/%s" % (r["workload"], r["case"])), opcost.fmt(float(r["d64_ns"])),
               opcost.fmt(float(r["d128_ns"])), opcost.ratio_text(r),
               r["profile_coverage"] and "%.2f" % float(r["profile_coverage"]) or "-",
               r["replica_bound_share"] and "%.3f" % float(r["replica_bound_share"]) or "-")
              for r in headline])
    rt.figure(doc, "opcost")
    doc.add("### The model's checks on this D64 kernel", "")
    if not valid:
        doc.add("No `ops_validation.csv`: no check could be made (no profile and no "
                "held-out cases in the run).", "")
        return
    doc.add("Per case above: the profile's coverage of the timed cost and the replica's "
            "share of the kernel function it stands for are in the table's last columns "
            "(targets 0.90-1.10 and <= 1); held out:", "")
    _checks(doc, [v for v in valid if v["check"].startswith("heldout")])


def _predictions(doc, model):
    rt.table(doc, ("case", "metric", "D64 ns (measured)", "D128 ns (modelled)",
                   "D128/D64 [range]", "basis"),
             [(rt.md("%s/%s" % (r["workload"], r["case"])), r["metric"],
               opcost.fmt(float(r["d64_ns"])), opcost.fmt(float(r["d128_ns"])),
               opcost.ratio_text(r),
               ("profile" if r["basis"] == "profile" else "no profile (upper bound)") +
               ("" if r.get("replicas", "none") != "none" else ", no replicas"))
              for r in model])


def _checks(doc, valid):
    rt.table(doc, ("check", "case", "value", "target", "met", "how"),
             [(CHECK_WHAT.get(v["check"], v["check"]), rt.md(v["case"]),
               "%.3f" % float(v["value"]), v["target"], v["pass"], rt.md(v["note"]))
              for v in valid])


def appendix(doc, run):
    """Every prediction and every check, for the appendix."""
    model, valid = opcost.load(run)
    if model is None:
        return
    doc.add("## Page-table operations under D128: every case (modelled)", "")
    _predictions(doc, model)
    if valid:
        doc.add("### Every check", "")
        _checks(doc, valid)
