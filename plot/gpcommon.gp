# SPDX-License-Identifier: GPL-2.0-only
# Shared by the ptbench gnuplot scripts: where to read and write, and the
# terminals. Call as: gnuplot -e "datadir='DIR/plot-data'; outdir='DIR/figures'" plot/X.gp
if (!exists("datadir")) datadir = "plot-data"
if (!exists("outdir")) outdir = "figures"
set datafile separator ","
set datafile missing "NaN"
# pngcairo where gnuplot has cairo, the libgd png terminal otherwise.
pngterm = strstrt(GPVAL_TERMINALS, "pngcairo") ? "pngcairo" : "png"
# terminal setup for format fmt ("png" or "svg") at a size in pixels.
set_term(fmt, w, h) = (fmt eq "png") ? \
	sprintf("set terminal %s size %d,%d noenhanced", pngterm, w, h) : \
	sprintf("set terminal svg size %d,%d noenhanced", w, h)
# output goes straight to its name: renaming needs a shell, which gnuplot
# must not run with paths it is given
finalname(stem, fmt) = sprintf("%s/%s.%s", outdir, stem, fmt)
