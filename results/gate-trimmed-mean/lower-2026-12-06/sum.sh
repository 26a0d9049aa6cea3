#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# the A/A and caught lines of history aa outputs, one line each
for f in "$@"; do
echo "$f: $(grep 'A/A: the gate fired' $f | sed 's/A\/A: the gate fired on //; s/; 95% upper bound of the rate/ up/' | tr '\n' ' ') | $(tail -1 $f | sed 's/gated series with 3 NEW run(s)/3N/; s/median smallest detectable change//')"
done
