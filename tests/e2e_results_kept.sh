#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# No lost results (issue 16): rows are appended and synced per round, so a
# run killed by SIGKILL, or stopped by a full disk, keeps every completed
# repetition and meta.json says complete: false with the unfinished cases;
# compare and history add refuse such a run unless --allow-incomplete. A
# non-empty --out is refused unless --force, which clears the old run's
# files first, and an output directory others can write to is refused.
# Runs the tlb workload's smallest case on a copy of the x86-64 fixture
# sysroot (knobs and the knob lock live in the copy); the full-disk part
# mounts a small tmpfs (root only).
set -uo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
fixtures=${PTBENCH_FIXTURES:-${PTBENCH_SRCDIR:-.}/tests/fixtures}
tmp=$(mktemp -d)
chmod 755 "$tmp"
pid=
mnt=
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

root=$tmp/root
cp -r "$fixtures/sysroot-x86_64" "$root" || fail "cannot copy the fixture sysroot"
export PTBENCH_SYSROOT=$root
run=("$PTBENCH" run --workload tlb --case chase-4k-16K --warmup 0)

# Whole rows only, each repetition complete: as many rows as repetition 0.
check_rows() {
	local csv=$1
	[ -z "$(tail -c1 "$csv")" ] || fail "$csv ends in half a row"
	awk -F, 'NR == 1 { next } NF != 8 { print "bad row " NR ": " $0; bad = 1 }
		{ n[$4]++ } END {
			for (r in n) if (n[r] != n[0]) { print "rep " r ": " n[r] " rows, rep 0: " n[0]; bad = 1 }
			exit bad }' "$csv" || fail "$csv has partial repetitions"
}

