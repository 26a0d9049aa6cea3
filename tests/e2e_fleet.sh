#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ptbench report --db: the fleet report of a run history. Runs of two hosts
# and two kernels with two tags (the fixture run-small re-issued by
# tests/derive_run.py under other host names, kernels and tags) kept in one
# history per host, merged into one; the report has a column for every
# host x kernel, keeps each host's CPU, marks the D128 predictions
# modelled, sees the slower kernel, draws the figure (when matplotlib is
# there; --no-plots otherwise); --tag selects; the output directory is new
# or --force; and each bad input exits 2 with a message.
set -uo pipefail

: "${PTBENCH:?PTBENCH must name the ptbench binary}"
src=${PTBENCH_SRCDIR:-$(dirname "$0")/..}
fixture=${PTBENCH_FIXTURES:-$src/tests/fixtures}/run-small
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
ok() { echo "ok: $*"; }

# expect STATUS DESCRIPTION COMMAND...: stdout and stderr in $tmp/out, $tmp/err
expect() {
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$what: exit $rc, expected $want: $(head -c 600 "$tmp/err")"
	elif [ "$want" -eq 2 ] && ! [ -s "$tmp/err" ]; then
		fail "$what: exit 2 without a message"
	else
		ok "$what (exit $rc)$([ "$want" -eq 2 ] && echo ": $(head -n 1 "$tmp/err" | cut -c 1-150)")"
	fi
}

derive() { # NAME HOST CPU KERNEL TAG SEED [options...]
	local name=$1 host=$2 cpu=$3 kernel=$4 tag=$5 seed=$6
	shift 6
	python3 "$src/tests/derive_run.py" "$fixture" "$tmp/$name" --id "run-$name" \
		--host "$host" --cpu "$cpu" --kernel "$kernel" --tag "$tag" --seed "$seed" \
		--primary --drift 0.02 "$@" || fail "derive_run.py $name"
}

