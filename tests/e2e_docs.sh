#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The documentation cannot drift: docs/workloads.md is exactly what
# 'ptbench list --format markdown' prints, every relative link in README.md,
# docs/, SCHEMA.md and the reference run's NOTES.md points to a file (and
# heading) that exists, every source file they name exists, and
# README.md stays the short front door it is meant to be.
set -u

: "${PTBENCH:?PTBENCH must point at the ptbench binary}"
: "${PTBENCH_SRCDIR:?PTBENCH_SRCDIR must point at the source tree}"
src=$PTBENCH_SRCDIR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# 1. The workload manual is generated.
if ! "$PTBENCH" list --format markdown >"$tmp/workloads.md"; then
	fail "ptbench list --format markdown failed"
elif ! diff -u "$src/docs/workloads.md" "$tmp/workloads.md" >"$tmp/diff"; then
	cat "$tmp/diff" >&2
	fail "docs/workloads.md is stale (the diff above: - the file, + ptbench's help);" \
		"regenerate it with: build/ptbench list --format markdown > docs/workloads.md"
fi

# 2. README.md at most 15 KB, read as 15,000 bytes (the stricter of KB and
#    KiB): the manuals live in docs/.
size=$(wc -c <"$src/README.md")
[ "$size" -le 15000 ] ||
	fail "README.md is $size bytes, more than 15,000: move the detail to docs/"

# 2b. The layout README states: a file under cli/ parses options, calls a
#     library and prints, so none grows past 400 lines (the work a test
#     would call belongs to the layers below).
for f in "$src"/cli/*.c "$src"/cli/*.h; do
	n=$(wc -l <"$f")
	[ "$n" -lt 400 ] || fail "${f#"$src"/} has $n lines, 400 or more: move the work to its library"
done

# 3. Relative links resolve, to a file and, with #anchor, to a heading
# (GitHub's anchor rule: lower case, punctuation dropped, blanks to '-').
links_ok=1
command -v python3 >/dev/null || links_ok=0
if [ "$links_ok" = 1 ]; then
	python3 - "$src" >"$tmp/links" 2>&1 <<'PY' || { cat "$tmp/links" >&2; fail "broken links or source paths (above)"; }
import os, re, sys

src = sys.argv[1]
# The hand-written docs; run directories under results/ are not checked.
files = [os.path.join(src, f) for f in
         ("README.md", "results/SCHEMA.md", "results/reference/NOTES.md")]
docs = os.path.join(src, "docs")
files += [os.path.join(docs, n) for n in sorted(os.listdir(docs)) if n.endswith(".md")]

def anchors(path):
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"#{1,6} (.*)", line)
        if m:
            a = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            out.add(a)
    return out

# Source files named in prose must exist: files move between layers, and
# a manual that names the old place sends the reader nowhere. The README's
# worked example names a file it asks the reader to create.
src_path = re.compile(r"(?<![\w/.-])((?:util|model|harness|workloads|analysis|cli|plot|tests)"
                      r"/[\w./-]*\w\.(?:c|h|py|sh|gp))\b")
examples = {"workloads/mremap.c"}

bad = 0
for f in files:
    text, fence = [], False
    rel = os.path.relpath(f, src)
    for line in open(f, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            text.append(re.sub(r"`[^`]*`", "", line))
            for p in src_path.findall(line):
                if p not in examples and not os.path.exists(os.path.join(src, p)):
                    print(f"{rel}: names {p}, which does not exist")
                    bad += 1
    for target in re.findall(r"\]\(([^)\s]+)\)", "".join(text)):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(dest):
            print(f"{rel}: link to {target}: no such file")
            bad += 1
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            print(f"{rel}: link to {target}: no such heading")
            bad += 1
sys.exit(1 if bad else 0)
PY
fi

[ "$fails" -eq 0 ] || exit 1
echo "docs: workloads.md current, README $size bytes, cli/ files under 400 lines, links and source paths resolve"
