#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# recal.sh: recalibrate the day's kept KVM runs with the scratch build,
# the median (as main) and the geometric mean (PT_CALIB_STAT=gmean).
PT=/work/exp/gmean/src/build/ptbench
cd /work/exp/gmean
for r in kvm61 runsh-62 runsh-63 runsh-1300 runsh-1857 runsh-2110; do
	for s in median gmean; do
		echo "$(date -u +%T) $r $s" >&2
		PT_CALIB_STAT=$s $PT model walk calibrate --results /work/exp/$r > $r-$s.txt 2> $r-$s.err
	done
done
echo "$(date -u +%T) done" >&2
