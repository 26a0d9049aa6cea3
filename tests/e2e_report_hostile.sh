#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Hostile and unlucky inputs to every Python entry point of plot/ (issue 16,
# items 6 and 7): each exits 2 with a message and no traceback, refuses a
# FIFO or a device before reading it (a FIFO blocked every reader, /dev/zero
# read until MemoryError), and what a run directory says (a --tag, a case
# note, a counter's reason) reaches REPORT.md as text, never as a link, an
# image or an HTML tag.
source "$(dirname "$0")/report_common.sh"

# hostile NAME DESCRIPTION: every entry point on $tmp/NAME exits 2, says
# why, shows no traceback, and ends within 20 s.
hostile() {
	local name=$1 what=$2 rc script before=$fails
	for script in report.py extract.py fig_pgtable.py fig_translation.py fig_mmcost.py \
		fig_faults.py; do
		local args=("$tmp/$name")
		[ "$script" = report.py ] && args+=(--no-plots)
		timeout 20 "$py" "$plot/$script" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -ne 2 ]; then
			fail "$script, $what: exit $rc, expected 2"
			head -5 "$tmp/err"
		elif grep -q Traceback "$tmp/err"; then
			fail "$script, $what: a traceback"
			head -5 "$tmp/err"
		elif ! [ -s "$tmp/err" ]; then
			fail "$script, $what: no message"
		fi
	done
	[ "$fails" -eq "$before" ] && ok "$what: exit 2 with a message ($(head -c 120 "$tmp/err"))"
}

meta() { # NAME PYTHON: the fixture with meta.json rewritten by PYTHON on m
	new_run "$1"
	"$py" - "$tmp/$1/meta.json" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[2])
open(sys.argv[1], "w").write(json.dumps(m) if not isinstance(m, str) else m)
PY
}

meta big 'm["regime"]["page_size"] = 1e300; m["env"]["page_size"] = 1e300'
hostile big "a value of 1e300 in meta.json"
meta inf 'm = json.dumps(m).replace("\"page_size\": 4096", "\"page_size\": 1e999", 1)'
hostile inf "a value of 1e999 (infinity) in meta.json"
meta surrogate 'm = json.dumps(m).replace("\"cpu_model\": \"", "\"cpu_model\": \"\\ud800", 1)'
hostile surrogate "a lone surrogate in meta.json"
meta deep 'm = "{\"a\": " + "[" * 100000 + "]" * 100000 + "}"'
hostile deep "meta.json nested 100k deep"
meta types 'm["cases"] = "not a list"; m["env"] = [1, 2]'
hostile types "wrong JSON types in meta.json"
meta casetype 'm["cases"] = [1, "x"]'
hostile casetype "cases[] that are not objects"
new_run bigcsv
sed -i '2s/,[0-9.e+-]*,\([a-z]*\),\(lower\|higher\|neither\)$/,1e300,\1,\2/' "$tmp/bigcsv/results.csv"
# the figures and extracts plot it; the report's statistics overflow (null)
timeout 20 "$py" "$plot/report.py" --no-plots "$tmp/bigcsv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ -s "$tmp/err" ] && ! grep -q Traceback "$tmp/err" &&
	ok "report.py, a sample of 1e300 in results.csv: exit 2 with a message" ||
	fail "report.py, a sample of 1e300 in results.csv: exit $rc: $(head -3 "$tmp/err")"
new_run zero
ln -sf /dev/zero "$tmp/zero/meta.json"
hostile zero "meta.json a symlink to /dev/zero"
new_run fifo
rm "$tmp/fifo/meta.json" && mkfifo "$tmp/fifo/meta.json"
hostile fifo "meta.json a FIFO"
new_run fifocsv
rm "$tmp/fifocsv/results.csv" && mkfifo "$tmp/fifocsv/results.csv"
hostile fifocsv "results.csv a FIFO"
new_run nul
printf '\0' >>"$tmp/nul/meta.json"
hostile nul "a NUL byte in meta.json"

# Through ptbench report too (its C side reads the run as well).
timeout 20 "$PTBENCH" report --no-plots "$tmp/fifo" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "FIFO" "$tmp/err" && ok "ptbench report on a FIFO meta.json: exit 2" ||
	fail "ptbench report on a FIFO meta.json: exit $rc: $(head -3 "$tmp/err")"

# Markdown and HTML injection through meta.json: text, never markup.
meta inject '
m["run"]["tag"] = "<script>alert(1)</script> ` [tag](http://evil.example/t)"
m["env"]["cpu_model"] = "<img src=x onerror=alert(2)> [cpu](http://evil.example/c)"
m["cases"].append({"workload": "tlb", "case": "x|y", "status": "failed",
                   "notes": ["![note](http://evil.example/n.png) <b>bold</b>\n# heading"]})
m.setdefault("counters", {})["unsupported"] = [{"name": "ev`x", "reason": "[r](http://evil.example/r)"}]
'
expect 0 "report of a run with markup in meta.json" "$py" "$plot/report.py" --no-plots "$tmp/inject"
for f in "$tmp/inject/REPORT.md" "$tmp/inject/REPORT-series.md"; do
	if grep -nE '<(script|img|b)[ >]|\]\(http://evil|^# heading' "$f" | grep -v '\\<' | grep -v '\\\]' >"$tmp/hits"; then
		fail "markup from meta.json reached $(basename "$f"): $(head -3 "$tmp/hits")"
	fi
done
grep -qF '\<script\>' "$tmp/inject/REPORT.md" && ok "the tag is escaped text in REPORT.md" ||
	fail "the tag is not in REPORT.md as escaped text"

# An incomplete run (killed, or stopped by a full disk) says so in REPORT.md.
meta partial 'm["complete"] = False; m["unfinished"] = [{"workload": "tlb", "case": "chase-4k-16K", "reps_ok": 2}]'
expect 0 "report of an incomplete run" "$py" "$plot/report.py" --no-plots "$tmp/partial"
grep -q "This run did not finish.*tlb/chase-4k-16K" "$tmp/partial/REPORT.md" &&
	ok "REPORT.md says the run did not finish" || fail "REPORT.md does not say the run is incomplete"

# The temporaries are made with mkstemp: a symlink planted at the old fixed
# name (REPORT.md.tmp) is neither followed nor removed.
new_run planted
echo victim >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/planted/REPORT.md.tmp"
expect 0 "report beside a planted REPORT.md.tmp symlink" "$py" "$plot/report.py" --no-plots "$tmp/planted"
[ "$(cat "$tmp/victim")" = victim ] && ok "the symlink's target is untouched" ||
	fail "report.py wrote through the planted symlink"
[ -z "$(find "$tmp/planted" -name '.*.tmp')" ] || fail "a temporary file is left behind"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
