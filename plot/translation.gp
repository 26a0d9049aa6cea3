# SPDX-License-Identifier: GPL-2.0-only
# Figure 2 for gnuplot: ns per access against working set; measured (solid),
# fitted D64 (dashed) and predicted D128 (dotted), 4K and THP. Reads
# DATADIR/translation.csv (plot/extract.py), writes OUTDIR/gp-translation.*.
#   gnuplot -e "datadir='RUN/plot-data'; outdir='RUN/figures'" plot/translation.gp
# gpcommon.gp beside this script, found without a shell: gnuplot never runs
# one here, as the paths it is given are not ours to quote
lastslash(s, i) = i < 1 ? 0 : (s[i:i] eq "/" ? i : lastslash(s, i - 1))
here = lastslash(ARG0, strlen(ARG0)) ? ARG0[1:lastslash(ARG0, strlen(ARG0)) - 1] : "."
load here . "/gpcommon.gp"
stem = "gp-translation"
f = datadir . "/translation.csv"
set logscale x 2
set logscale y 10
set format x "%.0b%B"
set xlabel "working set (bytes)"
set ylabel "ns per access"
set key top left
set grid
set title "Translation overhead: solid measured, dashed fitted D64 (model), " . \
	"dotted predicted D128 (model)"
do for [fmt in "png svg"] {
	eval set_term(fmt, 1100, 650)
	set output finalname(stem, fmt)
	plot f using 1:2 with linespoints lw 2 lc rgb "#1f77b4" title "measured 4k", \
	     '' using 1:3 with linespoints lw 2 lc rgb "#ff7f0e" title "measured thp", \
	     '' using 1:4 with linespoints lw 2 lc rgb "#9467bd" title "measured hugetlb", \
	     '' using 1:5 with linespoints lw 2 lc rgb "#7f7f7f" title "measured dense", \
	     '' using 1:6 with lines dt 2 lw 2 lc rgb "#1f77b4" title "fitted D64 4k", \
	     '' using 1:7 with lines dt 2 lw 2 lc rgb "#ff7f0e" title "fitted D64 thp", \
	     '' using 1:8 with lines dt 3 lw 2 lc rgb "#1f77b4" title "predicted D128 4k", \
	     '' using 1:9 with lines dt 3 lw 2 lc rgb "#ff7f0e" title "predicted D128 thp"
	unset output
}
