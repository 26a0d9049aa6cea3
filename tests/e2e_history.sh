#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ptbench history: add is idempotent, refuses a killed run unless told,
# export gives back a run with the same series and statistics, filters select, two adds at once both land, and a
# file that is not a ptbench history (text, another application's SQLite
# database, a newer schema, a FIFO) is refused with exit 2 and left as it
# was.
set -uo pipefail

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
fixtures=${PTBENCH_FIXTURES:-${PTBENCH_SRCDIR:-.}/tests/fixtures}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/h.sqlite
run=$fixtures/run-small

expect_rc() { # want, command...
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want: $(cat "$tmp/err")"
}

expect_rc 0 "$PTBENCH" history add "$run" --db "$db"
grep -q '^added ' "$tmp/out" || fail "first add did not add: $(cat "$tmp/out")"
id=$(awk '{print $2}' "$tmp/out")
expect_rc 0 "$PTBENCH" history add "$run" --db "$db"
grep -q "^already there: $id" "$tmp/out" || fail "second add was not idempotent: $(cat "$tmp/out")"
expect_rc 0 "$PTBENCH" history list --db "$db" --format csv
[ "$(tail -n +2 "$tmp/out" | wc -l)" -eq 1 ] || fail "list shows $(tail -n +2 "$tmp/out" | wc -l) runs, expected 1"

# Export: the same series with the same statistics as the original.
expect_rc 0 "$PTBENCH" history export "$id" -o "$tmp/exported" --db "$db"
"$PTBENCH" summary "$run" >"$tmp/a.json" || fail "summary of the fixture failed"
"$PTBENCH" summary "$tmp/exported" >"$tmp/b.json" || fail "summary of the export failed"
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' || fail "the export's statistics differ from the original's"
import json, sys
def key(s):
    return (s["workload"], s["case"], s["params"], s["metric"])
a, b = ({key(s): s for s in json.load(open(p))["series"]} for p in sys.argv[1:3])
assert a.keys() == b.keys(), (len(a), len(b))
for k in a:
    for f in ("n", "median", "ci_lo", "ci_hi", "min", "max", "unit", "better"):
        assert a[k][f] == b[k][f], (k, f, a[k][f], b[k][f])
PY
cmp -s "$run/meta.json" "$tmp/exported/meta.json" || fail "meta.json did not come back as it was added"
expect_rc 2 "$PTBENCH" history export "$id" -o "$tmp/exported" --db "$db" # not empty now
expect_rc 2 "$PTBENCH" history show no-such-id --db "$db"
expect_rc 2 "$PTBENCH" history list --db "$tmp/missing.sqlite"
expect_rc 2 "$PTBENCH" history add "$tmp/no-such-dir" --db "$db"
expect_rc 2 "$PTBENCH" history frobnicate

# A killed run (meta.json complete: false) is refused, the history unchanged,
# unless --allow-incomplete: it would pass for a baseline in a pool.
mkdir "$tmp/killed"
cp "$run/results.csv" "$tmp/killed/"
python3 - "$run/meta.json" "$tmp/killed/meta.json" <<'PY' || fail "cannot make the killed run"
import json, sys
m = json.load(open(sys.argv[1]))
m["complete"], m["unfinished"] = False, ["tlb/chase-4k-16K"]
m["run"]["id"] = "killed-run"
json.dump(m, open(sys.argv[2], "w"))
PY
kdb=$tmp/killed.sqlite
cp "$db" "$kdb"
before=$(sha256sum "$kdb")
expect_rc 2 "$PTBENCH" history add "$tmp/killed" --db "$kdb"
grep -q "killed: meta.json says complete: false.*--allow-incomplete adds it" "$tmp/err" ||
	fail "the refused incomplete run is not explained: $(cat "$tmp/err")"
[ "$before" = "$(sha256sum "$kdb")" ] || fail "a refused incomplete run changed the history"
expect_rc 2 "$PTBENCH" history list --db "$kdb" --allow-incomplete
# every run is checked before the history is opened: a good run beside a
# refused one is not added either, and a history that did not exist is not made
expect_rc 2 "$PTBENCH" history add "$run" "$tmp/killed" --db "$tmp/fresh.sqlite"
[ ! -e "$tmp/fresh.sqlite" ] || fail "a refused add left a new history behind"
expect_rc 2 "$PTBENCH" history add "$tmp/no-such-dir" --db "$tmp/fresh.sqlite"
[ ! -e "$tmp/fresh.sqlite" ] || fail "an add of a missing directory left a new history behind"
expect_rc 0 "$PTBENCH" history add "$tmp/killed" --db "$kdb" --allow-incomplete
grep -q '^added killed-run ' "$tmp/out" || fail "--allow-incomplete did not add: $(cat "$tmp/out")"
expect_rc 0 "$PTBENCH" history list --db "$kdb" --format csv
[ "$(tail -n +2 "$tmp/out" | wc -l)" -eq 2 ] || fail "list after the killed run: $(cat "$tmp/out")"
expect_rc 2 "$PTBENCH" history list --db "$db" --format yaml

