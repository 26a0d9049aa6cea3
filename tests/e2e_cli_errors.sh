#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The CLI defects of issue 16 (item 10), one check each: bad input is exit 2
# with a message naming it, a failed write of standard output is exit 1.
# None of these checks runs a workload.
set -u

: "${PTBENCH:?PTBENCH must point at the ptbench binary}"
fixtures=${PTBENCH_FIXTURES:-${PTBENCH_SRCDIR:-.}/tests/fixtures}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# expect STATUS PATTERN DESCRIPTION COMMAND...: exit STATUS, PATTERN on stderr
expect() {
	local want=$1 pattern=$2 what=$3 rc
	shift 3
	timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$what: exit $rc, expected $want: $(head -2 "$tmp/err")"
	elif ! grep -qF -- "$pattern" "$tmp/err"; then
		fail "$what: stderr lacks '$pattern': $(head -2 "$tmp/err")"
	else
		echo "ok: $what (exit $rc)"
	fi
}

run=$fixtures/run-small
expect 2 "--threshold '%'" "compare --threshold % (read as 0%)" \
	"$PTBENCH" compare --threshold % "$run" "$run"
expect 2 "--events needs at least one event name" "run --events '' (no counters)" \
	"$PTBENCH" run --events '' --out "$tmp/r"
expect 2 "--events needs at least one event name" "run --events ','" \
	"$PTBENCH" run --events , --out "$tmp/r"
[ ! -e "$tmp/r" ] || fail "a refused run made its --out"
# refused by the memory guard once the run's --out exists: the directory goes with it
expect 2 "--warm-guest 100T: needs" "run --warm-guest 100T (past the memory guard)" \
	"$PTBENCH" run --workload tlb --case chase-4k-16K --warm-guest 100T --out "$tmp/w"
[ ! -e "$tmp/w" ] || fail "a run refused for --warm-guest left its --out behind"
expect 2 "a directory, not a regular file" "model walk --config DIR" \
	"$PTBENCH" model walk --config "$tmp"
expect 2 "/dev/zero: a character device" "model walk --config /dev/zero (defaults, exit 0)" \
	"$PTBENCH" model walk --config /dev/zero
printf 'cpu.ghz = 3\n\0\n' >"$tmp/nul.cfg"
expect 2 "contains a NUL byte" "model walk --config with a NUL byte" \
	"$PTBENCH" model walk --config "$tmp/nul.cfg"
expect 2 "bad value '0' for cpu.ghz" "model walk --set cpu.ghz=0" \
	"$PTBENCH" model walk --set cpu.ghz=0
expect 2 "bad value '-1' for cpu.ghz" "model walk --set cpu.ghz=-1" \
	"$PTBENCH" model walk --set cpu.ghz=-1
printf ' L 7ff000000,8\n' >"$tmp/t.lackey"
expect 2 "is a directory" "model walk convert -o DIR (exit 1 after the read)" \
	"$PTBENCH" model walk convert --lackey "$tmp/t.lackey" -o "$tmp"
expect 2 "--stat 'mean': expected median or gmean" "model walk calibrate --stat mean" \
	"$PTBENCH" model walk calibrate --stat mean --results "$run"
expect 2 "--stat is an option of 'calibrate'" "model walk --stat gmean (not calibrate)" \
	"$PTBENCH" model walk --stat gmean
# fractions and factors are plain decimals (util/parse.h): no blank, sign or exponent
expect 2 "--trim ' 0.2': expected a fraction from 0 to 0.5" "compare --trim ' 0.2'" \
	"$PTBENCH" compare --baseline-db "$tmp/none.sqlite" --trim " 0.2" "$run"
expect 2 "--margin '1e1': expected a number 1..100" "calibrate --margin 1e1" \
	"$PTBENCH" calibrate --margin 1e1
