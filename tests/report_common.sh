# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by tests/e2e_report*.sh (sourced, not a test itself): the fixture,
# the interpreter, a scratch directory and the checks.
: "${PTBENCH:?PTBENCH must name the ptbench binary}"
: "${PTBENCH_SRCDIR:?PTBENCH_SRCDIR must name the source directory}"
fixture=${PTBENCH_FIXTURES:-$PTBENCH_SRCDIR/tests/fixtures}/run-small
# The scripts as the build copied them beside the binary, where ptbench
# report runs them from; they find the binary's statistics through $PTBENCH.
plot=$(dirname "$PTBENCH")/share/ptbench/plot
[ -f "$plot/report.py" ] || { echo "FAIL: no $plot/report.py (the build copies plot/ there)"; exit 1; }
if [ -n "${PTBENCH_PYTHON:-}" ]; then
	py=$PTBENCH_PYTHON
elif [ -x /usr/bin/python3 ]; then
	py=/usr/bin/python3
else
	py=python3
fi
export PTBENCH_PYTHON=$py PYTHONDONTWRITEBYTECODE=1

if ! "$py" -c 'import matplotlib, numpy' 2>/dev/null; then
	echo "SKIP: $py cannot import matplotlib and numpy (python3-matplotlib)"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# expect STATUS DESCRIPTION COMMAND...: stdout/stderr in $tmp/out, $tmp/err
expect() {
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$what (exit $rc)"; else
		fail "$what: exit $rc, expected $want"; cat "$tmp/err"; fi
}

new_run() { # copy the fixture to $tmp/$1
	rm -rf "${tmp:?}/$1" && cp -r "$fixture" "$tmp/$1" && rm -f "$tmp/$1/make_fixture.py"
}

# valid_figure FILE: a PNG by its signature, an SVG by its root element.
valid_figure() {
	case $1 in
	*.png) [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ;;
	*.svg) grep -q '<svg' "$1" && grep -q '</svg>' "$1" ;;
	*) return 1 ;;
	esac
}

# check_figures DIR: every figure REPORT.md links exists and is valid;
# prints the number of PNG figures shown.
check_figures() {
	local dir=$1 n=0 f
	while read -r f; do
		case $f in *.png) n=$((n + 1)) ;; esac
		if [ -f "$dir/$f" ] && valid_figure "$dir/$f"; then :; else
			fail "$dir/REPORT.md references $f: missing or not a valid image"; fi
	done < <(grep -o '](figures/[^)]*)' "$dir/REPORT.md" | sed 's/^](//; s/)$//')
	echo "$n"
}

has() { # has FILE PATTERN DESCRIPTION
	if grep -Eq -- "$2" "$1"; then ok "$3"; else fail "$3: /$2/ not in $1"; fi
}

