#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The rule of 04:13 (results/gate-kvm/reps40/rule.txt): all 196 runs kept
# judged on block 11, then the split run effect reported.
exec "$(dirname "$0")/analyse-block.sh" /work/exp/r40h 196 2026-12-06T15:26 2026-12-06T16:30 \
	2026-12-06T17:32 2026-12-06T19:00 2026-12-06T23:00 2026-12-07T01:50 2026-12-07T04:00