# one message for an unknown option or a missing value, naming it as typed
# (getopt's own line and a 'see --help' twice before)
for sub in list run snapshot "model geometry" "model pgtable" "model ops" calibrate; do
	# shellcheck disable=SC2086 # $sub is one or two words
	expect 2 "ptbench $sub: unknown option '--bogus'" "$sub --bogus" "$PTBENCH" $sub --bogus
done
expect 2 "ptbench model geometry: --va needs a value" "model geometry --va" \
	"$PTBENCH" model geometry --va
expect 2 "ptbench run: --reps needs a value" "run --reps" "$PTBENCH" run --reps
expect 2 "ptbench snapshot: --pid needs a value" "snapshot --pid" "$PTBENCH" snapshot --pid
# inside a cluster the option named is the one that failed (it named the word before)
expect 2 "ptbench list: unknown option '-x'" "list -xv" "$PTBENCH" list -xv
expect 2 "ptbench compare: --strict takes no value" "compare --strict=1" \
	"$PTBENCH" compare --strict=1 "$run" "$run"
# the message names the option typed (it named --no-host-caches for --stage2)
expect 2 "--stage2 bogus: bad value 'bogus' for stage2" "model walk --stage2 bogus" \
	"$PTBENCH" model walk --stage2 bogus
expect 2 "--host-backing 3k:" "model walk --host-backing 3k" \
	"$PTBENCH" model walk --host-backing 3k
expect 2 "bad number 'x' for --seed" "model walk --seed x" \
	"$PTBENCH" model walk --seed x
# zero counted accesses printed a row of rates over nothing, exit 0
expect 2 "bad number '0' for --accesses" "model walk --accesses 0" \
	"$PTBENCH" model walk --accesses 0
expect 2 "calibrate: --bench is not an option here" "model walk calibrate --bench" \
	"$PTBENCH" model walk calibrate --bench --results "$run"
expect 2 "--drop 'inf': expected 0" "model walk calibrate --drop inf" \
	"$PTBENCH" model walk calibrate --drop inf --results "$run"
# calibrate checks its suite before it launches a run (a runner that
# records its calls shows none was made)
printf '#!/bin/sh\necho "$*" >>"%s/calls"\n' "$tmp" >"$tmp/runner.sh"
chmod +x "$tmp/runner.sh"
expect 2 "unknown suite 'nope'" "calibrate --suite nope (exit 1, after runs)" \
	"$PTBENCH" calibrate --suite nope --pairs 1 --out "$tmp/cal" --runner "$tmp/runner.sh"
[ ! -e "$tmp/calls" ] || fail "calibrate --suite nope launched a run: $(cat "$tmp/calls")"
# run.sh: --out is the run's directory, read back after the run, so it is
# checked before anything is set up or built
if [ -x "${PTBENCH_SRCDIR:-.}/run.sh" ]; then
	expect 2 "run.sh: --out needs a directory" "run.sh --out (no directory)" \
		"${PTBENCH_SRCDIR:-.}/run.sh" --suite quick --out
	expect 2 "run.sh: --out needs a directory" "run.sh --out=''" \
		"${PTBENCH_SRCDIR:-.}/run.sh" --out=
	expect 2 "the reference run is always results/reference" "run.sh reference --out" \
		"${PTBENCH_SRCDIR:-.}/run.sh" reference --out "$tmp/ref"
	[ ! -e "$tmp/ref" ] || fail "run.sh reference --out made $tmp/ref"
fi
# standard output to a full device: the output is lost, so exit 1
if [ -w /dev/full ]; then
	for cmd in "list" "model geometry" "model pgtable --pid $$" "list --format markdown" \
		"--version" "summary $run"; do
		# shellcheck disable=SC2086
		"$PTBENCH" $cmd >/dev/full 2>"$tmp/err"
		rc=$?
		if [ "$rc" = 1 ] && grep -q "writing standard output: No space left on device" "$tmp/err"; then
			echo "ok: $cmd >/dev/full (exit 1)"
		else
			fail "$cmd >/dev/full: exit $rc: $(head -2 "$tmp/err")"
		fi
	done
else
	echo "skip: no writable /dev/full"
fi
[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
