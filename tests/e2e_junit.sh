#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compare --format junit, two runs and against a pool: the document
# validates against the JUnit schema Jenkins reads (tests/fixtures/junit.xsd,
# with xmllint) for a passing and a failing comparison; a regression is a
# <failure> that names the metric and gives the change, the p-value and the
# threshold (and, against a pool, the detectable change); the counts agree
# with the test cases; the exit status is the text format's; a case name
# full of markup and control characters stays valid XML and readable.
# The runs are the fixture run-small, re-issued by tests/derive_run.py.
set -uo pipefail

command -v xmllint >/dev/null || {
	echo "SKIP: no xmllint (Debian package libxml2-utils; ./run.sh setup installs it)"
	exit 77
}
# fail, expect_rc, $tmp, $src, $fixtures
# shellcheck source=tests/common_e2e.sh
. "$(dirname "${BASH_SOURCE[0]}")/common_e2e.sh"
fixture=$fixtures/run-small
xsd=$src/tests/fixtures/junit.xsd

derive() { # DST ID SEED [options...]
	local dst=$1 id=$2 seed=$3
	shift 3
	python3 "$src/tests/derive_run.py" "$fixture" "$tmp/$dst" --id "$id" --seed "$seed" \
		--primary --reps 10 --noise 0.01 "$@" || fail "derive_run.py $dst"
}

expect_to() { # WANT OUTFILE command...: expect_rc, stdout kept in OUTFILE
	local want=$1 out=$2
	shift 2
	expect_rc "$want" "$@"
	cp "$tmp/out" "$out"
}

valid() { # FILE: the schema accepts it
	xmllint --noout --schema "$xsd" "$1" 2>"$tmp/xmllint" ||
		fail "$1 does not validate: $(head -5 "$tmp/xmllint")"
}

# check FILE FAILURES ERRORS [FAILED_NAME [TEXT...]]: the counts match the
# cases, and the named case's failure holds each TEXT
check() {
	python3 - "$@" <<'PY' || fail "JUnit content of $1"
import sys
import xml.etree.ElementTree as ET
path, failures, errors, name, texts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    (sys.argv[4] if len(sys.argv) > 4 else None), sys.argv[5:]
suite = ET.parse(path).getroot().find("testsuite")
cases = suite.findall("testcase")
count = lambda tag: sum(1 for c in cases if c.find(tag) is not None)
assert int(suite.get("tests")) == len(cases) > 0, (suite.get("tests"), len(cases))
assert int(suite.get("failures")) == count("failure") == failures, suite.attrib
assert int(suite.get("errors")) == count("error") == errors, suite.attrib
assert int(suite.get("skipped")) == count("skipped"), suite.attrib
props = {p.get("name"): p.get("value") for p in suite.find("properties")}
assert "gate.alpha" in props and "exit_status" in props, props
if name:
    hit = [c for c in cases if c.get("classname") + "/" + c.get("name") == name]
    assert len(hit) == 1, [c.get("name") for c in cases]
    f = hit[0].find("failure")
    assert f is not None and f.get("type") == "regression", ET.tostring(hit[0])
    for t in texts:
        assert t in f.get("message"), (t, f.get("message"))
    print("failure: %s: %s" % (name, f.get("message")))
PY
}

# ---- two runs ----
derive base run-base 1
derive same run-same 2
derive slow run-slow 3 --scale fault/anon-write-4k/ns_per_fault=1.25
expect_to 0 "$tmp/same.xml" "$PTBENCH" compare "$tmp/base" "$tmp/same" --format junit
valid "$tmp/same.xml"
check "$tmp/same.xml" 0 0
expect_to 1 "$tmp/slow.xml" "$PTBENCH" compare "$tmp/base" "$tmp/slow" --format junit
valid "$tmp/slow.xml"
check "$tmp/slow.xml" 1 0 fault/anon-write-4k/ns_per_fault 'ns_per_fault +2' 'p(holm)' \
	'threshold 5%'
grep -q 'anon-write-4k.*ns_per_fault' "$tmp/err" || fail "stderr does not name the regression"
# only primary metrics are test cases, one per case that has rows
python3 - "$tmp/same.xml" "$tmp/base/results.csv" <<'PY' || fail "test cases are not the primary metrics"
import csv, sys
import xml.etree.ElementTree as ET
primary = {"tlb": "ns_per_access", "fault": "ns_per_fault", "mprotect": "ns_per_page",
           "fork": "ns_per_fork", "munmap": "ns_per_page", "thp": "ns_per_huge_fault",
           "pgtable": "pgtable_bytes_kernel"}
