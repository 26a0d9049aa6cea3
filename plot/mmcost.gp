# SPDX-License-Identifier: GPL-2.0-only
# Figure 3 for gnuplot: fork (ns per fork), mprotect and munmap (ns per
# page) against resident size, one line per case family. Reads
# DATADIR/mmcost-{fork,mprotect,munmap}.csv (plot/extract.py), writes
# OUTDIR/gp-mmcost.png and .svg. A panel whose CSV is absent says so.
#   gnuplot -e "datadir='RUN/plot-data'; outdir='RUN/figures'" plot/mmcost.gp
# gpcommon.gp beside this script, found without a shell: gnuplot never runs
# one here, as the paths it is given are not ours to quote
lastslash(s, i) = i < 1 ? 0 : (s[i:i] eq "/" ? i : lastslash(s, i - 1))
here = lastslash(ARG0, strlen(ARG0)) ? ARG0[1:lastslash(ARG0, strlen(ARG0)) - 1] : "."
load here . "/gpcommon.gp"
stem = "gp-mmcost"
panels = "fork mprotect munmap"
titles = "'fork: ns per fork' 'mprotect: ns per page' 'munmap / MADV_DONTNEED: ns per page'"
load datadir . "/mmcost-panels.gp"
set logscale y 10
set xlabel "resident size (MiB)"
set ylabel "ns (median)"
set key top left font ",8"
set grid
do for [fmt in "png svg"] {
	eval set_term(fmt, 1500, 500)
	set output finalname(stem, fmt)
	set multiplot layout 1,3 title "fork, mprotect and munmap cost vs resident size (measured)"
	do for [i=1:3] {
		f = sprintf("%s/mmcost-%s.csv", datadir, word(panels, i))
		set title word(titles, i)
		if (value("have_" . word(panels, i))) {
			plot for [b=0:*] f index b using 1:2:3:4 with yerrorlines title columnhead(1)
		} else {
			set label 1 "no data in this run" at graph 0.5, graph 0.5 center
			plot [0:1][1:10] NaN notitle
			unset label 1
		}
	}
	unset multiplot
	unset output
}
