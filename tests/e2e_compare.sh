#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ptbench compare and calibrate end to end, on synthetic run directories
# with known answers.
set -u

: "${PTBENCH:?PTBENCH must point at the ptbench binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# make_run DIR SEED REPS [CPU] [FORMAT] < spec
# spec lines: workload case params metric unit better center noise
make_run() {
	local dir=$1 seed=$2 reps=$3 cpu=${4:-Synthetic CPU} fmt=${5:-D64}
	mkdir -p "$dir"
	awk -v seed="$seed" -v reps="$reps" '
		BEGIN { srand(seed); print "workload,case,params,rep,metric,value,unit,better" }
		NF == 8 {
			for (r = 0; r < reps; r++) {
				u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12
				z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
				printf "%s,%s,%s,%d,%s,%.9g,%s,%s\n", $1, $2, $3, r, $4,
					$7 * (1 + $8 * z), $5, $6
			}
		}' >"$dir/results.csv"
	cat >"$dir/meta.json" <<EOF
{
  "schema_version": 1,
  "tool": {"name": "ptbench", "version": "0.1.0"},
  "run": {"suite": "ci", "reps": $reps},
  "env": {"kernel_release": "6.1.0-test-$fmt", "arch": "x86_64", "page_size": 4096,
          "hpage_pmd_size": "2097152", "thp_enabled": "madvise",
          "cpu_model": "$cpu", "hw_pmu": false},
  "regime": {"arch": "x86_64", "format": "$fmt", "text": "synthetic $fmt regime"}
}
EOF
}

spec() {
	local tlb=$1 fault=$2
	cat <<EOF
tlb chase-4k-64M size=64M ns_per_access ns lower $tlb 0.01
fault anon-4k size=16M ns_per_fault ns lower $fault 0.01
fault anon-4k size=16M faults_per_page ratio neither 1 0
mmap populate size=16M pages_per_sec count higher 5000 0.01
EOF
}

# expect_rc WANT NAME -- command...
run_rc() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	echo $?
}

expect_rc() {
	local want=$1 name=$2 rc
	shift 2
	rc=$(run_rc "$@")
	if [ "$rc" != "$want" ]; then
		fail "$name: exit $rc, expected $want"
		sed 's/^/  out: /' "$tmp/out" >&2
		sed 's/^/  err: /' "$tmp/err" >&2
	fi
}

expect_in() {
	local file=$1 pattern=$2 name=$3
	grep -q -- "$pattern" "$file" || {
		fail "$name: '$pattern' not in $(basename "$file")"
		sed 's/^/  | /' "$file" >&2
	}
}

spec 100 2000 | make_run "$tmp/base" 1 10
spec 100 2000 | make_run "$tmp/same" 2 10
spec 110 2000 | make_run "$tmp/slow" 3 10
spec 90 2000 | make_run "$tmp/fast" 4 10

# --help and bad usage
expect_rc 0 "help" "$PTBENCH" compare --help
expect_in "$tmp/out" "usage: ptbench compare" "help"
expect_rc 2 "one run" "$PTBENCH" compare "$tmp/base"
expect_rc 2 "bad option" "$PTBENCH" compare --bogus "$tmp/base" "$tmp/same"
expect_rc 2 "bad alpha" "$PTBENCH" compare --alpha 2 "$tmp/base" "$tmp/same"
expect_rc 2 "bad format" "$PTBENCH" compare --format xml "$tmp/base" "$tmp/same"

# Identical and A/A: nothing significant.
expect_rc 0 "identical" "$PTBENCH" compare "$tmp/base" "$tmp/base"
expect_in "$tmp/out" "0 worse, 0 better" "identical"
expect_rc 0 "a/a" "$PTBENCH" compare "$tmp/base" "$tmp/same"
expect_in "$tmp/out" "ns_per_access (ns; lower is better)" "a/a legend"
expect_in "$tmp/out" "pages_per_sec (count; higher is better)" "a/a legend"

