#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check a lava-run log of ci/lava/ptbench.yaml (tools/lava-run.sh).

The job must have completed and its test definition run to its end. The
run directory the guest printed (base64 tar.gz between the PTBENCH-RESULTS
markers) is unpacked into OUT/run, and 'ptbench export --format lava' of it
on this machine gives the test cases the log must hold: each one by name,
with the same result and, for medians, the same measurement and units. So
the check needs no expected numbers of its own, and also proves that the
artefact the job printed is the run that produced the results LAVA saw.
Exit 0 when all is there, 1 when not, 2 on bad usage.
"""
import argparse
import base64
import io
import os
import subprocess
import sys
import tarfile

import yaml

BEGIN, END = "PTBENCH-RESULTS-BEGIN ", "PTBENCH-RESULTS-END"


def read_log(path):
    """The log's entries: each line is one YAML flow mapping."""
    entries = []
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                e = yaml.safe_load(line)
            except yaml.YAMLError:
                print("check: %s:%d: not a log entry, ignored" % (path, n), file=sys.stderr)
                continue
            if isinstance(e, dict):
                entries.append(e)
    return entries


def archive(entries):
    """(name, bytes) of the base64 tar.gz the guest printed, or None."""
    name, lines = None, None
    for e in entries:
        if e.get("lvl") != "target" or not isinstance(e.get("msg"), str):
            continue
        msg = e["msg"].strip()
        if msg.startswith(BEGIN):
            name, lines = msg[len(BEGIN):], []
        elif msg == END and lines is not None:
            return name, base64.b64decode("".join(lines))
        elif lines is not None and not msg.startswith("+ "):
            lines.append(msg)  # "+ ": a shell trace line, not base64
    return None


def unpack(data, dest):
    """The single run directory of the archive, extracted below dest."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
        members = t.getmembers()
        for m in members:
            # only plain files and folders, nothing outside dest
            if m.name.startswith("/") or ".." in m.name.split("/") or not (m.isfile() or m.isdir()):
                raise ValueError("archive member %r refused" % m.name)
        t.extractall(dest, members=members)
    tops = {m.name.split("/")[0] for m in members}
    if len(tops) != 1:
        raise ValueError("archive holds %d top folders, expected 1" % len(tops))
    return os.path.join(dest, tops.pop())


def expected(ptbench, run):
    """{name: (result, measurement or None, units or None)} from ptbench export."""
    out = subprocess.run([ptbench, "export", "--format", "lava", run], check=True,
                         capture_output=True, text=True).stdout
    want = {}
    for line in out.splitlines():
        w = line.split()
        opt = dict(zip(w[2::2], w[3::2]))
        want[w[1]] = (opt["--result"], opt.get("--measurement"), opt.get("--units"))
    return want


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--log", required=True)
    p.add_argument("--out", required=True, help="where the run directory is unpacked")
    p.add_argument("--ptbench", required=True, help="this machine's ptbench")
    a = p.parse_args()
    entries = read_log(a.log)
    results = [e["msg"] for e in entries if e.get("lvl") == "results" and isinstance(e.get("msg"), dict)]
    errors = [e["msg"] for e in entries if e.get("lvl") == "error"]
    lava = {r["case"]: r for r in results if r.get("definition") == "lava"}
    got = {r["case"]: r for r in results if r.get("definition", "lava") != "lava"}
    bad = []
    job = lava.get("job", {}).get("result")
    if job != "pass":
        bad.append("the job did not complete (job result %s)" % job)
    runs = [c for c, r in lava.items() if c.endswith("_ptbench")]
    if not runs or any(lava[c].get("result") != "pass" for c in runs):
        done = ", ".join("%s %s" % (c, lava[c].get("result")) for c in runs)
        bad.append("the test definition did not run to its end (%s)" % (done or "not run"))
    for e in errors:
        print("check: LAVA error: %s" % e, file=sys.stderr)
    for c in ("ptbench-present", "ptbench-run"):
        if c not in got:
            bad.append("test case %s is not in the log" % c)
    arc = archive(entries)
    want = {}
    if arc is None:
        bad.append("no run directory between the %s and %s markers" % (BEGIN.strip(), END))
    else:
        try:
            run = unpack(arc[1], os.path.join(a.out, "run"))
            want = expected(a.ptbench, run)
            print("check: run directory %s (%d bytes as %s)" % (run, len(arc[1]), arc[0]))
        except (ValueError, tarfile.TarError, OSError, subprocess.CalledProcessError) as exc:
            bad.append("the printed run directory is unusable: %s" % exc)
    nmeas = 0
    for name, (res, meas, units) in want.items():
        r = got.get(name)
        if r is None:
            bad.append("test case %s is not in the log" % name)
            continue
        if r.get("result") != res:
            bad.append("%s: result %s in the log, %s by ptbench export" % (name, r.get("result"), res))
        if meas is not None:
            nmeas += 1
            if r.get("measurement") is None or abs(float(r["measurement"]) - float(meas)) > 1e-9 * max(1.0, abs(float(meas))):
                bad.append("%s: measurement %s in the log, %s by ptbench export" % (name, r.get("measurement"), meas))
            if r.get("units") != units:
                bad.append("%s: units %s in the log, %s by ptbench export" % (name, r.get("units"), units))
            print("check: %-45s %-4s %14s %s" % (name, r.get("result"), r.get("measurement"), r.get("units")))
        else:
            print("check: %-45s %s" % (name, r.get("result")))
    for b in bad:
        print("check: FAIL: %s" % b, file=sys.stderr)
    print("check: %d ptbench test cases in the log (%d with a measurement), %d expected; %s" %
          (len(got), nmeas, len(want), "ok" if not bad else "%d problems" % len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
