#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ./run.sh          set up what is missing, build, run the default suite,
#                   model, plot and report; prints where REPORT.md is.
# ./run.sh test     set up, build (native, sanitizer, arm64 cross) and run
#                   every test, one case in an arm64 VM and the LAVA job.
# ./run.sh setup    only install what is missing and build libperf.
# ./run.sh build    set up and build build/ptbench.
# ./run.sh reference  the main job into results/reference/, and REPORT.md.
# ./run.sh arm64-vm   cross-build, boot an arm64 kernel in qemu-system-aarch64,
#                   run ptbench there and check it (docs/arm64-vm.md).
# ./run.sh lava     run ci/lava/ptbench.yaml in a local LAVA QEMU job with
#                   lava-run and check its log (docs/lava.md).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$top"

LINUX_SRC_PKG=linux-source-6.1
LINUX_SRC_TAR=/usr/src/linux-source-6.1.tar.xz
DEPS=$top/.deps
JOBS=$(nproc 2>/dev/null || echo 2)

BASE_PKGS=(build-essential cmake pkg-config libpfm4-dev libhwloc-dev
	libcmocka-dev zlib1g-dev libsqlite3-dev "$LINUX_SRC_PKG" xz-utils python3
	python3-matplotlib python3-numpy gnuplot-nox valgrind libxml2-utils)
CROSS_PKGS=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
	libhwloc-dev:arm64 libpfm4-dev:arm64 libcmocka-dev:arm64
	zlib1g-dev:arm64 libsqlite3-dev:arm64)

