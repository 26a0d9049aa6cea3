#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A SIGINT in the middle of a run restores every sysfs knob the run changed,
# kills the run by SIGINT, and keeps what the run completed: results.csv with
# the rows of the finished rounds (whole rows only), meta.json saying
# complete: false, and no temporary file. (Until issue 16 an interrupted run
# left nothing; rows are now appended and synced per round, so a SIGINT, like
# a SIGKILL or a full disk, keeps every completed repetition.) Runs on a copy of the x86-64 fixture sysroot with mTHP knobs
# added, so it needs no root: the thp workload's mTHP cases write their knob
# in the copy (the faults themselves go to the real kernel, which is why the
# cases may fail there; they are interrupted before they end anyway).
set -uo pipefail

# shellcheck source=knob_sysroot.sh
. "$(dirname "${BASH_SOURCE[0]}")/knob_sysroot.sh"

out=$tmp/out
PTBENCH_SYSROOT=$root "$PTBENCH" run --workload thp --case 'mthp-fault-*' --reps 50 \
	--out "$out" >"$tmp/stdout" 2>"$tmp/stderr" &
pid=$!

# Wait (up to 30 s) for the first mTHP case to set its knob.
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
[ "$(choice "$knob")" = always ] || fail "the knob was set to '$(choice "$knob")', not always"
[ "$(choice "$reporting")" = 11 ] || fail "page reporting not paused: order '$(choice "$reporting")'"

kill -INT "$pid"
wait "$pid"
rc=$?
pid=
[ "$rc" -eq 130 ] || {
	cat "$tmp/stderr" >&2
	fail "the run exited with $rc, not by SIGINT (130)"
}
for kb in 16 64; do
	got=$(choice "$thp/hugepages-${kb}kB/enabled")
	[ "$got" = never ] || fail "hugepages-${kb}kB/enabled is '$got' after SIGINT, not never"
done
[ "$(choice "$reporting")" = 9 ] || fail "page_reporting_order is '$(choice "$reporting")' after SIGINT, not 9"
[ -f "$out/results.csv" ] || fail "an interrupted run left no results.csv (its completed rounds are kept)"
head -n1 "$out/results.csv" | grep -qx 'workload,case,params,rep,metric,value,unit,better' ||
	fail "results.csv does not start with the header"
[ -z "$(tail -c1 "$out/results.csv")" ] || fail "results.csv ends in half a row"
grep -q '"complete": false' "$out/meta.json" || fail "meta.json does not say complete: false"
grep -q '"exit_status": null' "$out/meta.json" || fail "meta.json of an interrupted run has an exit status"
left=$(find "$out" -name '*.tmp.*' 2>/dev/null)
[ -z "$left" ] || fail "an interrupted run left temporary files: $left"
rows=$(($(wc -l <"$out/results.csv") - 1))
echo "ok: knobs restored, died of SIGINT, kept results.csv ($rows rows) and meta.json (complete: false)"
