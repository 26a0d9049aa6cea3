#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ptbench run end to end at tiny sizes, its output checked against SCHEMA.md,
# and the usage errors of the CLI.
set -u
PTBENCH=${PTBENCH:?set by ctest}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # description, command...
	local what=$1; shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
status_is() { # expected status, command...
	local want=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	[ "$got" -eq "$want" ] || { echo "  got exit $got, stderr:"; cat "$tmp/err"; return 1; }
}

check "a tiny tlb run succeeds" status_is 0 "$PTBENCH" run --workload tlb \
	--case 'chase-4k-16K' --reps 3 --warmup 1 --out "$tmp/run" --tag e2e
# the progress line (a terminal only) shows each repetition: the control
# gets its warm-up, tlb none (each of its repetitions warms its own region)
if command -v script >/dev/null 2>&1; then
	for w in control:cpu-loop tlb:chase-4k-16K; do
		script -qec "'$PTBENCH' run --workload ${w%%:*} --case ${w#*:} --reps 3 \
			--warmup 1 --no-profile --out '$tmp/warm-${w%%:*}'" "$tmp/warm-${w%%:*}.tty" \
			>/dev/null 2>&1
	done
	check "the control's warm-up is shown" \
		grep -q 'control cpu-loop: warm-up 1/1' "$tmp/warm-control.tty"
	check "tlb gets no warm-up" bash -c "! grep -q 'chase-4k-16K: warm-up' '$tmp/warm-tlb.tty'"
	check "a tlb-only run has no warm-up round" grep -q '(+0 warm-up,' "$tmp/warm-tlb.tty"
	check "tlb's repetitions all run" grep -q 'tlb chase-4k-16K: rep 3/3' "$tmp/warm-tlb.tty"
fi
check "results.csv and meta.json exist, no temporary files" \
	bash -c "[ -f '$tmp/run/results.csv' ] && [ -f '$tmp/run/meta.json' ] && ! ls '$tmp/run' | grep -q tmp"

check "results.csv follows SCHEMA.md" "$PY" - "$tmp/run/results.csv" "${PTBENCH_SANITIZED:-OFF}" <<'PYEOF'
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == "workload,case,params,rep,metric,value,unit,better".split(","), rows[0]
metrics = set()
for i, r in enumerate(rows[1:], 2):
    assert len(r) == 8, f"line {i}: {len(r)} fields"
    assert r[0] == "tlb" and r[1] == "chase-4k-16K", f"line {i}: {r[:2]}"
    kv = dict(p.split("=", 1) for p in r[2].split(";"))
    assert kv == {"backing": "4k", "ws": "16384"}, f"line {i}: params {r[2]}"
    assert r[2].split(";") == sorted(r[2].split(";")), f"line {i}: params not sorted"
    assert int(r[3]) in (0, 1, 2), f"line {i}: rep {r[3]}"
    v = float(r[5])
    assert math.isfinite(v), f"line {i}: value {r[5]}"
    assert r[6], f"line {i}: empty unit"
    assert r[7] in ("lower", "higher", "neither"), f"line {i}: better {r[7]}"
    metrics.add(r[4])
need = {"ns_per_access", "thp_fraction", "touch_faults_per_page", "page-faults_per_access"}
assert need <= metrics, f"missing {need - metrics}"
per = [float(r[5]) for r in rows[1:] if r[4] == "ns_per_access"]
assert len(per) == 3 and all(0 < x < 1e6 for x in per), per
# one fault per page of the 4; under ASan the first repetition also faults
# in the shadow of the region (tlb has no warm-up repetition to take it)
touch = [float(r[5]) for r in rows[1:] if r[4] == "touch_faults_per_page"]
top = 1.5 if sys.argv[2] == "ON" else 1.0
assert len(touch) == 3 and all(1.0 <= t <= top for t in touch), touch
PYEOF

check "meta.json has the environment, regime and counters" "$PY" - "$tmp/run/meta.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["schema_version"] == 1
assert m["run"]["tag"] == "e2e" and m["run"]["reps"] == 3 and m["run"]["exit_status"] == 0
assert m["env"]["kernel_release"] and m["env"]["page_size"] > 0
assert m["regime"]["levels"] >= 2 and m["regime"]["text"]
assert m["pinning"]["ok"] is True and m["pinning"]["cpu"] >= 0
assert "page-faults" in m["counters"]["opened"]
names = {u["name"] for u in m["counters"]["unsupported"]}
assert not names & set(m["counters"]["opened"])
assert m["cases"][0]["status"] == "ok" and m["cases"][0]["reps_ok"] == 3
assert m["timer"]["clock_overhead_ns"] > 0
PYEOF

check "an unsupported counter has no rows" "$PY" - "$tmp/run" <<'PYEOF'
import csv, json, sys
m = json.load(open(sys.argv[1] + "/meta.json"))
bad = {u["name"] for u in m["counters"]["unsupported"]}
for r in csv.DictReader(open(sys.argv[1] + "/results.csv")):
    assert not any(r["metric"].startswith(b + "_") for b in bad), r
PYEOF