# A 10% slowdown with 1% noise is a regression, named on stderr.
expect_rc 1 "slow" "$PTBENCH" compare "$tmp/base" "$tmp/slow"
expect_in "$tmp/out" "tlb/chase-4k-64M \[size=64M\].*worse" "slow"
expect_in "$tmp/err" "significant regression in 1 series" "slow"
expect_in "$tmp/err" "chase-4k-64M.*ns_per_access" "slow"
# ... unless the config raises the threshold for it.
printf '# loose for the chase\ntlb/*/ns_per_access  threshold=20%%\n' >"$tmp/loose.conf"
expect_rc 0 "config" "$PTBENCH" compare --config "$tmp/loose.conf" "$tmp/base" "$tmp/slow"
# ... or the filter leaves it out.
expect_rc 0 "filter" "$PTBENCH" compare --filter 'fault/*' "$tmp/base" "$tmp/slow"

# An improvement is not a regression.
expect_rc 0 "fast" "$PTBENCH" compare "$tmp/base" "$tmp/fast"
expect_in "$tmp/out" "chase-4k-64M.*better" "fast"

# Series on one side only are listed.
spec 100 2000 | make_run "$tmp/less" 5 10
sed -i '/mmap/d' "$tmp/less/results.csv"
echo "fork small size=1M ns_per_fork ns lower 50000 0.01" | make_run "$tmp/extra" 6 10
tail -n +2 "$tmp/extra/results.csv" >>"$tmp/less/results.csv"
expect_rc 0 "one side" "$PTBENCH" compare "$tmp/base" "$tmp/less"
expect_in "$tmp/out" "mmap/populate.*base only" "one side"
expect_in "$tmp/out" "fork/small.*new only" "one side"
expect_rc 1 "one side strict" "$PTBENCH" compare --strict "$tmp/base" "$tmp/less"

# Too few samples: reported, exit 0; --strict makes it fail. The rank test
# cannot reach alpha 0.01 with 3 a side; Yuen's test (the default) can, not with 1.
spec 100 2000 | make_run "$tmp/few1" 7 3
spec 200 2000 | make_run "$tmp/few2" 8 3
expect_rc 0 "too few" "$PTBENCH" compare --test mw "$tmp/few1" "$tmp/few2"
expect_in "$tmp/out" "too few samples" "too few"
expect_in "$tmp/err" "too few samples" "too few"
expect_rc 1 "too few strict" "$PTBENCH" compare --test mw --strict "$tmp/few1" "$tmp/few2"
expect_rc 1 "yuen 3 a side" "$PTBENCH" compare "$tmp/few1" "$tmp/few2"
spec 100 2000 | make_run "$tmp/one1" 7 1
spec 200 2000 | make_run "$tmp/one2" 8 1
expect_rc 0 "yuen too few" "$PTBENCH" compare "$tmp/one1" "$tmp/one2"
expect_in "$tmp/err" "each side needs >= 2" "yuen too few"

# Environments: D64 vs D128 is shown plainly; another CPU is a WARNING.
spec 100 2000 | make_run "$tmp/d128" 9 10 "Synthetic CPU" D128
expect_rc 0 "d128" "$PTBENCH" compare "$tmp/base" "$tmp/d128"
expect_in "$tmp/out" "differs (expected" "d128"
grep -q WARNING "$tmp/out" && fail "d128: a WARNING for an expected difference"
spec 100 2000 | make_run "$tmp/othercpu" 10 10 "Other CPU"
expect_rc 0 "other cpu" "$PTBENCH" compare "$tmp/base" "$tmp/othercpu"
expect_in "$tmp/out" "WARNING: the two runs were measured on different hardware" "other cpu"
expect_in "$tmp/err" "CPU model: 'Synthetic CPU' (base) vs 'Other CPU' (new)" "other cpu"

