#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Python unit tests of plot/ (plot/test_*.py): statistics, comparison
# rules, input parsing, headline numbers. Standard library only.
set -euo pipefail

: "${PTBENCH_SRCDIR:?PTBENCH_SRCDIR must name the source directory}"
py=${PTBENCH_PYTHON:-}
[ -z "$py" ] && { [ -x /usr/bin/python3 ] && py=/usr/bin/python3 || py=python3; }
export PYTHONDONTWRITEBYTECODE=1
cd "$PTBENCH_SRCDIR/plot"
exec "$py" -m unittest discover -s . -p 'test_*.py'
