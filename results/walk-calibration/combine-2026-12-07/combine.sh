#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# combine.sh BIN: the KVM fresh runs of 2026-12-06/07 combined, in
# the order they were made. The first six are their recalibrations with the
# current search and --stat gmean (drop-2026-12-07/recal.sh, the variant);
# the rest were calibrated so by ./run.sh itself.
set -e
BIN=${1:?usage: combine.sh BIN}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac # before the cd below
cd "$(dirname "$0")"
R=..
"$BIN" model walk combine recal/0830 recal/0852 recal/0934 recal/1244 recal/1857 \
	recal/2110 $R/run-2026-12-06-2300-kvm $R/run-2026-12-06-2322-kvm \
	$R/run-2026-12-07-0145-kvm $R/run-2026-12-07-0302-kvm $R/run-2026-12-07-0321-kvm \
	$R/run-2026-12-07-0349-kvm $R/run-2026-12-07-0358-kvm \
	$R/run-2026-12-07-0408-kvm $R/run-2026-12-07-0516-kvm $R/run-2026-12-07-0528-kvm \
	-o combine.csv >combine.txt