# Other formats, and -o.
expect_rc 1 "json" "$PTBENCH" compare --format json -o "$tmp/cmp.json" "$tmp/base" "$tmp/slow"
python3 - "$tmp/cmp.json" "$tmp/base" "$tmp/slow" <<'PY' || fail "json: not valid or wrong fields"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert (s["worse"], s["better"], s["exit_status"]) == (1, 0, 1), s
assert "worse" in s["exit_meaning"], s
assert (d["gate"]["alpha"], d["gate"]["threshold_pct"], d["gate"]["correction"]) == \
    (0.01, 5, "holm"), d["gate"]
for key, path, kernel in (("base_run", sys.argv[2], "6.1.0-test-D64"),
                          ("new_run", sys.argv[3], "6.1.0-test-D64")):
    r = d[key]
    assert (r["path"], r["kernel_release"], r["format"], r["suite"], r["reps"]) == \
        (path, kernel, "D64", "ci", "10"), r
rows = {(r["workload"], r["case"], r["metric"]): r for r in d["series"]}
assert len(rows) == 4, rows.keys()
w = rows[("tlb", "chase-4k-64M", "ns_per_access")]
assert w["verdict"] == "worse" and w["gated"] and w["tested"], w
assert (w["base"]["n"], w["new"]["n"]) == (10, 10), w
# the change lies inside its interval, and both medians inside theirs
assert w["change_ci_lo_pct"] <= w["change_pct"] <= w["change_ci_hi_pct"], w
for side in ("base", "new"):
    x = w[side]
    assert x["ci_valid"] and x["ci_lo"] <= x["median"] <= x["ci_hi"], x
# %.9g in the JSON: equal to about 1e-7 of the change
assert abs(w["change_pct"] - (w["new"]["median"] / w["base"]["median"] - 1) * 100) < 1e-6
assert w["p_adj"] >= w["p"] and w["p_adj"] < 0.01, w
same = rows[("fault", "anon-4k", "faults_per_page")]
assert same["verdict"] == "~" and not same["tested"], same
PY
# ptbench summary: the same medians and intervals, for one run.
expect_rc 0 "summary json" "$PTBENCH" summary "$tmp/slow"
python3 - "$tmp/out" "$tmp/cmp.json" <<'PY' || fail "summary: medians differ from compare's"
import json, sys
s = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
new = {(r["workload"], r["case"], r["params"], r["metric"]): r["new"] for r in c["series"]}
assert len(s["series"]) == len(new) == 4
for r in s["series"]:
    n = new[(r["workload"], r["case"], r["params"], r["metric"])]
    for k in ("n", "median", "ci_lo", "ci_hi", "ci_valid", "min", "max", "cv"):
        assert r[k] == n[k], (k, r, n)
assert s["run"]["kernel_release"] == "6.1.0-test-D64"
PY
expect_rc 0 "summary csv" "$PTBENCH" summary --format csv -o "$tmp/sum.csv" "$tmp/slow"
[ "$(head -1 "$tmp/sum.csv")" = "workload,case,params,metric,unit,better,n,median,ci_lo,ci_hi,ci_valid,min,max,mean,stddev,cv,p90,p99" ] ||
	fail "summary csv: header"
[ "$(wc -l <"$tmp/sum.csv")" = 5 ] || fail "summary csv: expected 4 series"
expect_rc 2 "summary of a missing run" "$PTBENCH" summary "$tmp/nope"
expect_in "$tmp/err" "$tmp/nope" "summary of a missing run"
expect_rc 2 "summary --format xml" "$PTBENCH" summary --format xml "$tmp/slow"
expect_rc 1 "csv" "$PTBENCH" compare --format csv "$tmp/base" "$tmp/slow"
expect_in "$tmp/out" "^workload,case,params,metric,unit,better,base_n" "csv"
[ "$(grep -c ',worse$' "$tmp/out")" = 1 ] || fail "csv: expected one worse row"
expect_rc 1 "markdown" "$PTBENCH" compare --format markdown "$tmp/base" "$tmp/slow"
expect_in "$tmp/out" "| \*\*worse\*\* |" "markdown"

