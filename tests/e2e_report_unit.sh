#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python unit tests of plot/ (plot/test_*.py): input parsing, the
# statistics taken from ptbench summary ($PTBENCH), headline numbers and the
# D128 decision table. Standard library only.
set -euo pipefail

: "${PTBENCH_SRCDIR:?PTBENCH_SRCDIR must name the source directory}"
: "${PTBENCH:?PTBENCH must name the ptbench binary (the statistics are its)}"
py=${PTBENCH_PYTHON:-}
[ -z "$py" ] && { [ -x /usr/bin/python3 ] && py=/usr/bin/python3 || py=python3; }
export PYTHONDONTWRITEBYTECODE=1
cd "$PTBENCH_SRCDIR/plot"
exec "$py" -m unittest discover -s . -p 'test_*.py'
