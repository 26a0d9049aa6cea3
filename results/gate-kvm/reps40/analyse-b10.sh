#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The rule of 01:57 (results/gate-kvm/reps40/rule.txt): the pool of 166
# through the night judged on block 10, then the split run effect reported.
exec "$(dirname "$0")/analyse-block.sh" /work/exp/r40g 166 2026-12-06T15:26 2026-12-06T16:30 \
	2026-12-06T17:32 2026-12-06T19:00 2026-12-06T23:00 2026-12-07T01:50
