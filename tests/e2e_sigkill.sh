#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SIGKILL runs no handler, so a killed run leaves its knobs changed; the next
# run restores them from the journal before it reads any, says so, and a
# second run started while the first one holds the lock waits and then
# refuses. Same fixture sysroot as e2e_sigint.sh (no root needed: knobs and
# /run/ptbench live below the copy).
set -uo pipefail

# shellcheck source=knob_sysroot.sh
. "$(dirname "${BASH_SOURCE[0]}")/knob_sysroot.sh"

out=$tmp/out
PTBENCH_SYSROOT=$root "$PTBENCH" run --workload thp --case 'mthp-fault-*' --reps 50 \
	--out "$out" >"$tmp/stdout" 2>"$tmp/stderr" &
pid=$!

knob=$thp/hugepages-16kB/enabled
deadline=$((SECONDS + 30))
changed=
while [ $SECONDS -lt $deadline ]; do
	if [ "$(choice "$knob")" != never ]; then
		changed=1
		break
	fi
	kill -0 "$pid" 2>/dev/null || break
done
if [ -z "$changed" ]; then
	cat "$tmp/stderr" >&2
	fail "the run never changed $knob"
fi
journal=$root/run/ptbench/knobs.journal
[ -s "$journal" ] || fail "no journal at $journal while the run changes knobs"

kill -KILL "$pid"
wait "$pid" 2>/dev/null
pid=
[ "$(choice "$knob")" = always ] || fail "after SIGKILL the knob is '$(choice "$knob")', expected still always"
[ "$(choice "$reporting")" = 11 ] || fail "after SIGKILL page reporting is '$(choice "$reporting")', expected still 11"

# The next run: no case matches (exit 2), but it takes the lock first.
rc=0
PTBENCH_SYSROOT=$root "$PTBENCH" run --case 'no-such-case' --out "$tmp/out2" \
	>/dev/null 2>"$tmp/stderr2" || rc=$?
[ "$rc" -eq 2 ] || fail "the next run exited $rc, expected 2 (no case matches)"
grep -q 'restored [0-9]* knob(s) a dead run had left changed' "$tmp/stderr2" ||
	fail "the next run did not say it restored knobs: $(cat "$tmp/stderr2")"
[ "$(choice "$knob")" = never ] || fail "the next run left $knob at '$(choice "$knob")', not never"
[ "$(choice "$reporting")" = 9 ] || fail "the next run left page_reporting_order at '$(choice "$reporting")', not 9"
[ -e "$journal" ] && fail "the journal is still there after recovery"

# Two runs at once: hold the lock the way a run does (flock), start a run.
exec 9>"$root/run/ptbench/lock"
flock -x 9 || fail "cannot take the lock for the test"
start=$SECONDS
rc=0
PTBENCH_SYSROOT=$root "$PTBENCH" run --lock-wait 2 --case 'no-such-case' \
	--out "$tmp/out3" >/dev/null 2>"$tmp/stderr3" || rc=$?
exec 9>&-
[ "$rc" -eq 1 ] || fail "a run while another holds the lock exited $rc, expected 1: $(cat "$tmp/stderr3")"
grep -q 'waiting up to 2 s for another run' "$tmp/stderr3" || fail "no wait message: $(cat "$tmp/stderr3")"
grep -q 'another ptbench run holds the lock' "$tmp/stderr3" || fail "no refusal message: $(cat "$tmp/stderr3")"
echo "ok: SIGKILL left the knobs changed, the next run restored them; a concurrent run waited and refused"
