#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# recal.sh BIN TAG: recalibrate the six kept KVM runs with BIN, timed.
BIN=$1 TAG=$2
IN=/work/main/results/walk-calibration/gmean-2026-12-06/inputs
cd /work/exp/drop  # the kept copies: main/ and drop/ here
for r in kvm61 runsh-62 runsh-63 runsh-1300 runsh-1857 runsh-2110; do
	mkdir -p $TAG/$r
	cp $IN/$r/meta.json $IN/$r/results.csv $TAG/$r/
	s=$(date +%s.%N)
	$BIN model walk calibrate --results $TAG/$r > $TAG/$r.txt 2> $TAG/$r.err
	e=$(date +%s.%N)
	echo "$r $(echo "$e - $s" | bc)" >> $TAG/times.txt
done
echo "$(date -u +%T) done" >&2
