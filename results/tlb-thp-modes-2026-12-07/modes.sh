#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# modes.sh: modes.txt from the five PVM blocks of 2026-12-07 kept in the
# results (runs-primary.tar.xz: the primary metrics of every repetition),
# oldest first. It only reads the archives.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
for a in gate-pvm-2026-12-07 gate-pvm-2026-12-07b gate-lowtrim-2026-12-07 \
	gate-pvm-2026-12-07d gate-pvm-2026-12-07e; do
	tar -xJf "$here/../$a/runs-primary.tar.xz" -C "$work" || exit 2
done
/usr/bin/python3 "$here/modes.py" "$work"/pvmblock "$work"/pvmblock2 "$work"/pvmblock3 \
	"$work"/pvmblock4 "$work"/pvmblock5 >"$here/modes.txt.tmp" &&
	mv "$here/modes.txt.tmp" "$here/modes.txt"
