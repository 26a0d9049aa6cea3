#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every plot script on its own on the fixture run (tests/fixtures/run-small),
# headless: the matplotlib figure scripts, the gnuplot extraction and, when
# gnuplot is installed, the gnuplot scripts; each output a valid PNG and SVG;
# bad input exits 2.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/report_common.sh"

new_run b
awk -F, -v OFS=, '$2=="anon-write-4k" && $5=="ns_per_fault" {$6=sprintf("%.9g", $6*1.5)} 1' \
	"$fixture/results.csv" >"$tmp/b/results.csv"
new_run bad
sed -i '5s/,ns_per_access,[^,]*,/,ns_per_access,fast,/' "$tmp/bad/results.csv"

# ---- every plot script on its own ----
for s in fig_pgtable fig_translation fig_mmcost fig_faults; do
	expect 0 "$s.py" "$py" "$plot/$s.py" "$fixture" --out "$tmp/figs"
	expect 0 "$s.py --help" "$py" "$plot/$s.py" --help
done
expect 0 "fig_compare.py" "$py" "$plot/fig_compare.py" "$fixture" "$tmp/b" --out "$tmp/figs"
expect 2 "fig_compare.py on a missing run" "$py" "$plot/fig_compare.py" "$fixture" "$tmp/missing"
expect 2 "fig_pgtable.py on a malformed run" "$py" "$plot/fig_pgtable.py" "$tmp/bad"
expect 0 "extract.py" "$py" "$plot/extract.py" "$fixture" --out "$tmp/pd"
expect 2 "extract.py on a malformed run" "$py" "$plot/extract.py" "$tmp/bad"
for f in pgtable translation mmcost faults compare; do
	for e in png svg; do
		valid_figure "$tmp/figs/$f.$e" || fail "$f.$e from the script is missing or invalid"
	done
done
if command -v gnuplot >/dev/null; then
	for g in pgtable translation mmcost; do
		expect 0 "gnuplot $g.gp" gnuplot -e "datadir='$tmp/pd'; outdir='$tmp/figs'" \
			"$plot/$g.gp"
		for e in png svg; do
			valid_figure "$tmp/figs/gp-$g.$e" || fail "gp-$g.$e missing or invalid"
		done
	done
	# an output directory whose name is a shell command: gnuplot runs no shell
	evil="$tmp/o';touch $tmp/PWNED;'"
	mkdir -p "$evil"
	printf '%s\n' "datadir='$tmp/pd'" "outdir=\"$evil\"" >"$tmp/args.gp"
	for g in pgtable translation mmcost; do
		(cd "$tmp" && gnuplot -e "load '$tmp/args.gp'" "$plot/$g.gp") >/dev/null 2>&1
		valid_figure "$evil/gp-$g.png" || fail "gp-$g.png not written into a directory named like a command"
	done
	[ -e "$tmp/PWNED" ] && fail "a gnuplot script ran a shell command from its output path"
else
	echo "note: gnuplot not installed; the .gp scripts were not run"
fi

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all plot-script checks passed"
