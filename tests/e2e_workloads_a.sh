#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The fault, mprotect and munmap workloads end to end at tiny sizes
# (--max-mem 4M, 2 reps, no warm-up): every case runs ok (mTHP and file THP
# cases may be skipped, with a note, where the kernel or the user cannot
# have them), each has the metrics docs/workloads-notes.md promises in every
# repetition, and the THP knobs are as they were before.
set -uo pipefail

: "${PTBENCH:?PTBENCH must name the ptbench binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "e2e_workloads_a: $*" >&2
	exit 1
}

knobs() {
	cat /sys/kernel/mm/transparent_hugepage/shmem_enabled \
		/sys/kernel/mm/transparent_hugepage/hugepages-*/enabled 2>/dev/null
}

[ -r /proc/self/pagemap ] || exit 77
before=$(knobs)

# check DIR WORKLOAD METRIC...: every case ok or skipped, each ok case has
# every metric in every repetition.
check() {
	local dir=$1 wl=$2
	shift 2
	python3 - "$dir" "$wl" "$@" <<'EOF' || fail "$wl: see above"
import csv, json, sys
d, wl, metrics = sys.argv[1], sys.argv[2], sys.argv[3:]
meta = json.load(open(d + "/meta.json"))
cases = [c for c in meta["cases"] if c["workload"] == wl]
if not cases:
    sys.exit(f"{wl}: no cases in meta.json")
rows = {}
for r in csv.DictReader(open(d + "/results.csv")):
    rows.setdefault((r["case"], r["metric"]), set()).add(r["rep"])
    v = float(r["value"])
    if v != v:
        sys.exit(f"{wl} {r['case']}: {r['metric']} is NaN")
bad = 0
for c in cases:
    if c["status"] == "skipped" and c["notes"]:
        print(f"note: {wl} {c['case']} skipped: {c['notes'][0]}")
        continue
    if c["status"] != "ok":
        print(f"{wl} {c['case']}: {c['status']} {c['notes']}")
        bad += 1
        continue
    for m in metrics:
        want = m.split("@")
        if len(want) == 2 and not c["case"].startswith(want[1]):
            continue
        if rows.get((c["case"], want[0])) != {"0", "1"}:
            print(f"{wl} {c['case']}: metric {want[0]} missing in some repetition")
            bad += 1
ok = sum(c["status"] == "ok" for c in cases)
print(f"{wl}: {ok} of {len(cases)} cases ok")
sys.exit(1 if bad or not ok else 0)
EOF
}

run() {
	local wl=$1
	"$PTBENCH" run --workload "$wl" --max-mem 4M --reps 2 --warmup 0 \
		--out "$tmp/$wl" >"$tmp/$wl.out" 2>"$tmp/$wl.err" ||
		{ cat "$tmp/$wl.err" >&2; fail "ptbench run --workload $wl failed"; }
}

run fault
check "$tmp/fault" fault ns_per_fault faults_per_page ns_per_page faults_per_sec_per_task \
	thp_fraction@anon-write faults_per_sec_total@anon-write-4k-2M-2 \
	faults_per_sec_total@anon-write-thp-2M-2 \
	page_cache_pmd_fraction@file pgtable_bytes_kernel@anon-read \
	pgtable_bytes_kernel@anon-write-4k-4M pgtable_bytes_kernel@anon-write-4k-2M-2threads \
	pgtable_bytes_kernel@file pgtable_bytes_kernel@cow-child

run mprotect
check "$tmp/mprotect" mprotect ns_per_call ns_per_page vmas_after thp_fraction thp_fraction_after@toggle \
	thp_fraction_after@split-huge pgtable_bytes_kernel

run munmap
check "$tmp/munmap" munmap ns_per_page ns_per_call thp_fraction pgtable_bytes_kernel \
	pgtable_freed_fraction@munmap-

# Only the cases a glob names run; a case the sizes exclude is a usage error.
"$PTBENCH" run --workload fault --case 'anon-write-4k-4M*' --max-mem 4M --reps 2 --warmup 0 \
	--out "$tmp/glob" >/dev/null 2>&1 || fail "--case glob run failed"
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' \
	"$tmp/glob/meta.json")
[ "$n" = 1 ] || fail "--case 'anon-write-4k-4M*' ran $n cases, expected 1"
"$PTBENCH" run --workload munmap --case 'munmap-4k-64M' --max-mem 4M --reps 1 \
	--out "$tmp/none" >/dev/null 2>&1
[ $? = 2 ] || fail "a case excluded by --max-mem is not a usage error"

[ "$(knobs)" = "$before" ] || fail "THP knobs differ after the runs"
exit 0
