# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# Sourced by this directory's analyses (analyse.sh, split.sh, spread.sh).
# rebuild_history SCRIPT PTBENCH: checks PTBENCH (exit 2 if it is not an
# executable), makes a temporary directory removed on exit, and adds the
# 130 PVM runs of 2026-12-07 kept in the four blocks' runs-primary.tar.xz
# (../gate-pvm-2026-12-07, -07b, ../gate-lowtrim-2026-12-07 and this
# block's), oldest first, into one history. Sets pt (the binary's absolute
# path), here (this directory) and work (the temporary one, holding
# h.sqlite). It only reads the archives.
rebuild_history() {
	[ -n "${2:-}" ] || { echo "usage: $1 PTBENCH" >&2; exit 2; }
	pt=$2
	case $pt in /*) ;; *) pt=$PWD/$pt ;; esac
	[ -x "$pt" ] || { echo "$1: PTBENCH '$pt': not an executable" >&2; exit 2; }
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	work=$(mktemp -d) || exit 2
	# shellcheck disable=SC2064 # $work is fixed now, the trap removes this one
	trap "rm -rf '$work'" EXIT
	for a in ../gate-pvm-2026-12-07 ../gate-pvm-2026-12-07b ../gate-lowtrim-2026-12-07 .; do
		tar -xJf "$here/$a/runs-primary.tar.xz" -C "$work" || exit 2
	done
	"$pt" history add "$work"/pvmblock/ci-* "$work"/pvmblock2/ci-* "$work"/pvmblock3/ci-* \
		"$work"/pvmblock4/ci-* --db "$work/h.sqlite" >"$work/add.log" 2>&1 || exit 1
}
