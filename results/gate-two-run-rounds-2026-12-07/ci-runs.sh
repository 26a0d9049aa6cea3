# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Sourced by analyse.sh and sketch/sketch.sh: ci_runs WORK extracts the
# day's 160 ci runs (runs-primary.tar.xz of ../gate-pvm-2026-12-07{,b,d,e}
# and ../gate-lowtrim-2026-12-07) under WORK and sets dev to their five
# block directories, in order.
ci_runs() {
	local d
	dev=()
	for d in gate-pvm-2026-12-07 gate-pvm-2026-12-07b gate-lowtrim-2026-12-07 \
		gate-pvm-2026-12-07d gate-pvm-2026-12-07e; do
		mkdir "$1/$d" &&
			tar -xJf "$(dirname "${BASH_SOURCE[0]}")/../$d/runs-primary.tar.xz" -C "$1/$d" ||
			return 1
		dev+=("$1/$d"/*)
	done
}
