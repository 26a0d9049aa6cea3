# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Shared by the e2e tests that stop at their first failure (sourced, not a
# test itself; tests/e2e_export.sh, e2e_junit.sh, e2e_opcost.sh,
# e2e_pool_rounds.sh, e2e_two_run_rounds.sh, e2e_two_run_yuen.sh): the binary's check, the source and fixture
# directories, a scratch directory $tmp removed on exit, fail, expect_rc
# and expect_err.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ -x "${PTBENCH:-}" ] || fail "PTBENCH is not set to the ptbench binary"
src=${PTBENCH_SRCDIR:-$(dirname "${BASH_SOURCE[0]}")/..}
# shellcheck disable=SC2034 # used by the scripts that source this
fixtures=${PTBENCH_FIXTURES:-$src/tests/fixtures}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_rc WANT COMMAND...: exits WANT; stdout in $tmp/out, stderr in $tmp/err
expect_rc() {
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want: $(cat "$tmp/err")"
}

# expect_err WANT PATTERN COMMAND...: expect_rc, and stderr matches PATTERN
expect_err() {
	local want=$1 pat=$2
	shift 2
	expect_rc "$want" "$@"
	grep -q -- "$pat" "$tmp/err" || fail "'$*': stderr lacks '$pat': $(cat "$tmp/err")"
}
