#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# one.sh RUN VARIANT: recalibrate a kept ./run.sh run (/work/exp/RUN) with a
# binary built with dropped-min.patch; VARIANT cur (as main), min (each
# case's fastest repetition) or one (the medians as one round).
# one.sh RUN VARIANT
r=$1; v=$2
case $v in
 cur) env ;;
 one) export PT_XONE=1 ;;
 min) export PT_XSTAT_MIN=1 ;;
esac >/dev/null
/work/exp/xstat/ptbench model walk calibrate --results /work/exp/$r > /work/exp/xstat/$r.$v.txt 2>/work/exp/xstat/$r.$v.err