# Malformed input: exit 2, the file and line named.
bad() {
	local name=$1 want=$2
	expect_rc 2 "$name" "$PTBENCH" compare "$tmp/base" "$tmp/bad"
	expect_in "$tmp/err" "$want" "$name"
}
mkdir -p "$tmp/bad"
cp "$tmp/base/results.csv" "$tmp/bad/results.csv"
sed -i '1s/better/direction/' "$tmp/bad/results.csv"
bad "bad header" "bad/results.csv:1: header column 8"
cp "$tmp/base/results.csv" "$tmp/bad/results.csv"
sed -i '4s/,ns,lower$/,ns/' "$tmp/bad/results.csv"
bad "field count" "bad/results.csv:4: 7 fields, expected 8"
cp "$tmp/base/results.csv" "$tmp/bad/results.csv"
sed -i '5s/,[^,]*,ns,lower$/,fast,ns,lower/' "$tmp/bad/results.csv"
bad "non-numeric" "bad/results.csv:5: value 'fast' is not a finite number"
cp "$tmp/base/results.csv" "$tmp/bad/results.csv"
sed -i '6s/lower$/smaller/' "$tmp/bad/results.csv"
bad "bad better" "bad/results.csv:6: better 'smaller'"
expect_rc 2 "missing dir" "$PTBENCH" compare "$tmp/base" "$tmp/nonexistent"
expect_in "$tmp/err" "nonexistent: No such file" "missing dir"
expect_rc 2 "missing csv" "$PTBENCH" compare "$tmp/base" "$tmp"
expect_in "$tmp/err" "results.csv: No such file" "missing csv"
printf 'tlb/* threshold=3%%\ntlb/* speed=3\n' >"$tmp/bad.conf"
expect_rc 2 "bad config" "$PTBENCH" compare --config "$tmp/bad.conf" "$tmp/base" "$tmp/same"
expect_in "$tmp/err" "bad.conf:2: unknown setting 'speed'" "bad config"
# Hostile configs (issue 16): /dev/zero read forever, a NUL byte cut a line
# short so "* gate=off\0junk" un-gated everything, an empty file was no rules.
expect_rc 2 "config /dev/zero" timeout 20 "$PTBENCH" compare --config /dev/zero "$tmp/base" "$tmp/same"
expect_in "$tmp/err" "/dev/zero: a character device, not a regular file" "config /dev/zero"
mkdir -p "$tmp/fifo" && cp "$tmp/base/results.csv" "$tmp/fifo/" && mkfifo "$tmp/fifo/meta.json"
expect_rc 2 "meta.json a FIFO" timeout 20 "$PTBENCH" compare "$tmp/base" "$tmp/fifo"
expect_in "$tmp/err" "meta.json: a FIFO, not a regular file" "meta.json a FIFO"
printf '* gate=off\0junk\n' >"$tmp/nul.conf"
expect_rc 2 "config NUL" "$PTBENCH" compare --config "$tmp/nul.conf" "$tmp/base" "$tmp/same"
expect_in "$tmp/err" "nul.conf:1: contains a NUL byte" "config NUL"
: >"$tmp/empty.conf"
expect_rc 2 "config empty" "$PTBENCH" compare --config "$tmp/empty.conf" "$tmp/base" "$tmp/same"
expect_in "$tmp/err" "empty.conf: empty" "config empty"
cp "$tmp/base/results.csv" "$tmp/bad/results.csv"
echo '{"env": ' >"$tmp/bad/meta.json"
bad "bad meta" "bad/meta.json:2: invalid JSON"

# calibrate on a fake runner that writes synthetic A/A runs.
cat >"$tmp/runner.sh" <<EOF
#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
set -e
echo "\$*" >>"$tmp/runner.calls"
out=; reps=10
while [ \$# -gt 0 ]; do
	case \$1 in
	--out) out=\$2; shift ;;
	--reps) reps=\$2; shift ;;
	esac
	shift