say() { printf 'run.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

usage() {
	cat <<USAGE
usage: ./run.sh [command] [ptbench run options]

commands:
  (none)   set up, build, run the quick suite, model, plot, report
  test     set up, build native + sanitizer + arm64 cross, run every test,
           one case in an arm64 qemu-system-aarch64 VM and the LAVA job
  setup    install missing Debian packages, build libperf (cached)
  build    set up and build build/ptbench
  reference  run as the main job into results/reference/ and write the
           top-level REPORT.md from it (the committed reference run)
  arm64-vm [--kernel FILE] [-- run options]
           cross-build and run ptbench in an arm64 qemu-system-aarch64
           VM, then check the results (tools/arm64-vm.sh --help)
  lava [options] [-- run options]
           run the LAVA test definition ci/lava/ptbench.yaml in a local
           LAVA QEMU job (lava-run, arm64 guest) and check its log for
           every test case and measurement (tools/lava-run.sh --help)
  --help   this text

Options after the command (or alone) are passed to 'ptbench run', e.g.
  ./run.sh --suite full --max-mem 8G
--out DIR is where the run, the model and the report go (default
results/<UTC time>-<host>; not with 'reference').
USAGE
}

pkg_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing_pkgs() {
	local p
	for p in "$@"; do
		pkg_installed "$p" || printf '%s\n' "$p"
	done
}

install_pkgs() {
	local need cross=$1; shift
	mapfile -t need < <(missing_pkgs "$@")
	[ ${#need[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		say "missing Debian packages: ${need[*]}"
		say "install them as root with:"
		[ "$cross" = yes ] && echo "  dpkg --add-architecture arm64 && apt-get update" >&2
		echo "  apt-get install -y ${need[*]}" >&2
		exit 2
	fi
	if [ "$cross" = yes ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
	fi
	say "installing: ${need[*]}"
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >&2
}

# libperf from the kernel's tools/lib/perf, built into .deps/ once per arch.
build_libperf() {
	local arch=$1 cross=$2
	local prefix=$DEPS/libperf-$arch src=$DEPS/linux-tools
	[ -f "$prefix/.done" ] && { echo "$prefix"; return 0; }
	if [ ! -f "$src/.done" ]; then
		[ -f "$LINUX_SRC_TAR" ] || die "$LINUX_SRC_TAR not found ($LINUX_SRC_PKG)"
		say "extracting tools/lib/perf from $LINUX_SRC_TAR"
		rm -rf "$src" && mkdir -p "$src"
		tar -xJf "$LINUX_SRC_TAR" -C "$src" --strip-components=1 \
			linux-source-6.1/tools/lib/perf linux-source-6.1/tools/lib/api \
			linux-source-6.1/tools/lib/zalloc.c \
			linux-source-6.1/tools/lib/str_error_r.c \
			linux-source-6.1/tools/build linux-source-6.1/tools/scripts \
			linux-source-6.1/tools/include \
			linux-source-6.1/tools/arch/x86/include \
			linux-source-6.1/tools/arch/arm64/include
		touch "$src/.done"
	fi
	say "building libperf for $arch"
	local out=$DEPS/libperf-build-$arch
	local -a kargs=()
	[ "$cross" = yes ] && kargs=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	rm -rf "$out" "$prefix" && mkdir -p "$out"
	make -s -C "$src/tools/lib/perf" O="$out" prefix="$prefix" "${kargs[@]}" \
		all install_lib install_headers >&2
	# libperf.a does not contain libapi; keep it beside libperf.
	local libdir
	libdir=$(dirname "$(find "$prefix" -name libperf.a | head -n 1)")
	cp "$out/libapi.a" "$libdir/"
	touch "$prefix/.done"
	echo "$prefix"
}

libperf_prefix() {
	if [ "$1" = native ] && pkg-config --exists libperf 2>/dev/null; then
		echo ""
	elif [ "$1" = native ]; then
		build_libperf "$(uname -m)" no
	else
		build_libperf aarch64 yes
	fi
}

setup() {
	install_pkgs no "${BASE_PKGS[@]}"
	[ "${1:-}" = cross ] && install_pkgs yes "${CROSS_PKGS[@]}"
	return 0
}

configure_build() {
	local dir=$1; shift
	if [ ! -f "$dir/CMakeCache.txt" ]; then
		cmake -S "$top" -B "$dir" "$@" >&2
	fi
	cmake --build "$dir" -j "$JOBS" >&2
}

build_native() {
	local lp
	lp=$(libperf_prefix native)
	configure_build build -DLIBPERF_PREFIX="$lp" -DPTBENCH_WERROR=ON
}

build_all() {
	local lp lpa
	lp=$(libperf_prefix native)
	lpa=$(libperf_prefix cross)
	configure_build build -DLIBPERF_PREFIX="$lp" -DPTBENCH_WERROR=ON
	configure_build build-asan -DLIBPERF_PREFIX="$lp" -DPTBENCH_SANITIZE=ON \
		-DCMAKE_BUILD_TYPE=Debug
	configure_build build-arm64 -DLIBPERF_PREFIX="$lpa" \
		-DCMAKE_TOOLCHAIN_FILE="$top/cmake/aarch64-linux-gnu.cmake" \
		-DPTBENCH_TEST_EMULATOR="qemu-aarch64-static -L /usr/aarch64-linux-gnu"
}

# Run ctest in one build directory; adds to the totals.
passed=0
failed=0
run_ctest() {
	local dir=$1 log
	log=$(mktemp)
	say "ctest in $dir"
	local rc=0
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir "$dir" --output-on-failure \
		-j "$JOBS" 2>&1 | tee "$log" || rc=$?
	local total fails
	total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$log" | tail -n 1)
	fails=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n 1)
	rm -f "$log"
	if [ -z "$total" ]; then
		failed=$((failed + 1))
		return 0
	fi
	passed=$((passed + total - fails))
	failed=$((failed + fails))
	[ "$rc" -eq 0 ] || [ "$fails" -gt 0 ] || failed=$((failed + 1))
}

# Boot Debian's arm64 kernel in qemu-system-aarch64, run one case, check the
# regime, its verification and the model against VmPTE (docs/arm64-vm.md).
run_arm64_smoke() {
	local tmp rc=0
	tmp=$(mktemp -d)
	say "arm64 VM smoke test (tools/arm64-vm.sh)"
	"$top/tools/arm64-vm.sh" --ptbench "$top/build-arm64/ptbench" --out "$tmp/vm" \
		--timeout 600 -- --case chase-4k-16K --reps 1 --warmup 0 || rc=$?
	rm -rf "$tmp"
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
	else
		say "arm64 VM smoke test failed"
		failed=$((failed + 1))
	fi
}

# The LAVA test definition in a local lava-run QEMU job (docs/lava.md): about
# half a minute once lava-dispatcher is installed, so it runs with the tests.
run_lava_smoke() {
	local tmp rc=0
	tmp=$(mktemp -d)
	say "LAVA job smoke test (tools/lava-run.sh)"
	"$top/tools/lava-run.sh" --ptbench "$top/build-arm64/ptbench" \
		--host-ptbench "$top/build/ptbench" --out "$tmp/lava" --timeout 15 || rc=$?
	rm -rf "$tmp"
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
	else
		say "LAVA job smoke test failed"
		failed=$((failed + 1))
	fi
}

cmd_test() {
	setup cross
	build_all
	run_ctest build
	run_ctest build-asan
	run_ctest build-arm64
	run_arm64_smoke
	run_lava_smoke
	echo
	echo "ptbench: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# Run, fit the walk model, model the operations, report; exits with the run's status.
run_and_report() {
	local out=$1; shift
	say "running: build/ptbench run --out $out $*"
	local rc=0
	build/ptbench run --out "$out" "$@" || rc=$?
	# 2: the run refused its options and measured nothing; what $out holds is not its own
	[ "$rc" -ne 2 ] || { say "the run was refused (exit 2): nothing fitted or reported"; exit 2; }
	[ -f "$out/results.csv" ] || { say "no results were written"; exit "${rc:-1}"; }
	if ! grep -q '^tlb,' "$out/results.csv"; then
		say "no tlb sweep in this run: the translation model is not fitted"
	elif say "fitting the translation model to the tlb sweep" &&
		! build/ptbench model walk calibrate --results "$out" >"$out/walk_calibration.txt"; then
		say "calibration failed (see $out/walk_calibration.txt); the report will say so"
		rc=1
	fi
	# exit 2 only says the run has no operation case (e.g. --workload tlb)
	local orc=0
	say "predicting D128's cost to the page-table operations (ptbench model ops)"
	build/ptbench model ops --results "$out" >"$out/ops_model.txt" 2>&1 || orc=$?
	if [ "$orc" -eq 2 ]; then
		say "no operation case to model: $(tail -1 "$out/ops_model.txt")"
	elif [ "$orc" -ne 0 ]; then
		say "model ops failed (see $out/ops_model.txt)"
		rc=1
	fi
	say "writing the report"
	build/ptbench report "$out" || rc=$?
	local shown=$out
	[ "${out#/}" = "$out" ] && shown=$top/$out
	echo "results: $shown"
	[ -f "$out/REPORT.md" ] && echo "report: $shown/REPORT.md"
	return "$rc"
}

# --out DIR among the run options names the run's directory: run_and_report
# reads the results from there, so it is taken out of the options here.
out_dir=
run_args=()
split_out_arg() {
	while [ $# -gt 0 ]; do
		case $1 in
		--out | --out=*)
			if [ "$1" = --out ]; then
				out_dir=${2-}
				shift $(($# >= 2 ? 2 : 1))
			else
				out_dir=${1#--out=}
				shift
			fi
			[ -n "$out_dir" ] || { echo "run.sh: --out needs a directory" >&2; exit 2; }
			;;
		*)
			run_args+=("$1")
			shift
			;;
		esac
	done
}

cmd_main() {
	split_out_arg "$@"
	setup
	build_native
	run_and_report "${out_dir:-results/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s)}" \
		${run_args[@]+"${run_args[@]}"}
}

# The committed reference run: results/reference/ and the top-level REPORT.md.
cmd_reference() {
	split_out_arg "$@"
	if [ -n "$out_dir" ]; then
		echo "run.sh reference: --out $out_dir: the reference run is always results/reference" >&2
		exit 2
	fi
	setup
	build_native
	local rc=0
	rm -rf results/reference.old
	[ -d results/reference ] && mv results/reference results/reference.old
	run_and_report results/reference "$@" || rc=$?
	if [ ! -f results/reference/REPORT.md ]; then
		say "no report: the previous reference run is kept"
		rm -rf results/reference
		[ -d results/reference.old ] && mv results/reference.old results/reference
		exit 1
	fi
	# the calibrations and the notes are made separately (results/reference/NOTES.md): keep them
	for f in results/reference.old/gate*.conf results/reference.old/calibrate-*.txt \
		results/reference.old/NOTES.md; do
		[ -f "$f" ] && cp "$f" results/reference/
	done
	rm -rf results/reference.old
	{
		head -n 1 results/reference/REPORT.md
		printf '\n_The report of the reference run in results/reference/, made by `./run.sh reference`._\n'
		# links into the run directory: its figures and the every-series appendix
		tail -n +2 results/reference/REPORT.md |
			sed 's#](figures/#](results/reference/figures/#g; s#](REPORT-series.md)#](results/reference/REPORT-series.md)#g'
	} >REPORT.md.tmp && mv REPORT.md.tmp REPORT.md
	echo "report: $top/REPORT.md"
	exit "$rc"
}

# The arm64 cross build, then tools/arm64-vm.sh (docs/arm64-vm.md).
cmd_arm64_vm() {
	local a
	for a in "$@"; do
		case $a in -h|--help) exec "$top/tools/arm64-vm.sh" --help ;; --) break ;; esac
	done
	setup cross
	configure_build build-arm64 -DLIBPERF_PREFIX="$(libperf_prefix cross)" \
		-DCMAKE_TOOLCHAIN_FILE="$top/cmake/aarch64-linux-gnu.cmake" \
		-DPTBENCH_TEST_EMULATOR="qemu-aarch64-static -L /usr/aarch64-linux-gnu"
	exec "$top/tools/arm64-vm.sh" --ptbench "$top/build-arm64/ptbench" "$@"
}

# Both builds (arm64 for the guest, native for the log check), then
# tools/lava-run.sh (docs/lava.md).
cmd_lava() {
	local a
	for a in "$@"; do
		case $a in -h|--help) exec "$top/tools/lava-run.sh" --help ;; --) break ;; esac
	done
	setup cross
	build_native
	configure_build build-arm64 -DLIBPERF_PREFIX="$(libperf_prefix cross)" \
		-DCMAKE_TOOLCHAIN_FILE="$top/cmake/aarch64-linux-gnu.cmake" \
		-DPTBENCH_TEST_EMULATOR="qemu-aarch64-static -L /usr/aarch64-linux-gnu"
	exec "$top/tools/lava-run.sh" --ptbench "$top/build-arm64/ptbench" \
		--host-ptbench "$top/build/ptbench" "$@"
}

case "${1:-}" in
-h|--help|help) usage ;;
arm64-vm) shift; cmd_arm64_vm "$@" ;;
lava) shift; cmd_lava "$@" ;;
test) shift; cmd_test "$@" ;;
setup) shift; setup cross; libperf_prefix native >/dev/null; libperf_prefix cross >/dev/null ;;
build) shift; setup; build_native ;;
reference) shift; cmd_reference "$@" ;;
*) cmd_main "$@" ;;
esac