got = {(c.get("classname"), c.get("name")) for c in ET.parse(sys.argv[1]).iter("testcase")}
rows = csv.DictReader(open(sys.argv[2]))
want = {(r["workload"], r["case"] + "/" + r["metric"]) for r in rows
        if primary[r["workload"]] == r["metric"]}
assert got == want, (sorted(got ^ want)[:5], len(got), len(want))
PY
# -o writes the file, the exit status is unchanged
expect_rc 1 "$PTBENCH" compare "$tmp/base" "$tmp/slow" --format junit -o "$tmp/o.xml"
valid "$tmp/o.xml"

# --strict: a gated series missing from NEW is an <error>, and exit 1
cp -r "$tmp/same" "$tmp/less"
sed -i '/^munmap,munmap-4k-16M,/d' "$tmp/less/results.csv"
expect_to 0 "$tmp/less.xml" "$PTBENCH" compare "$tmp/base" "$tmp/less" --format junit
valid "$tmp/less.xml"
grep -q '<skipped type="missing"' "$tmp/less.xml" || fail "a missing series is not <skipped>"
expect_to 1 "$tmp/strict.xml" "$PTBENCH" compare --strict "$tmp/base" "$tmp/less" --format junit
valid "$tmp/strict.xml"
check "$tmp/strict.xml" 0 1

# ---- a hostile case name: markup, quotes, control characters, bad UTF-8 ----
evil=$'e&v<i>l"q\'\x01\x1b[0m]]>\xff'
derive hbase run-hbase 4 --rename "fault/anon-write-4k=$evil"
derive hslow run-hslow 5 --rename "fault/anon-write-4k=$evil" \
	--scale fault/anon-write-4k/ns_per_fault=1.25
expect_to 1 "$tmp/hostile.xml" "$PTBENCH" compare "$tmp/hbase" "$tmp/hslow" --format junit
valid "$tmp/hostile.xml"
python3 - "$tmp/hostile.xml" <<'PY' || fail "the hostile name did not survive"
import sys
import xml.etree.ElementTree as ET
names = [c.get("name") for c in ET.parse(sys.argv[1]).iter("testcase")]
want = "e&v<i>l\"q'\\x01\\x1B[0m]]>\\xFF/ns_per_fault"
assert want in names, [n for n in names if n.startswith("e")]
PY

# ---- against a pool ----
db=$tmp/h.sqlite
for i in 1 2 3 4 5 6; do
	derive "pool$i" "run-pool$i" $((10 + i)) --tag base --drift 0.02
done
"$PTBENCH" history add "$tmp"/pool{1,2,3,4,5,6} --db "$db" >/dev/null 2>&1 || fail "history add"
for i in 1 2 3; do
	derive "new$i" "run-new$i" $((20 + i)) --tag cand --drift 0.02
	derive "reg$i" "run-reg$i" $((30 + i)) --tag cand --drift 0.02 \
		--scale fault/anon-write-4k/ns_per_fault=1.3
done
expect_rc 0 "$PTBENCH" compare --baseline-db "$db" --baseline-tag base \
	"$tmp"/new{1,2,3} --format junit -o "$tmp/pool-same.xml"
valid "$tmp/pool-same.xml"
check "$tmp/pool-same.xml" 0 0
expect_to 1 "$tmp/pool-slow.xml" "$PTBENCH" compare --baseline-db "$db" --baseline-tag base \
	"$tmp"/reg{1,2,3} --format junit
valid "$tmp/pool-slow.xml"
check "$tmp/pool-slow.xml" 1 0 fault/anon-write-4k/ns_per_fault ns_per_fault 'pool of 6 run' \
	'p(holm)' 'threshold 5%' 'smallest detectable change'
grep -q 'name="pool.runs" value="6"' "$tmp/pool-slow.xml" || fail "no pool.runs property"
grep -q 'name="new.3.run_id" value="run-reg3"' "$tmp/pool-slow.xml" ||
	fail "no run id property for the third NEW run"

echo "ok: compare --format junit validates against tests/fixtures/junit.xsd (two runs, pool," \
	"hostile names) and fails on the regressed metric"