done
seed=\$(wc -l <"$tmp/runner.calls")
mkdir -p "\$out"
awk -v seed="\$seed" -v reps="\$reps" 'BEGIN { srand(seed)
	print "workload,case,params,rep,metric,value,unit,better"
	for (r = 0; r < reps; r++) {
		printf "tlb,chase,,%d,ns_per_access,%.9g,ns,lower\n", r, 100 * (1 + 0.01 * (rand() - 0.5))
		printf "fault,anon,,%d,ns_per_fault,%.9g,ns,lower\n", r, 2000 * (1 + 0.2 * (rand() - 0.5))
		printf "mmap,pop,,%d,pages_per_sec,%.9g,count,higher\n", r, 5000 * (1 + 0.01 * (rand() - 0.5))
		# run-to-run noise no rep inside a run sees: odd runs 80% slower
		printf "tlb,wild,,%d,ns_per_access,%.9g,ns,lower\n", r, (seed % 2 ? 180 : 100) * (1 + 0.01 * (rand() - 0.5))
	}
}' >"\$out/results.csv"
EOF
chmod +x "$tmp/runner.sh"
expect_rc 0 "calibrate help" "$PTBENCH" calibrate --help
expect_rc 2 "calibrate bad pairs" "$PTBENCH" calibrate --pairs 0
expect_rc 2 "calibrate bad margin" "$PTBENCH" calibrate --margin abc
expect_in "$tmp/err" "--margin 'abc': expected a number 1..100" "calibrate bad margin said"
expect_rc 2 "calibrate bad max-threshold" "$PTBENCH" calibrate --max-threshold -5
expect_rc 2 "calibrate bad test" "$PTBENCH" calibrate --test t
expect_in "$tmp/err" "--test 't': expected mw or yuen" "calibrate bad test said"
expect_rc 0 "calibrate" "$PTBENCH" calibrate --pairs 3 --reps 10 --out "$tmp/cal" \
	--runner "$tmp/runner.sh" -- --max-mem 1G
expect_in "$tmp/runner.calls" "^run --suite ci --reps 10 --out $tmp/cal/pair-001/a --force --max-mem 1G$" \
	"calibrate args"
[ "$(wc -l <"$tmp/runner.calls")" = 6 ] || fail "calibrate: expected 6 runs"
expect_in "$tmp/err" "calibrate: pair 3/3, run b running" "calibrate progress"
expect_in "$tmp/out" "gate fired (exit 1) in 0 of 3 pairs" "calibrate fp"
expect_in "$tmp/out" "holm correction, yuen test" "calibrate names its test"
python3 - "$tmp/cal/calibrate.json" <<'EOF' || fail "calibrate.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["pairs"] == 3 and len(d["runs"]) == 3, d["runs"]
assert d["gate"]["test"] == "yuen", d["gate"]  # the two-run default, as compare's
fp = d["false_positives"]
assert fp["gate_fired_pairs"] == 0, fp
det = {s["case"]: s["smallest_detected_pct"] for s in d["detection"]["per_series"]}
# 1% uniform noise: caught at the 5% threshold; 20% noise needs more.
assert det["chase"] is not None and 5 <= det["chase"] <= 7, det
assert det["pop"] is not None and 5 <= det["pop"] <= 7, det
assert det["anon"] is None or det["anon"] > det["chase"], det
EOF
[ -f "$tmp/cal/calibrate.txt" ] || fail "calibrate.txt missing"
expect_in "$tmp/out" "noise-floor gate" "calibrate noise floor"
python3 - "$tmp/cal/calibrate.json" <<'EOF' || fail "calibrate.json noise floor"
import json, sys
d = json.load(open(sys.argv[1]))
nf = d["noise_floor"]
# 6 runs: 15 leave-pair-out comparisons; the wild series is not gated.
assert nf["loo_comparisons"] == 15 and nf["margin"] == 2, nf
assert nf["loo_gate_fired"] == 0 and nf["not_gated"] == 1, nf
for s in d["detection"]["per_series"]:
    if s["case"] == "wild":
        assert not s["gated"] and s["largest_aa_change_pct"] > 70, s
    else:
        assert s["gated"] and s["noise_floor_threshold_pct"] >= 5, s
