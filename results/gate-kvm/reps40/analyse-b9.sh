#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The rule of 23:33 (results/gate-kvm/reps40/rule.txt): the whole day's
# pool of 136 judged on block 9, then the split run effect reported.
exec "$(dirname "$0")/analyse-block.sh" /work/exp/r40f 136 2026-12-06T15:26 2026-12-06T16:30 \
	2026-12-06T17:32 2026-12-06T19:00 2026-12-06T23:00
