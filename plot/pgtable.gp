# SPDX-License-Identifier: GPL-2.0-only
# Figure 1 for gnuplot: page-table bytes per case, measured by the kernel vs
# modelled D64 vs predicted D128. Reads DATADIR/pgtable.csv (plot/extract.py),
# writes OUTDIR/gp-pgtable.png and .svg.
#   gnuplot -e "datadir='RUN/plot-data'; outdir='RUN/figures'" plot/pgtable.gp
# gpcommon.gp beside this script, found without a shell: gnuplot never runs
# one here, as the paths it is given are not ours to quote
lastslash(s, i) = i < 1 ? 0 : (s[i:i] eq "/" ? i : lastslash(s, i - 1))
here = lastslash(ARG0, strlen(ARG0)) ? ARG0[1:lastslash(ARG0, strlen(ARG0)) - 1] : "."
load here . "/gpcommon.gp"
stem = "gp-pgtable"
f = datadir . "/pgtable.csv"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set logscale y 2
set format y "%.0b%B"
set ylabel "page-table bytes (median)"
set xtics rotate by 60 right font ",8"
set key top left autotitle columnhead
set grid ytics
set title "Page-table memory per case: measured vs modelled D64 vs predicted D128"
do for [fmt in "png svg"] {
	eval set_term(fmt, 1400, 700)
	set output finalname(stem, fmt)
	plot f using 2:xtic(1) title "measured (kernel)" lc rgb "#1f77b4", \
	     '' using 3 title "modelled D64" lc rgb "#2ca02c", \
	     '' using 4 title "predicted D128" lc rgb "#d62728"
	unset output
}
