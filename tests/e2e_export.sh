#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ptbench export --format lava: the exact lava-test-case lines of a small
# hand-written run (statuses ok, failed, skipped; names that need cleaning
# and then collide; an ok case without samples; a run without primary
# metrics), medians equal to ptbench summary's, and exit 2 on bad input.
set -uo pipefail
# fail, expect_rc, expect_err, $tmp, $fixtures
# shellcheck source=tests/common_e2e.sh
. "$(dirname "${BASH_SOURCE[0]}")/common_e2e.sh"
run=$fixtures/run-lava

cat >"$tmp/want" <<'WANT'
lava-test-case tlb.chase-4k-16K --result pass
lava-test-case tlb.chase-4k-16K.ns_per_access --result pass --measurement 1.3275 --units ns
lava-test-case fault.anon-4k --result pass
lava-test-case fault.anon-4k.fault_rate --result pass --measurement 403000 --units faults/s
lava-test-case mprotect.split-4k --result fail
lava-test-case mprotect.split-4k.ns_per_call --result fail --measurement 0.000123457 --units ns
lava-test-case thp.collapse --result skip
lava-test-case pgtable.odd_name_rm --result pass
lava-test-case pgtable.odd_name_rm.bytes --result pass --measurement 1236992 --units bytes
lava-test-case pgtable.odd_name_rm-2 --result pass
lava-test-case pgtable.odd_name_rm-2.bytes --result pass --measurement 15000000000 --units bytes
lava-test-case munmap.empty --result pass
lava-test-case munmap.empty.ns_per_unmap --result fail
lava-test-case fork.old-run --result pass
WANT

expect_rc 0 "$PTBENCH" export --format lava "$run"
diff -u "$tmp/want" "$tmp/out" || fail "export --format lava differs from the expected lines"
[ ! -s "$tmp/err" ] || fail "export wrote to stderr: $(cat "$tmp/err")"

# -o writes the same lines; the default format is lava
expect_rc 0 "$PTBENCH" export "$run" -o "$tmp/lines"
cmp -s "$tmp/want" "$tmp/lines" || fail "-o FILE differs from stdout"

# every name is one LAVA accepts, and no two are the same
awk '{ print $2 }' "$tmp/want" >"$tmp/names"
grep -qvE '^[A-Za-z0-9._-]+$' "$tmp/names" && fail "a name has a character LAVA does not allow"
[ -z "$(sort "$tmp/names" | uniq -d)" ] || fail "names repeat: $(sort "$tmp/names" | uniq -d)"

# the medians are ptbench summary's (six significant digits)
"$PTBENCH" summary "$run" >"$tmp/summary.json" || fail "summary of the fixture failed"
python3 - "$tmp/summary.json" "$tmp/want" <<'PY' || fail "a measurement is not the summary's median"
import json, sys
med = {(s["workload"], s["case"], s["metric"]): s["median"]
       for s in json.load(open(sys.argv[1]))["series"]}
keys = {"tlb.chase-4k-16K.ns_per_access": ("tlb", "chase-4k-16K", "ns_per_access"),
        "fault.anon-4k.fault_rate": ("fault", "anon-4k", "fault_rate"),
        "mprotect.split-4k.ns_per_call": ("mprotect", "split-4k", "ns_per_call")}
for line in open(sys.argv[2]):
    w = line.split()
    if w[1] in keys:
        got, want = float(w[w.index("--measurement") + 1]), med[keys[w[1]]]
        assert abs(got - want) <= 1e-5 * abs(want), (w[1], got, want)
PY

# Through a shell: the lines run as they are, with a stand-in lava-test-case.
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "$#:$*"\n' >"$tmp/bin/lava-test-case"
chmod +x "$tmp/bin/lava-test-case"
PATH=$tmp/bin:$PATH sh "$tmp/want" >"$tmp/sh.out" || fail "the lines do not run under sh"
[ "$(grep -c '^3:' "$tmp/sh.out")" -eq 9 ] && [ "$(grep -c '^7:' "$tmp/sh.out")" -eq 5 ] ||
	fail "sh split the lines into other words: $(cat "$tmp/sh.out")"

# Bad input: exit 2 with a message naming it.
expect_err 2 "$tmp/absent" "$PTBENCH" export --format lava "$tmp/absent"
mkdir "$tmp/nometa" && cp "$run/results.csv" "$tmp/nometa/"
expect_err 2 'meta.json' "$PTBENCH" export --format lava "$tmp/nometa"
mkdir "$tmp/badstatus" && cp "$run/results.csv" "$tmp/badstatus/"
sed 's/"status": "skipped"/"status": "maybe"/' "$run/meta.json" >"$tmp/badstatus/meta.json"
expect_err 2 "status 'maybe'" "$PTBENCH" export --format lava "$tmp/badstatus"
mkdir "$tmp/nocases" && cp "$run/results.csv" "$tmp/nocases/"
echo '{"schema_version": 1, "cases": []}' >"$tmp/nocases/meta.json"
expect_err 2 'no cases' "$PTBENCH" export --format lava "$tmp/nocases"
mkdir "$tmp/badcsv" && cp "$run/meta.json" "$tmp/badcsv/"
printf 'not,a,results,file\n' >"$tmp/badcsv/results.csv"
expect_rc 2 "$PTBENCH" export --format lava "$tmp/badcsv"
expect_err 2 "junit" "$PTBENCH" export --format junit "$run"
expect_rc 2 "$PTBENCH" export --format lava
expect_rc 2 "$PTBENCH" export --format lava "$run" "$run"
expect_rc 2 "$PTBENCH" export --bogus "$run"
expect_rc 0 "$PTBENCH" export --help
grep -q 'lava-test-case' "$tmp/out" || fail "--help does not describe the lines"
echo "e2e_export: ok"
