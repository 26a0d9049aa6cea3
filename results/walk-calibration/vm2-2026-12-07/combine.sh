#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# combine.sh BIN: the eight fresh ./run.sh runs of the PVM guest of
# 2026-12-07 combined, in the order they were made (each directory's
# walk_model.csv is main's calibration of that run).
set -e
BIN=${1:?usage: combine.sh BIN}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac # before the cd below
cd "$(dirname "$0")"
R=..
"$BIN" model walk combine $R/run-2026-12-07-0620-pvm $R/run-2026-12-07-0629-pvm \
	$R/run-2026-12-07-0648-pvm $R/run-2026-12-07-0654-pvm $R/run-2026-12-07-0659-pvm \
	$R/run-2026-12-07-0703-pvm $R/run-2026-12-07-0708-pvm $R/run-2026-12-07-0720-pvm \
	-o combine.csv >combine.txt
