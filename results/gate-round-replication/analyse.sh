#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# history aa on the replication runs (tag s23), the variants of
# results/gate-run-effect, then the per-metric spread table.
set -u
cd /work/exp/gate3
PT=./ptbench; db=h.sqlite; o=aa; mkdir -p $o
run() { f=$1; shift; echo "$(date -u +%T) $f"; $PT history aa --db $db --tag s23 "$@" > $o/$f.txt 2>$o/$f.err || echo "$f failed rc=$?"; }
run history-aa-pool30-raw --pool 30 --run-effect off --round-effect off
run history-aa-pool30-round-off --pool 30 --round-effect off
run history-aa-pool30-round-on --pool 30
run history-aa-pool20-raw --pool 20 --run-effect off --round-effect off
run history-aa-pool20-round-off --pool 20 --round-effect off
run history-aa-pool20-round-on --pool 20
run history-aa-pool30-round-on-factors-2 --pool 30 --factors 2
run history-aa-pool30-round-on-factors-auto --pool 30 --factors auto
for p in 30 20; do
  awk -v P=$p 'FNR==1{fi++} /^\+10% injected into 3 NEW/{on=1;next} /^\+10% injected into 1 NEW/{on=0} on&&/ spread /{k=$1" "$2" "$3; sp[fi,k]=$5; de[fi,k]=$7; ca[fi,k]=$8; if(fi==1) keys[++n]=k}
    END{printf "# pool of %s runs (tag s23): between-run spread raw / run effect / round+run effects; detectable (3 NEW) and 10%% injection for the last two\n", P;
    printf "%-9s %-28s %-20s %7s %7s %7s %8s %8s %7s %7s\n","workload","case","metric","raw","run","round","det_run","det_rnd","run","round";
    for(i=1;i<=n;i++){k=keys[i]; split(k,a," "); printf "%-9s %-28s %-20s %7s %7s %7s %8s %8s %7s %7s\n",a[1],a[2],a[3],sp[1,k],sp[2,k],sp[3,k],de[2,k],de[3,k],ca[2,k],ca[3,k]}}' \
    $o/history-aa-pool$p-raw.txt $o/history-aa-pool$p-round-off.txt $o/history-aa-pool$p-round-on.txt > $o/spread-pool$p-rounds.txt
done
grep -H "fired on\|caught in" $o/*.txt
# the run effect of the runs that fired, against a pool of the first 30 alone
rm -f pool30.sqlite
$PT history add $(for i in $(seq -w 1 30); do echo runs/ci-$i; done) --db pool30.sqlite >/dev/null
for i in 39 41 43 46 55 56 57 58; do
	$PT compare --baseline-db pool30.sqlite --baseline-tag s23 runs/ci-$i >$o/cmp.out 2>/dev/null
	echo "run $i: exit $? $(grep '^run/effect' $o/cmp.out)"
done | tee $o/run-effects.txt
