#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The fork, thp and pgtable workloads end to end at tiny sizes (--max-mem
# 64M, two repetitions): every case runs and verifies, the rows carry the
# metrics docs/workloads-notes.md promises, the page-table figures agree with
# the geometry of this machine, the sysfs knobs are as they were, and a
# case the memory guard refuses is a usage error.
set -uo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

page=$(getconf PAGESIZE)
pmd=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null || echo $((page / 8 * page)))
knobs() {
	cat /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled \
		/sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
}
knobs_before=$(knobs)

"$PTBENCH" list >"$tmp/list" || fail "ptbench list failed"
for w in fork thp pgtable; do
	grep -q "^$w\b\|^ *$w " "$tmp/list" || fail "ptbench list does not show $w"
done

out=$tmp/run
"$PTBENCH" run --workload fork,thp,pgtable --max-mem 64M --reps 2 --warmup 0 --out "$out" \
	>"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ $rc -eq 0 ] || {
	cat "$tmp/stderr" >&2
	fail "run exited with $rc"
}
csv=$out/results.csv
[ -s "$csv" ] || fail "no results.csv"
[ "$(knobs)" = "$knobs_before" ] || fail "the THP knobs differ after the run"

# metric value of a case, repetition 0
val() {
	awk -F, -v c="$1" -v m="$2" '$2 == c && $5 == m && $4 == 0 { print $6; exit }' "$csv"
}
has() {
	[ -n "$(val "$1" "$2")" ] || fail "$1 has no $2 row"
}
# a <= v <= b, in awk arithmetic
within() {
	awk -v v="$1" -v a="$2" -v b="$3" 'BEGIN { exit !(v >= a && v <= b) }' ||
		fail "$4: $1 is not within [$2, $3]"
}
status() {
	python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    if c["case"] == sys.argv[2]:
        print(c["status"])' "$out/meta.json" "$1"
}

# ---- fork ----
for c in fork-4k-0 fork-thp-0 fork-4k-64M fork-thp-64M fork-sparse-pmd-4k-64M; do
	[ "$(status "$c")" = ok ] || fail "fork case $c: status '$(status "$c")'"
	has "$c" ns_per_fork
	has "$c" child_vmpte_bytes
done
for c in fork-4k-64M fork-thp-64M fork-sparse-pmd-4k-64M; do
	has "$c" ns_per_mib_resident
	has "$c" ns_per_cow_fault
	within "$(val "$c" cow_faults_per_page)" 0.99 1.01 "$c cow_faults_per_page"
	within "$(val "$c" resident_fraction)" 1 1.01 "$c resident_fraction"
done
within "$(val fork-thp-64M thp_fraction)" 0.9 1 "fork-thp-64M thp_fraction"
# the child got the parent's tables: a dense 64M region needs 64M/PMD PTE tables
within "$(val fork-4k-64M child_vmpte_bytes)" $((64 * 1048576 / pmd * page)) 1e12 \
	"fork-4k-64M child_vmpte_bytes"

# ---- thp ----
for c in thp-fault-64M thp-collapse-64M thp-split-64M; do
	s=$(status "$c")
	[ "$s" = ok ] || [ "$s" = skipped ] || fail "thp case $c: status '$s'"
done
if [ "$(status thp-fault-64M)" = ok ]; then
	has thp-fault-64M ns_per_huge_fault
	within "$(val thp-fault-64M thp_fraction)" 0.9 1 "thp-fault-64M thp_fraction"
	within "$(val thp-fault-64M faults_per_huge_page)" 0.99 1.1 "faults_per_huge_page"
fi
[ "$(status thp-collapse-64M)" = ok ] && has thp-collapse-64M ns_per_collapse
if [ "$(status thp-split-64M)" = ok ]; then
	has thp-split-64M ns_per_split
	within "$(val thp-split-64M thp_fraction_after_split)" 0 0 "thp_fraction_after_split"
fi
for c in $(awk -F, '$1 == "thp" && $2 ~ /^mthp-fault-/ { print $2 }' "$csv" | sort -u); do
	has "$c" ns_per_mthp_fault
	within "$(val "$c" mthp_fraction)" 0.9 1.01 "$c mthp_fraction"
done

# ---- pgtable ----
for c in dense-4k-64M sparse-pmd-4k sparse-pud-4k sparse-pud-thp; do
	name=$(awk -F, -v c="$c" '$1 == "pgtable" && index($2, c) == 1 { print $2; exit }' "$csv")
	[ -n "$name" ] || fail "no pgtable case $c-*"
	[ "$(status "$name")" = ok ] || fail "pgtable case $name: status '$(status "$name")'"
	for m in pgtable_bytes_kernel meminfo_pagetables_growth_bytes \
		pgtable_bytes_per_gib_populated pgtable_bytes_per_gib_mapped \
		pgtable_bytes_model_d64 pgtable_bytes_model_d128; do
		has "$name" "$m"
	done
done
# dense 4K: one PTE table (a page) per PMD span: page/PMD of what is populated
per_gib=$((1073741824 / pmd * page))
within "$(val dense-4k-64M pgtable_bytes_per_gib_populated)" "$per_gib" $((per_gib * 5 / 4)) \
	"dense-4k-64M pgtable_bytes_per_gib_populated"
# sparse-pmd: one PTE table per populated page
sp=$(awk -F, '$1 == "pgtable" && $2 ~ /^sparse-pmd-4k-/ { print $2; exit }' "$csv")
within "$(val "$sp" pgtable_bytes_per_gib_populated)" $((1073741824 / page * page)) \
	$((1073741824 / page * page * 5 / 4)) "$sp pgtable_bytes_per_gib_populated"

# ---- the memory guard: an explicit request it refuses is a usage error ----
"$PTBENCH" run --workload pgtable --case dense-4k-64M --mem-frac 0.000001 --out "$tmp/g" \
	>/dev/null 2>"$tmp/gerr"
rc=$?
[ $rc -eq 2 ] || fail "a refused explicit request exited $rc, not 2"
grep -q 'dense-4k-64M' "$tmp/gerr" || fail "the refusal does not name the case"
echo "ok: $(grep -c . "$csv") rows, dense-4k-64M $(val dense-4k-64M pgtable_bytes_per_gib_populated) bytes of tables per populated GiB"
