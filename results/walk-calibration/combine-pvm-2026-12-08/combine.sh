#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# combine.sh BIN: the seventeen fresh ./run.sh runs of the PVM guest of
# 2026-12-07 and 08 (06:20-00:51) combined, in the order they were made (each
# directory's walk_model.csv is the calibration ./run.sh made of that run;
# the first fifteen: ../combine-pvm-2026-12-07/combine.sh).
set -e
BIN=${1:?usage: combine.sh BIN}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac # before the cd below
cd "$(dirname "$0")"
R=..
"$BIN" model walk combine $R/run-2026-12-07-0620-pvm $R/run-2026-12-07-0629-pvm \
	$R/run-2026-12-07-0648-pvm $R/run-2026-12-07-0654-pvm $R/run-2026-12-07-0659-pvm \
	$R/run-2026-12-07-0703-pvm $R/run-2026-12-07-0708-pvm $R/run-2026-12-07-0720-pvm \
	$R/run-2026-12-07-1248-pvm $R/run-2026-12-07-1321-pvm $R/run-2026-12-07-1338-pvm \
	$R/run-2026-12-07-1535-pvm $R/run-2026-12-07-1750-pvm $R/run-2026-12-07-1816-pvm \
	$R/run-2026-12-07-1822-pvm $R/run-2026-12-08-0018-pvm \
	$R/run-2026-12-08-0051-pvm -o combine.csv >combine.txt
