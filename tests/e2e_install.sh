#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cmake --install puts ptbench in PREFIX/bin and its scripts in
# PREFIX/share/ptbench/plot, and the installed ptbench reports on the
# fixture run with nothing from the source or build tree: no $PTBENCH, no
# $PTBENCH_SRCDIR, the scripts found beside the binary.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/report_common.sh"
: "${PTBENCH_BUILDDIR:?PTBENCH_BUILDDIR must name the build directory}"

prefix=$tmp/prefix
expect 0 "cmake --install" cmake --install "$PTBENCH_BUILDDIR" --prefix "$prefix"
bin=$prefix/bin/ptbench
[ -x "$bin" ] && ok "bin/ptbench installed" || fail "no $bin"
for f in report.py reporttext.py decision.py cmpjson.py ptdata.py fig_compare.py pgtable.gp; do
	[ -f "$prefix/share/ptbench/plot/$f" ] || fail "share/ptbench/plot/$f not installed"
done
ls "$prefix/share/ptbench/plot"/test_*.py 2>/dev/null && fail "unit tests installed"
# No source path of ptbench's own in the binary's constant data (libperf,
# built under .deps/ by run.sh, keeps its own file names for its asserts).
if command -v readelf >/dev/null &&
	readelf -p .rodata "$bin" 2>/dev/null | grep -F "$PTBENCH_SRCDIR" |
	grep -qvF "$PTBENCH_SRCDIR/.deps/"; then
	fail "the installed binary still holds the source path $PTBENCH_SRCDIR"
fi

new_run inst
clean=(env -u PTBENCH -u PTBENCH_SRCDIR -u PTBENCH_PLOTDIR -u PTBENCH_FIXTURES)
expect 0 "installed ptbench report" "${clean[@]}" "$bin" report "$tmp/inst"
grep -qx "$tmp/inst/REPORT.md" "$tmp/out" || fail "the path of REPORT.md not printed"
has "$tmp/inst/REPORT.md" '^## What D128 would change against D64$' "REPORT.md written"
[ -f "$tmp/inst/REPORT-series.md" ] && ok "appendix written" || fail "no REPORT-series.md"
n=$(check_figures "$tmp/inst")
[ "$n" -eq 4 ] && ok "4 figures" || fail "$n figures, expected 4"
# The installed scripts on their own find the installed binary.
expect 0 "installed fig_pgtable.py" "${clean[@]}" "$py" \
	"$prefix/share/ptbench/plot/fig_pgtable.py" "$tmp/inst" --out "$tmp/figs"
# PTBENCH_PLOTDIR overrides, and a wrong one is named.
expect 1 "PTBENCH_PLOTDIR to nowhere" env PTBENCH_PLOTDIR="$tmp/none" "$bin" report "$tmp/inst"
grep -q "$tmp/none" "$tmp/err" || fail "the message does not name PTBENCH_PLOTDIR"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all install checks passed"