# Filters: a second run with another tag and host, added at the same time as a third.
for n in 2 3; do
	mkdir "$tmp/run$n"
	cp "$run/results.csv" "$tmp/run$n/"
	python3 - "$run/meta.json" "$tmp/run$n/meta.json" "$n" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["run"]["id"] = "test-run-" + sys.argv[3]
m["run"]["tag"] = "tag" + sys.argv[3]
m.setdefault("env", {})["hostname"] = "host" + sys.argv[3]
json.dump(m, open(sys.argv[2], "w"))
PY
done
"$PTBENCH" history add "$tmp/run2" --db "$db" >/dev/null 2>"$tmp/err2" &
p2=$!
"$PTBENCH" history add "$tmp/run3" --db "$db" >/dev/null 2>"$tmp/err3" &
p3=$!
wait $p2 || fail "a concurrent add failed: $(cat "$tmp/err2")"
wait $p3 || fail "a concurrent add failed: $(cat "$tmp/err3")"
expect_rc 0 "$PTBENCH" history list --db "$db" --format csv
[ "$(tail -n +2 "$tmp/out" | wc -l)" -eq 3 ] || fail "after two concurrent adds: $(cat "$tmp/out")"
expect_rc 0 "$PTBENCH" history list --db "$db" --format csv --tag tag3
[ "$(tail -n +2 "$tmp/out" | cut -d, -f1)" = test-run-3 ] || fail "--tag tag3 gave: $(cat "$tmp/out")"
expect_rc 0 "$PTBENCH" history list --db "$db" --format csv --host host2
[ "$(tail -n +2 "$tmp/out" | cut -d, -f1)" = test-run-2 ] || fail "--host host2 gave: $(cat "$tmp/out")"
# options before the action, as for other tools with subcommands
cp "$tmp/out" "$tmp/after-action"
expect_rc 0 "$PTBENCH" history --db "$db" --format csv --host host2 list
cmp -s "$tmp/out" "$tmp/after-action" || fail "'history --db F ... list' differs from 'history list --db F ...'"
expect_rc 2 "$PTBENCH" history --db "$db"
grep -q 'no action given' "$tmp/err" || fail "options without an action: $(cat "$tmp/err")"
expect_rc 2 "$PTBENCH" history --db "$db" lsit
grep -q "unknown action 'lsit'" "$tmp/err" || fail "an unknown action after options: $(cat "$tmp/err")"

# Not ours: refused, exit 2, the file unchanged.
refused_unchanged() { # file
	local before after
	before=$(sha256sum "$1")
	expect_rc 2 "$PTBENCH" history add "$run" --db "$1"
	after=$(sha256sum "$1")
	[ "$before" = "$after" ] || fail "$1 was modified by a refused add"
	expect_rc 2 "$PTBENCH" history list --db "$1"
}
printf 'not a database\n%.0s' {1..100} >"$tmp/text.sqlite"
refused_unchanged "$tmp/text.sqlite"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()" "$tmp/other.sqlite"
refused_unchanged "$tmp/other.sqlite"
grep -q 'another application' "$tmp/err" || fail "no 'another application' message: $(cat "$tmp/err")"
cp "$db" "$tmp/newer.sqlite"
rm -f "$db-wal" "$db-shm"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('pragma user_version=99'); c.commit()" "$tmp/newer.sqlite"
refused_unchanged "$tmp/newer.sqlite"
grep -q 'newer than this ptbench' "$tmp/err" || fail "no 'newer schema' message: $(cat "$tmp/err")"
mkfifo "$tmp/fifo"
rc=0
timeout 20 "$PTBENCH" history list --db "$tmp/fifo" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || fail "a FIFO as the database: exit $rc, expected 2"
echo "ok: history add/list/show/export, idempotent, concurrent adds, foreign files refused"