py=${PTBENCH_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=python3
plots=(--no-plots)
if "$py" -c 'import matplotlib' 2>/dev/null; then
	plots=()
else
	echo "note: $py has no matplotlib: the reports are made with --no-plots"
fi

# Host alpha (Xeon): kernel 6.1 twice (tag base), 6.12 once (tag cand),
# where anon-write-4k faults are 30% slower. Host beta (Neoverse): 6.1
# (base, with a D128 prediction row) and 6.12 (cand).
row='fault,anon-write-4k,"backing=4k;size=67108864;tasks=1",0,d128_predicted_ns_per_fault,2500,ns,neither'
derive a1 alpha "Xeon Gold 6338" 6.1.0 base 1
derive a2 alpha "Xeon Gold 6338" 6.1.0 base 2
derive a3 alpha "Xeon Gold 6338" 6.12.0 cand 3 --scale fault/anon-write-4k/ns_per_fault=1.3
derive b1 beta "Neoverse-V2" 6.1.0 base 4 --add-row "$row"
derive b2 beta "Neoverse-V2" 6.12.0 cand 5

# One history per host, as each host's CI job keeps it; merged into one by
# adding host beta's runs, exported from its history, to host alpha's.
"$PTBENCH" history add "$tmp"/a{1,2,3} --db "$tmp/alpha.sqlite" >/dev/null 2>&1 || fail "add alpha"
"$PTBENCH" history add "$tmp"/b{1,2} --db "$tmp/beta.sqlite" >/dev/null 2>&1 || fail "add beta"
cp "$tmp/alpha.sqlite" "$tmp/fleet.sqlite"
for id in $("$PTBENCH" history list --db "$tmp/beta.sqlite" --format csv | tail -n +2 | cut -d, -f1); do
	"$PTBENCH" history export "$id" -o "$tmp/export-$id" --db "$tmp/beta.sqlite" >/dev/null ||
		fail "export $id"
	"$PTBENCH" history add "$tmp/export-$id" --db "$tmp/fleet.sqlite" >/dev/null 2>&1 ||
		fail "add $id"
done
expect 0 "history list of the merged history" "$PTBENCH" history list --db "$tmp/fleet.sqlite"
for h in alpha beta; do
	[ "$(grep -c " $h " "$tmp/out")" -ge 2 ] || fail "the merged history lacks host $h: $(cat "$tmp/out")"
done

# The report: every host x kernel a column, identity kept.
expect 0 "report --db" "$PTBENCH" report --db "$tmp/fleet.sqlite" --out "$tmp/r" "${plots[@]}"
[ "$(cat "$tmp/out")" = "$tmp/r/FLEET.md" ] || fail "stdout is not FLEET.md's path: $(cat "$tmp/out")"
md=$tmp/r/FLEET.md
for col in 'alpha<br>Xeon Gold 6338<br>6.1.0' 'alpha<br>Xeon Gold 6338<br>6.12.0' \
	'beta<br>Neoverse-V2<br>6.1.0' 'beta<br>Neoverse-V2<br>6.12.0'; do
	grep -q "^| series .*| $col |" "$md" || fail "FLEET.md has no column '$col'"
done
grep -q '5 of its 5 runs, in 4 columns' "$md" || fail "FLEET.md does not count 5 runs in 4 columns"
grep -q '^- alpha · Xeon Gold 6338 · 6.1.0: 2 runs, tags base$' "$md" ||
	fail "FLEET.md does not list alpha's 6.1.0 column"
grep -q '^| fault/anon-write-4k .*| d128\\_predicted\\_ns\\_per\\_fault | ns | neither | \*\*modelled\*\* | - | - | 2500 (1) | - |$' "$md" ||
	fail "the D128 prediction row is not marked modelled on beta 6.1.0 alone"
grep -q '^| fault/anon-write-4k .*| ns\\_per\\_fault | ns | lower | measured | [0-9.k]* ±[0-9.]*% (2) |' "$md" ||
	fail "no measured primary metric with its spread over 2 runs"
python3 - "$tmp/r/fleet.csv" "$tmp/r/fleet-groups.csv" <<'PY' || fail "fleet.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = {(r["host"], r["cpu_model"], r["kernel_release"]) for r in rows}
assert len(cols) == 4, cols
assert {r["kind"] for r in rows} == {"measured", "modelled"}
slow = [r for r in rows if r["case"] == "anon-write-4k" and r["metric"] == "ns_per_fault"]
cost = {(r["host"], r["kernel_release"]): float(r["relative_cost"]) for r in slow}
# the fleet median of the four is between the 6.1s and the slow 6.12: above 1.1
assert cost[("alpha", "6.12.0")] > 1.1 > max(cost[("alpha", "6.1.0")], cost[("beta", "6.1.0")]), cost
a61 = [r for r in slow if r["host"] == "alpha" and r["kernel_release"] == "6.1.0"][0]
assert a61["runs"] == "2" and a61["tags"] == "base" and float(a61["spread_pct"]) >= 0, a61
groups = list(csv.DictReader(open(sys.argv[2])))
assert len(groups) == 4 and all(int(g["measured_series"]) > 40 for g in groups), groups
PY
if [ ${#plots[@]} -eq 0 ]; then
	for f in fleet.png fleet.svg; do
		[ -s "$tmp/r/figures/$f" ] || fail "no figures/$f"
	done
	grep -q '(figures/fleet.png)' "$md" || fail "FLEET.md does not show the figure"
	[ "$(head -c 8 "$tmp/r/figures/fleet.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "figures/fleet.png is not a PNG"
	# the script alone, on the report's CSVs: it only draws
	"$py" "$(dirname "$PTBENCH")/share/ptbench/plot/fleet.py" "$tmp/r" >/dev/null ||
		fail "plot/fleet.py on its own"
fi

# No figure (the interpreter cannot run): FLEET.md is written and says so, exit 1.
expect 1 "report --db with a missing interpreter" "$PTBENCH" report --db "$tmp/fleet.sqlite" \
	--out "$tmp/nofig" --python "$tmp/no-such-python"
grep -q '^No figure: plot/fleet.py failed' "$tmp/nofig/FLEET.md" || fail "FLEET.md does not say the figure failed"

# Names from meta.json are text in FLEET.md: no HTML, no broken table, no mathtext in the figure.
derive evil $'ev|l<b>$x$\n' 'CPU `*x*`' '6.1.0-[x](y)' base 6
"$PTBENCH" history add "$tmp/evil" --db "$tmp/evil.sqlite" >/dev/null 2>&1 || fail "add evil"
expect 0 "report --db, hostile names" "$PTBENCH" report --db "$tmp/evil.sqlite" --out "$tmp/e" "${plots[@]}"
grep -qF '| ev\|l&lt;b&gt;$x$ <br>CPU \`\*x\*\`<br>6.1.0-\[x\](y) |' "$tmp/e/FLEET.md" ||
	fail "the hostile names are not escaped: $(grep '^| series' "$tmp/e/FLEET.md")"
grep -q '<b>' "$tmp/e/FLEET.md" && fail "an HTML tag from a host name reached FLEET.md"

# --tag: only those runs; several tags add up.
expect 0 "report --db --tag base" "$PTBENCH" report --db "$tmp/fleet.sqlite" --tag base \
	--out "$tmp/base" --no-plots
grep -q '3 of its 5 runs (tags base), in 2 columns' "$tmp/base/FLEET.md" ||
	fail "--tag base: $(sed -n 3p "$tmp/base/FLEET.md")"
grep -q 'No figure: --no-plots was given' "$tmp/base/FLEET.md" || fail "--no-plots is not said"
expect 0 "report --db --tag base --tag cand" "$PTBENCH" report --db "$tmp/fleet.sqlite" \
	--tag base --tag cand --out "$tmp/both" --no-plots
grep -q '5 of its 5 runs (tags base, cand), in 4 columns' "$tmp/both/FLEET.md" ||
	fail "--tag base --tag cand: $(sed -n 3p "$tmp/both/FLEET.md")"

# The output directory: never overwritten without --force; a new one by default.
expect 2 "an --out that is not empty" "$PTBENCH" report --db "$tmp/fleet.sqlite" --out "$tmp/base" \
	--no-plots
expect 0 "--force" "$PTBENCH" report --db "$tmp/fleet.sqlite" --out "$tmp/base" --force --no-plots
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$PTBENCH" report --db "$tmp/fleet.sqlite" --no-plots >"$tmp/out" 2>"$tmp/err") ||
	fail "report --db without --out: $(cat "$tmp/err")"
case $(cat "$tmp/out") in
results/fleet-*T*Z/FLEET.md) [ -f "$tmp/cwd/$(cat "$tmp/out")" ] || fail "no $(cat "$tmp/out")" ;;
*) fail "the default output is not results/fleet-<UTC time>: $(cat "$tmp/out")" ;;
esac

# Bad input: exit 2, with a message.
db=$tmp/fleet.sqlite
echo "not a database" >"$tmp/text.sqlite"
head -c 100000 /dev/urandom >"$tmp/noise.sqlite"
python3 - "$db" "$tmp" <<'PY' || fail "making the bad databases"
import shutil, sqlite3, sys
db, tmp = sys.argv[1], sys.argv[2]
c = sqlite3.connect(tmp + "/foreign.sqlite")
c.execute("CREATE TABLE notes (x TEXT)")
c.commit()
c.close()
# a ptbench history that held runs, all removed: an empty history
shutil.copy(db, tmp + "/empty.sqlite")
c = sqlite3.connect(tmp + "/empty.sqlite")
c.execute("PRAGMA journal_mode = DELETE")
c.execute("DELETE FROM rows")
c.execute("DELETE FROM runs")
c.commit()
c.close()
# a history whose pages are damaged past its header and schema
c = sqlite3.connect(db)
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
c.close()
data = bytearray(open(db, "rb").read())
page = int.from_bytes(data[16:18], "big")
for i in range(3 * page, len(data)):
    data[i] = 0x5a
open(tmp + "/corrupt.sqlite", "wb").write(data)
PY
mkdir "$tmp/norows"
head -1 "$tmp/a1/results.csv" >"$tmp/norows/results.csv"
sed 's/"run-a1"/"run-norows"/; s/"tag": "base"/"tag": "norows"/' "$tmp/a1/meta.json" >"$tmp/norows/meta.json"
cp "$db" "$tmp/withempty.sqlite"
"$PTBENCH" history add "$tmp/norows" --db "$tmp/withempty.sqlite" >/dev/null 2>&1 ||
	fail "history add of a run without rows"

expect 2 "a missing database" "$PTBENCH" report --db "$tmp/none.sqlite" --no-plots --out "$tmp/x1"
expect 2 "a text file as the database" "$PTBENCH" report --db "$tmp/text.sqlite" --no-plots --out "$tmp/x2"
expect 2 "random bytes as the database" "$PTBENCH" report --db "$tmp/noise.sqlite" --no-plots --out "$tmp/x3"
expect 2 "another application's database" "$PTBENCH" report --db "$tmp/foreign.sqlite" --no-plots --out "$tmp/x4"
grep -q 'not a ptbench history' "$tmp/err" || fail "the foreign database is not named as such"
expect 2 "a damaged history" "$PTBENCH" report --db "$tmp/corrupt.sqlite" --no-plots --out "$tmp/x5"
expect 2 "an empty history" "$PTBENCH" report --db "$tmp/empty.sqlite" --no-plots --out "$tmp/x6"
grep -q 'holds no runs' "$tmp/err" || fail "the empty history is not said"
expect 2 "an unknown tag" "$PTBENCH" report --db "$db" --tag nosuch --no-plots --out "$tmp/x7"
grep -q "no run has tag 'nosuch' (the tags there: 'base', 'cand')" "$tmp/err" ||
	fail "the unknown tag message: $(cat "$tmp/err")"
expect 2 "a tag whose runs have no rows" "$PTBENCH" report --db "$tmp/withempty.sqlite" \
	--tag norows --no-plots --out "$tmp/x8"
grep -q 'hold no rows' "$tmp/err" || fail "the empty selection is not said"
expect 2 "--db without a value" "$PTBENCH" report --db
expect 2 "--db with a run directory" "$PTBENCH" report --db "$db" "$tmp/a1"
for x in x1 x2 x3 x4 x5 x6 x7 x8; do
	[ -e "$tmp/$x" ] && fail "bad input left an output directory $x"
done
expect 0 "report --db --help" "$PTBENCH" report --db "$db" --help
grep -q 'usage: ptbench report --db FILE' "$tmp/out" || fail "report --db --help"
# 'report DIR' is unchanged
expect 2 "report without arguments" "$PTBENCH" report

[ "$fails" -eq 0 ] || exit 1
echo "ok: fleet report over 5 runs, 2 tags, 2 hosts x 2 kernels; bad inputs exit 2"