check "--help of every command" bash -c "
	for c in list run model snapshot compare calibrate report; do
		'$PTBENCH' \$c --help >/dev/null || { echo \"\$c --help failed\"; exit 1; }
	done; '$PTBENCH' --help >/dev/null"
check "list names the tlb workload" bash -c "'$PTBENCH' list | grep -q '^  tlb '"
check "no command: exit 2" status_is 2 "$PTBENCH"
check "unknown command: exit 2" status_is 2 "$PTBENCH" frobnicate
check "unknown option: exit 2" status_is 2 "$PTBENCH" run --frob
check "--reps 0: exit 2" status_is 2 "$PTBENCH" run --reps 0 --out "$tmp/x"
check "--reps abc: exit 2" status_is 2 "$PTBENCH" run --reps abc --out "$tmp/x"
# a budget the first round already spends: the fewest repetitions, said and recorded
check "--budget: fewer repetitions" status_is 0 "$PTBENCH" run --workload tlb \
	--case 'chase-4k-16K' --budget 0.001 --warm-guest off --no-profile --out "$tmp/budget"
check "--budget: said on stderr" grep -q '3 repetitions, not 10, for the 0 s budget' "$tmp/err"
check "--budget: 3 repetitions recorded" "$PY" - "$tmp/budget/meta.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["reps"] == 3 and r["reps_planned"] == 10 and r["budget_seconds"] == 0.001, r
assert json.load(open(sys.argv[1]))["cases"][0]["reps_ok"] == 3
PYEOF
check "--reps given: no default budget" status_is 0 "$PTBENCH" run --workload tlb \
	--case 'chase-4k-16K' --reps 4 --warm-guest off --no-profile --out "$tmp/nobudget"
check "--reps given: all its repetitions" "$PY" -c "
import json; r = json.load(open('$tmp/nobudget/meta.json'))['run']
assert r['reps'] == 4 and r['budget_seconds'] is None, r"
for b in abc -1 3h nan 1e9 '' ' 5'; do
	check "--budget '$b': exit 2" status_is 2 "$PTBENCH" run --budget "$b" --out "$tmp/x"
done
check "--budget with --sequential: exit 2" status_is 2 "$PTBENCH" run --budget 60 \
	--sequential --out "$tmp/x"
check "unknown suite: exit 2" status_is 2 "$PTBENCH" run --suite huge --out "$tmp/x"
check "unknown workload: exit 2" status_is 2 "$PTBENCH" run --workload nope --out "$tmp/x"
check "unknown event: exit 2, named" bash -c "
	'$PTBENCH' run --workload tlb --case chase-4k-16K --events page-faults,no-such-ev \
		--out '$tmp/x' 2>'$tmp/err'; [ \$? -eq 2 ] && grep -q no-such-ev '$tmp/err'"
check "bad --max-mem: exit 2" status_is 2 "$PTBENCH" run --max-mem 12Q --out "$tmp/x"
check "bad --cpu: exit 2" status_is 2 "$PTBENCH" run --cpu 4096 --workload tlb \
	--case chase-4k-16K --out "$tmp/x"
for c in bogus -3 '' 1x pickme; do
	check "--cpu '$c': exit 2" status_is 2 "$PTBENCH" run --cpu "$c" --workload tlb \
		--case chase-4k-16K --out "$tmp/x"
done
# --cpu pick: each round on one of the candidates, the fault tasks with it
if [ "$(nproc)" -ge 2 ]; then
	check "--cpu pick runs" status_is 0 "$PTBENCH" run --cpu pick --workload fault \
		--case 'cow-child-4k-64M' --reps 3 --warm-guest off --no-profile --out "$tmp/pick"
	check "--cpu pick: meta.json has each round's CPU" "$PY" -c "
import json; p = json.load(open('$tmp/pick/meta.json'))['pinning']
k = p['pick']
assert p['mode'] == 'pick' and len(k['candidates']) >= 2, p
assert len(k['rounds']) == 4 and sum(k['rounds_on']) == 4, k  # a warm-up and 3
assert all(c in k['candidates'] for c in k['rounds']) and k['failed'] == k['unpinned'] == 0, k
assert p['cpu'] == k['rounds'][-1] and k['probe_s'] > 0, p"
fi
check "--cpu last: one CPU, no pick" status_is 0 "$PTBENCH" run --cpu last --workload tlb \
	--case chase-4k-16K --reps 3 --warm-guest off --out "$tmp/last"
check "--cpu last: fixed in meta.json" "$PY" -c "
import json; p = json.load(open('$tmp/last/meta.json'))['pinning']
assert p['mode'] == 'fixed' and 'pick' not in p, p"
check "no matching case: exit 2" status_is 2 "$PTBENCH" run --workload tlb --case 'zzz*' \
	--out "$tmp/x"
check "guard refuses an explicit request: exit 2" status_is 2 "$PTBENCH" run --workload tlb \
	--case chase-4k-1G --mem-frac 0.00001 --out "$tmp/x"
check "failed usage leaves no results" bash -c "[ ! -e '$tmp/x/results.csv' ]"
check "list --suite ci works" status_is 0 "$PTBENCH" list --suite ci
check "list --suite bogus: exit 2" status_is 2 "$PTBENCH" list --suite bogus
# A D64 and a D128 kernel must run the same cases (sizes are bytes that fit
# both geometries), or compare could not match their series.
fx=${PTBENCH_FIXTURES:?set by ctest}
same_cases() { # suite
	PTBENCH_SYSROOT=$fx/sysroot-arm64-4k-d64 "$PTBENCH" list --suite "$1" | grep '^    ' >"$tmp/d64"
	PTBENCH_SYSROOT=$fx/sysroot-arm64-4k-d128 "$PTBENCH" list --suite "$1" | grep '^    ' >"$tmp/d128"
	[ -s "$tmp/d64" ] && diff "$tmp/d64" "$tmp/d128"
}
check "quick: the same cases on 4K D64 and 4K D128" same_cases quick
check "ci: the same cases on 4K D64 and 4K D128" same_cases ci
exit $fail
