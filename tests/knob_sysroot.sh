# SPDX-License-Identifier: GPL-2.0-only
# Sourced by e2e_sigint.sh and e2e_sigkill.sh: a copy of the x86-64 fixture
# sysroot with mTHP knobs, free page reporting and a buddyinfo, so a run
# changes knobs there without root; $root, $thp, $reporting, choice().
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
fixtures=${PTBENCH_FIXTURES:-${PTBENCH_SRCDIR:-.}/tests/fixtures}
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

root=$tmp/root
cp -r "$fixtures/sysroot-x86_64" "$root" || fail "cannot copy the fixture sysroot"
thp=$root/sys/kernel/mm/transparent_hugepage
original="always inherit madvise [never]"
for kb in 16 64; do
	mkdir -p "$thp/hugepages-${kb}kB"
	printf '%s\n' "$original" >"$thp/hugepages-${kb}kB/enabled"
done
# free page reporting, which a run pauses (a plain file takes the first order tried)
reporting=$root/sys/module/page_reporting/parameters/page_reporting_order
mkdir -p "$(dirname "$reporting")"
echo 9 >"$reporting"
mkdir -p "$root/proc"
echo 'Node 0, zone   Normal   1 2 3 4 5 6 7 8 9 10 11' >"$root/proc/buddyinfo" # orders 0-10

# The selected value of a knob: the bracketed word, or the whole content.
choice() {
	local v
	read -r v <"$1" || true
	if [[ $v =~ \[([a-z]+)\] ]]; then
		echo "${BASH_REMATCH[1]}"
	else
		echo "$v"
	fi
}

