#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ptbench model geometry|pgtable and ptbench snapshot, end to end.
set -u
: "${PTBENCH:?PTBENCH must name the ptbench binary}"
tmp=$(mktemp -d)
sleeper=
cleanup() {
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null && wait "$sleeper" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
# expect STATUS CMD...: run CMD, check its exit status
expect() {
	local want=$1 got
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, want $want: $(head -c 300 "$tmp/err")"
}

# geometry: all granules by default, side by side
expect 0 "$PTBENCH" model geometry
for g in 4K 16K 64K; do
	grep -q "^$g granule, VA 48 bits" "$tmp/out" || fail "geometry lacks $g"
done
grep -q "D128: 5 levels" "$tmp/out" || fail "4K D128 VA48 is not 5 levels"
grep -q "leaf tables per mapped GiB: D64 512, D128 1024" "$tmp/out" || fail "4K leaf tables"
expect 0 "$PTBENCH" model geometry --csv --granule 4K --format d128
[ "$(grep -c '^4,48,D128,0,0,5,' "$tmp/out")" = 5 ] || fail "CSV rows of 4K D128"
head -1 "$tmp/out" | grep -q '^granule_kib,va_bits,format' || fail "CSV header"
expect 0 "$PTBENCH" model geometry --granule 4K --ttbr-skl 1
grep -q "pgd *4096 *64K" "$tmp/out" || fail "TTBR.SKL=1 start table"
expect 2 "$PTBENCH" model geometry --format d64 --va 56
grep -q "56" "$tmp/err" || fail "D64 VA 56 message"
expect 2 "$PTBENCH" model geometry --granule 8K
expect 2 "$PTBENCH" model geometry --format d64 --table-skl 1
expect 2 "$PTBENCH" model geometry --va abc
expect 2 "$PTBENCH" model bogus
expect 0 "$PTBENCH" model --help
grep -q "usage: ptbench model geometry" "$tmp/out" || fail "model --help"
expect 0 "$PTBENCH" model geometry --help
expect 0 "$PTBENCH" model pgtable --help
expect 0 "$PTBENCH" snapshot --help

# pgtable on a live process (this shell)
expect 0 "$PTBENCH" model pgtable --pid $$
grep -q "^kernel: VmPTE" "$tmp/out" || fail "pgtable --pid: no kernel line"
grep -q "D128/D64" "$tmp/out" || fail "pgtable --pid: no ratio"
expect 2 "$PTBENCH" model pgtable --pid 1073741823
grep -q "1073741823" "$tmp/err" || fail "nonexistent pid message"
expect 2 "$PTBENCH" model pgtable
expect 2 "$PTBENCH" model pgtable --pid 0
expect 2 "$PTBENCH" model pgtable --pid $$ --snapshot "$tmp/x"

# snapshot round trip through the CLI: a still process models the same
sleep 60 &
sleeper=$!
sleep 0.2
expect 0 "$PTBENCH" snapshot --pid "$sleeper" -o "$tmp/snap"
[ -s "$tmp/snap" ] || fail "snapshot file empty"
[ "$(head -c 7 "$tmp/snap")" = PTBSNAP ] || fail "snapshot magic"
expect 0 "$PTBENCH" model pgtable --pid "$sleeper" --csv
grep -v '^kernel,' "$tmp/out" >"$tmp/live.csv"
expect 0 "$PTBENCH" model pgtable --snapshot "$tmp/snap" --csv
cmp -s "$tmp/live.csv" "$tmp/out" || fail "snapshot models differently: $(diff "$tmp/live.csv" "$tmp/out" | head)"
grep -q '^model,4,48,D128,0,0,0,pte,' "$tmp/out" || fail "snapshot CSV rows"
expect 0 "$PTBENCH" model pgtable --snapshot "$tmp/snap"
grep -q "^snapshot of pid $sleeper (sleep)" "$tmp/out" || fail "snapshot header"

# bad snapshots
size=$(stat -c %s "$tmp/snap")
head -c $((size - 1)) "$tmp/snap" >"$tmp/trunc"
expect 2 "$PTBENCH" model pgtable --snapshot "$tmp/trunc"
grep -q "trunc" "$tmp/err" || fail "truncated snapshot message"
head -c 40 "$tmp/snap" >"$tmp/short"
expect 2 "$PTBENCH" model pgtable --snapshot "$tmp/short"
cp "$tmp/snap" "$tmp/corrupt"
printf '\x55' | dd of="$tmp/corrupt" bs=1 seek=$((size / 2)) conv=notrunc status=none
cmp -s "$tmp/snap" "$tmp/corrupt" || expect 2 "$PTBENCH" model pgtable --snapshot "$tmp/corrupt"
expect 2 "$PTBENCH" model pgtable --snapshot "$tmp/does-not-exist"
expect 2 "$PTBENCH" snapshot --pid 1073741823 -o "$tmp/nope"
[ ! -e "$tmp/nope" ] || fail "snapshot of a missing pid left a file"
expect 2 "$PTBENCH" snapshot --pid "$sleeper"
exit 0
