# SPDX-License-Identifier: GPL-2.0-only
# Figure 3 for gnuplot: fork (ns per fork), mprotect and munmap (ns per
# page) against resident size, one line per case family. Reads
# DATADIR/mmcost-{fork,mprotect,munmap}.csv (plot/extract.py), writes
# OUTDIR/gp-mmcost.png and .svg. A panel whose CSV is absent says so.
#   gnuplot -e "datadir='RUN/plot-data'; outdir='RUN/figures'" plot/mmcost.gp
load sprintf("%s/gpcommon.gp", system("dirname " . ARG0))
stem = "gp-mmcost"
panels = "fork mprotect munmap"
titles = "'fork: ns per fork' 'mprotect: ns per page' 'munmap / MADV_DONTNEED: ns per page'"
exists_file(p) = system(sprintf("test -r '%s' && echo 1 || echo 0", p)) + 0
set logscale y 10
set xlabel "resident size (MiB)"
set ylabel "ns (median)"
set key top left font ",8"
set grid
do for [fmt in "png svg"] {
	eval set_term(fmt, 1500, 500)
	set output tmpname(stem, fmt)
	set multiplot layout 1,3 title "fork, mprotect and munmap cost vs resident size (measured)"
	do for [i=1:3] {
		f = sprintf("%s/mmcost-%s.csv", datadir, word(panels, i))
		set title word(titles, i)
		if (exists_file(f)) {
			plot for [b=0:*] f index b using 1:2:3:4 with yerrorlines title columnhead(1)
		} else {
			set label 1 "no data in this run" at graph 0.5, graph 0.5 center
			plot [0:1][1:10] NaN notitle
			unset label 1
		}
	}
	unset multiplot
	unset output
	system(sprintf("mv '%s' '%s'", tmpname(stem, fmt), finalname(stem, fmt)))
}
