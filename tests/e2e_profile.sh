#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The profiled repetition end to end (docs/profile.md): one small fork case
# gets, after its timed repetitions, one sampled repetition that writes only
# profile_* rows; meta.json says what was sampled. --no-profile writes none,
# --profile-period sets the period, a bad one is a usage error. Needs root
# (kernel samples on every CPU) and cpu-clock sampling: exit 77 otherwise.
set -uo pipefail

: "${PTBENCH:?PTBENCH must name the ptbench binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "e2e_profile: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || { echo "e2e_profile: not root, skipped"; exit 77; }

# A run of another user of this machine holds the lock of system changes:
# this test cannot run now, which is not a failure of what it tests.
run() { # out dir, extra options...
	local out=$1
	shift
	"$PTBENCH" run --workload fork --case fork-4k-64M --max-mem 64M --reps 2 --warmup 0 \
		--lock-wait 60 --out "$out" "$@" >"$out.stdout" 2>"$out.stderr" && return
	if grep -q 'another ptbench run holds the lock' "$out.stderr"; then
		echo "e2e_profile: another ptbench run held the lock for 60 s, skipped"
		exit 77
	fi
	cat "$out.stderr" >&2
	fail "ptbench run $* failed"
}

run "$tmp/on"
supported=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["profile"]["supported"])' "$tmp/on/meta.json")
if [ "$supported" != True ]; then
	echo "e2e_profile: cpu-clock sampling unsupported here, skipped"
	exit 77
fi

python3 - "$tmp/on" <<'EOF' || fail "the profiled run: see above"
import csv, json, sys
d = sys.argv[1]
meta = json.load(open(d + "/meta.json"))
p = meta["profile"]
assert p["enabled"] is True and p["supported"] is True and p["reason"] is None, p
assert p["event"] == "cpu-clock" and p["period_ns"] == 50000, p
ks = p["kallsyms"]
assert ks["text_symbols"] is None or ks["text_symbols"] >= 0, ks
case = meta["cases"][0]
assert case["status"] == "ok" and case["reps_ok"] == 2, case
assert case["profiled"] is True, case
rows = list(csv.DictReader(open(d + "/results.csv")))
prof = [r for r in rows if r["metric"].startswith("profile_")]
# the timed repetitions are 0 and 1; the profiled one is 2 and has nothing else
assert prof and all(r["rep"] == "2" for r in prof), "profile rows outside rep 2"
assert all(r["metric"].startswith("profile_") for r in rows if r["rep"] == "2"), \
    "a timing row in the profiled repetition"
assert {r["rep"] for r in rows if r["metric"] == "ns_per_fork"} == {"0", "1"}
assert all(r["better"] == "neither" for r in prof)
v = {r["metric"]: float(r["value"]) for r in prof}
u = {r["metric"]: r["unit"] for r in prof}
comps = ["pt_copy", "pt_chprot", "pt_zap", "pt_free", "pt_alloc", "pt_set", "zero",
         "tlb_flush", "kernel_other", "user"]
if not ks["resolved"]:
    comps = ["kernel_other", "user"]  # unknown page-table components have no rows
    assert "profile_pt_copy_share" not in v
assert v["profile_samples"] > 0, v
assert v["profile_period_ns"] == 50000 and v["profile_lost"] >= 0
assert 0 < v["profile_coverage"] < 4, v["profile_coverage"]
assert v["profile_stall_ns_per_fork"] >= 0 and 0 <= v["profile_stall_coverage"] < 4, v
assert v["profile_cpu_coverage"] > 0, v
assert u["profile_stall_ns_per_fork"] == "ns" and u["profile_cpu_coverage"] == "ratio"
stalls = case["profile_stalls"]
assert all(k in comps and 0 < x <= 1 for k, x in stalls.items()), stalls
share = sum(v[f"profile_{c}_share"] for c in comps)
assert abs(share - 1) < 1e-6, share
total = sum(v[f"profile_{c}_ns_per_fork"] for c in comps)
for c in comps:
    assert u[f"profile_{c}_ns_per_fork"] == "ns" and u[f"profile_{c}_share"] == "ratio"
    ns = v[f"profile_{c}_ns_per_fork"]
    assert abs(ns - v[f"profile_{c}_share"] * total) <= 1e-6 * total, (c, ns, total)
if ks["resolved"]:
    # a fork copies its page tables, and its child's exit zaps them
    assert v["profile_pt_copy_share"] > 0, v
    top = case["profile_top"]
    assert top and all(t["samples"] > 0 and 0 < t["share"] <= 1 for t in top), top
print(f"profile: {int(v['profile_samples'])} samples, coverage {v['profile_coverage']:.2f} "
      f"+ stalls {v['profile_stall_coverage']:.2f}, "
      + ", ".join(f"{c} {v[f'profile_{c}_share']:.2f}" for c in comps))
EOF

run "$tmp/off" --no-profile
python3 - "$tmp/off" <<'EOF' || fail "--no-profile: see above"
import csv, json, sys
d = sys.argv[1]
meta = json.load(open(d + "/meta.json"))
p = meta["profile"]
assert p["enabled"] is False and p["supported"] is None and "--no-profile" in p["reason"], p
assert meta["cases"][0]["profiled"] is False
rows = list(csv.DictReader(open(d + "/results.csv")))
assert not [r for r in rows if r["metric"].startswith("profile_")], "profile rows with --no-profile"
assert {r["rep"] for r in rows} == {"0", "1"}
EOF

run "$tmp/period" --profile-period 200000
grep -q ',profile_period_ns,200000,ns,neither$' "$tmp/period/results.csv" ||
	fail "--profile-period 200000: no profile_period_ns row of 200000"

for bad in 9999 abc 0 -5 2000000000; do
	"$PTBENCH" run --workload fork --profile-period "$bad" --out "$tmp/bad" >/dev/null \
		2>"$tmp/bad.err"
	[ $? = 2 ] || fail "--profile-period $bad: not exit 2"
	grep -q "profile-period" "$tmp/bad.err" || fail "--profile-period $bad: message names no option"
done
exit 0
