#!/usr/bin/python3
import csv, glob, math, statistics as st, collections
def runs(arm):
    out = collections.defaultdict(list)  # case -> list of rep lists
    for d in sorted(glob.glob(f"{arm}-[0-9][0-9]")):
        reps = collections.defaultdict(list)
        for r in csv.DictReader(open(d + "/results.csv")):
            if r["workload"] == "ptops" and r["metric"] in ("ns_per_entry", "ns_per_table") and int(r["rep"]) > 0:
                reps[r["case"]].append(float(r["value"]))
        for c, v in reps.items():
            out[c].append(v)
    return out
A, B = runs("4k"), runs("thp")
print(f"{'case':18} {'n':>3} {'4k med':>8} {'thp med':>8} {'shift':>7} {'4k within':>9} {'thp within':>10} {'4k between':>10} {'thp between':>11}")
lower = 0; ba = []; bb = []
for c in sorted(A):
    def stats(R):
        meds = [st.median(v) for v in R]
        within = st.median([1.4826 * st.median([abs(x - st.median(v)) for x in v]) / st.median(v) for v in R])
        between = st.stdev([math.log(m) for m in meds])
        return st.median(meds), within, between, len(R)
    ma, wa, sa, na = stats(A[c]); mb, wb, sb, nb = stats(B[c])
    lower += sb < sa; ba.append(sa); bb.append(sb)
    print(f"{c:18} {na:3} {ma:8.3f} {mb:8.3f} {100*(mb/ma-1):+6.1f}% {100*wa:8.1f}% {100*wb:9.1f}% {100*sa:9.1f}% {100*sb:10.1f}%")
print(f"between-run spread lower with THP for {lower} of {len(A)}; median {100*st.median(ba):.1f}% (4k) vs {100*st.median(bb):.1f}% (thp)")