EOF
expect_in "$tmp/cal/gate.conf" "^tlb/wild/ns_per_access gate=off" "gate.conf gate=off"
[ -f "$tmp/cal/gate.conf" ] || fail "gate.conf missing"
# The thresholds it writes are a valid compare config, and an A/A pair passes them.
expect_rc 0 "compare with gate.conf" "$PTBENCH" compare "$tmp/cal/pair-001/b" \
	"$tmp/cal/pair-002/a" --config "$tmp/cal/gate.conf"
expect_in "$tmp/out" "wild.*not gated" "gate=off series shown"
expect_in "$tmp/err" "1 series not gated (gate=off in $tmp/cal/gate.conf)" "gate=off said"
expect_rc 1 "compare without gate.conf" "$PTBENCH" compare "$tmp/cal/pair-001/b" \
	"$tmp/cal/pair-002/a"
expect_in "$tmp/err" "wild ns_per_access" "the noisy series fails the default gate"
expect_rc 1 "gate=off under --strict" "$PTBENCH" compare "$tmp/cal/pair-001/b" \
	"$tmp/cal/pair-002/a" --config "$tmp/cal/gate.conf" --strict
# without --reps: 10 all the same, so no run's time budget makes the pairs differ
expect_rc 0 "calibrate, reps not given" "$PTBENCH" calibrate --pairs 1 --suite quick \
	--out "$tmp/cal-q" --runner "$tmp/runner.sh"
expect_in "$tmp/runner.calls" "^run --suite quick --reps 10 --out $tmp/cal-q/pair-001/a --force$" \
	"calibrate passes --reps 10"
# SIGINT stops calibrate and the run it is waiting for, which is reaped.
printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 60\n' "$tmp/sleeper.pid" >"$tmp/sleeper.sh"
chmod +x "$tmp/sleeper.sh"
"$PTBENCH" calibrate --pairs 1 --out "$tmp/cal3" --runner "$tmp/sleeper.sh" \
	>/dev/null 2>"$tmp/err" &
cal=$!
for _ in $(seq 100); do [ -s "$tmp/sleeper.pid" ] && break; sleep 0.1; done
kill -INT "$cal"
wait "$cal"
rc=$?
[ "$rc" -eq 130 ] || fail "calibrate after SIGINT: exit $rc, expected 130"
sleep 0.2
kill -0 "$(cat "$tmp/sleeper.pid")" 2>/dev/null && fail "calibrate left its run running after SIGINT"
expect_in "$tmp/err" "interrupted (signal 2)" "calibrate says it was interrupted"
printf '#!/bin/sh\nexit 3\n' >"$tmp/broken.sh"
chmod +x "$tmp/broken.sh"
expect_rc 1 "calibrate broken runner" \
	"$PTBENCH" calibrate --pairs 1 --out "$tmp/cal2" --runner "$tmp/broken.sh"
expect_in "$tmp/err" "wrote no results.csv" "calibrate broken runner"


# Markdown: text from a run (the CPU model here) cannot become HTML or a link.
spec 100 2000 | make_run "$tmp/evil-a" 91 10 '<script>x</script> [a](http://x) |*_'
spec 100 2000 | make_run "$tmp/evil-b" 92 10 '<script>x</script> [a](http://x) |*_'
"$PTBENCH" compare "$tmp/evil-a" "$tmp/evil-b" --format markdown >"$tmp/evil.md" 2>/dev/null
grep -q '<script>' "$tmp/evil.md" && fail "markdown: an HTML tag from meta.json passed through"
grep -qF '&lt;script&gt;x&lt;/script&gt; \[a\](http://x) \|\*\_' "$tmp/evil.md" ||
	fail "markdown: the CPU model is not escaped: $(grep -m1 script "$tmp/evil.md")"

if [ "$fails" -gt 0 ]; then
	echo "e2e_compare: $fails failures" >&2
	exit 1
fi
echo "e2e_compare: ok"
