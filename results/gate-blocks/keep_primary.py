#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""What the gate reads of ptbench runs, kept small enough to commit.

  keep_primary.py --tar OUT.tar.xz --top NAME RUNDIR...
      each RUNDIR's meta.json and the rows of its cases' primary metrics
      (results.csv), as NAME/<basename of RUNDIR>/ in an xz tarball that
      `ptbench history add` reads back (results/gate-pvm-2026-12-07 and
      -07b/runs-primary.tar.xz were made so)
  keep_primary.py --csv OUT.csv RUNDIR...
      the same rows in one CSV with the run's directory name and its
      warm-up rounds (meta.json run.warmup) in front
      (results/warmup-ab-2026-12-07/primaries.csv)
"""
import argparse, csv, io, json, os, sys, tarfile


def primary_rows(rundir):
    meta = json.load(open(os.path.join(rundir, 'meta.json')))
    prim = {(c['workload'], c['case']): c['primary_metric'] for c in meta['cases']}
    with open(os.path.join(rundir, 'results.csv'), newline='') as f:
        rows = csv.reader(f)
        header = next(rows)
        return meta, header, [r for r in rows if prim.get((r[0], r[1])) == r[4]]


def add_bytes(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    out = ap.add_mutually_exclusive_group(required=True)
    out.add_argument('--tar')
    out.add_argument('--csv')
    ap.add_argument('--top', default='runs')
    ap.add_argument('rundirs', nargs='+')
    a = ap.parse_args()
    for d in a.rundirs:
        if not (os.path.isfile(os.path.join(d, 'meta.json')) and
                os.path.isfile(os.path.join(d, 'results.csv'))):
            print('keep_primary.py: %s: not a run directory (no meta.json or results.csv)' % d,
                  file=sys.stderr)
            sys.exit(2)
    target = a.tar or a.csv
    tmp = target + '.tmp'
    if a.tar:
        with tarfile.open(tmp, 'w:xz') as tar:
            for d in a.rundirs:
                meta, header, rows = primary_rows(d)
                base = '%s/%s/' % (a.top, os.path.basename(os.path.normpath(d)))
                buf = io.StringIO()
                w = csv.writer(buf, lineterminator='\n')
                w.writerow(header)
                w.writerows(rows)
                add_bytes(tar, base + 'results.csv', buf.getvalue().encode())
                add_bytes(tar, base + 'meta.json', json.dumps(meta, separators=(',', ':')).encode())
    else:
        with open(tmp, 'w', newline='') as f:
            w = csv.writer(f, lineterminator='\n')
            w.writerow(['run', 'warmup', 'workload', 'case', 'rep', 'metric', 'value', 'unit'])
            for d in a.rundirs:
                meta, header, rows = primary_rows(d)
                name = os.path.basename(os.path.normpath(d))
                for r in rows:
                    w.writerow([name, meta['run']['warmup'], r[0], r[1], r[3], r[4], r[5], r[6]])
    os.replace(tmp, target)


if __name__ == '__main__':
    main()