meta_is() { # FILE PYTHON-EXPRESSION-ON-m
	python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

# 1. SIGKILL in the middle: the completed rounds stay.
out=$tmp/killed
"${run[@]}" --reps 1000000 --out "$out" >"$tmp/stdout" 2>"$tmp/stderr" &
pid=$!
deadline=$((SECONDS + 30))
while [ $SECONDS -lt $deadline ]; do
	[ "$(awk -F, 'NR > 1 && $4 >= 3' "$out/results.csv" 2>/dev/null | wc -l)" -gt 0 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=
[ -f "$out/results.csv" ] || { cat "$tmp/stderr" >&2; fail "SIGKILL: no results.csv"; }
check_rows "$out/results.csv"
reps=$(awk -F, 'NR > 1 { print $4 }' "$out/results.csv" | sort -un | wc -l)
[ "$reps" -ge 4 ] || fail "SIGKILL: only $reps repetitions kept, expected >= 4"
meta_is "$out/meta.json" 'm["complete"] is False and m["run"]["exit_status"] is None' ||
	fail "SIGKILL: meta.json does not say complete: false"
# meta.json is checkpointed after each round's rows are synced: a kill between
# the two leaves it one round behind results.csv, never ahead
meta_is "$out/meta.json" '[u["case"] for u in m["unfinished"]] == ["chase-4k-16K"] and '"$reps"' - 1 <= m["unfinished"][0]["reps_ok"] <= '"$reps" ||
	fail "SIGKILL: meta.json does not list chase-4k-16K as unfinished with $((reps - 1))-$reps repetitions: $(cat "$out/meta.json" | head -c 600)"
# (a meta.json.tmp.PID may be left when the kill lands while it is written;
# meta.json itself is always whole, and run --force removes the temporary)
echo "ok: SIGKILL kept $reps complete repetitions ($(($(wc -l <"$out/results.csv") - 1)) rows); meta.json complete: false"

# compare refuses an incomplete run unless asked.
"$PTBENCH" compare "$out" "$out" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "compare of an incomplete run exited $rc, not 2"
grep -q "complete: false" "$tmp/err" || fail "compare does not say why: $(cat "$tmp/err")"
"$PTBENCH" compare --allow-incomplete "$out" "$out" >/dev/null 2>"$tmp/err" ||
	fail "compare --allow-incomplete failed: $(cat "$tmp/err")"
echo "ok: compare refuses it (exit 2) unless --allow-incomplete"
# so does history add: a killed run in a baseline pool would pass for a whole one
rc=0
"$PTBENCH" history add "$out" --db "$tmp/h.sqlite" >/dev/null 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] || fail "history add of an incomplete run exited $rc, not 2"
grep -q "complete: false" "$tmp/err" || fail "history add does not say why: $(cat "$tmp/err")"
[ ! -e "$tmp/h.sqlite" ] || fail "the refused history add made a database"
echo "ok: history add refuses it (exit 2), no database made"

# 2. A non-empty --out is refused; --force clears the old run's files.
mkdir -p "$out/figures"
echo stale >"$out/REPORT.md"
echo stale >"$out/figures/old.png"
echo mine >"$out/notes.txt"
# --warm-guest 1M: a run that got as far as warming the guest would say "touching"
"${run[@]}" --reps 2 --warm-guest 1M --out "$out" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "run into a non-empty --out exited $rc, not 2"
grep -q "not empty" "$tmp/err" || fail "no 'not empty' message: $(cat "$tmp/err")"
! grep -q "touching" "$tmp/err" || fail "a refused --out was checked after warming the guest"
[ -f "$out/REPORT.md" ] || fail "a refused run removed files"
"${run[@]}" --reps 2 --out "$out" --force >/dev/null 2>"$tmp/err" ||
	fail "run --force failed: $(cat "$tmp/err")"
[ ! -e "$out/REPORT.md" ] && [ ! -e "$out/figures" ] || fail "--force left the old report"
[ -f "$out/notes.txt" ] || fail "--force removed a file that is not ptbench's"
[ -z "$(find "$out" -name '*.tmp.*')" ] || fail "--force left a temporary file"
[ "$(awk -F, 'NR > 1 { print $4 }' "$out/results.csv" | sort -un | wc -l)" = 2 ] ||
	fail "--force: results.csv is not the new run's"
meta_is "$out/meta.json" 'm["complete"] is True and m["unfinished"] == [] and m["run"]["exit_status"] == 0' ||
	fail "a finished run's meta.json does not say complete: true"
echo "ok: non-empty --out refused (exit 2) before the guest is warmed; --force cleared REPORT.md and figures/, kept notes.txt"

# 3. An output directory others can write to.
mkdir "$tmp/open"
chmod 777 "$tmp/open"
"${run[@]}" --reps 1 --out "$tmp/open" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "writable by others" "$tmp/err" ||
	fail "an o+w --out: exit $rc, $(cat "$tmp/err")"
echo "ok: an --out writable by others is refused (exit 2)"

# 4. A full disk: reported with errno and path; the rows before it stay.
if [ "$(id -u)" != 0 ] || [ -n "${PTBENCH_EMULATED:-}" ]; then
	echo "skip: the full-disk part needs root to mount a tmpfs"
	exit 0
fi
mkdir "$tmp/small"
if ! mount -t tmpfs -o size=96k,mode=755 ptbench-test "$tmp/small" 2>"$tmp/err"; then
	echo "skip: cannot mount a tmpfs: $(cat "$tmp/err")"
	exit 0
fi
mnt=$tmp/small
timeout 120 "${run[@]}" --reps 1000000 --out "$mnt/run" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "a full disk: exit $rc, not 1: $(tail -3 "$tmp/err")"
grep -q "No space left on device" "$tmp/err" || fail "ENOSPC not reported: $(tail -3 "$tmp/err")"
grep -Eq "writing $mnt/run/(results.csv|meta.json)" "$tmp/err" ||
	fail "the message does not name the file: $(tail -3 "$tmp/err")"
check_rows "$mnt/run/results.csv"
kept=$(($(wc -l <"$mnt/run/results.csv") - 1))
[ "$kept" -gt 0 ] || fail "a full disk: no rows kept"
meta_is "$mnt/run/meta.json" 'm["complete"] is False' || fail "a full disk: meta.json does not say complete: false"
echo "ok: a full disk: exit 1, '$(grep -m1 'No space' "$tmp/err" | sed 's/^ptbench run: //')'; $kept whole rows kept; complete: false"
