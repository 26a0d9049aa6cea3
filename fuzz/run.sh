#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fuzz ptbench's parsers with libFuzzer (clang, ASan + UBSan).
#
#   fuzz/run.sh [SECONDS [TARGET...]]   default: 60 s each, every target
#   FUZZ_JOBS=N fuzz/run.sh 3600        N parallel jobs per target
#   FUZZ_SAVE=1 fuzz/run.sh 600 meta    merge what was found (minimised)
#                                       into fuzz/corpus/fuzz_meta
#
# Targets: results, meta, gateconf, snapshot, lackey, trace, walkcfg,
# units (fuzz/fuzz_*.c). Builds build-fuzz/ with -DPTBENCH_FUZZ=ON; needs
# Debian's clang (apt-get install clang). Starts from the saved corpus
# fuzz/corpus/fuzz_TARGET, works in build-fuzz/work/, and leaves a crashing
# input as build-fuzz/work/TARGET/crash-* (add it to the corpus once fixed:
# the test suite replays the corpus in every build). Prints, per target,
# executions, crashes and hangs (timeouts, -timeout=10 s).
set -uo pipefail

cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(results meta gateconf snapshot lackey trace walkcfg units)
jobs=${FUZZ_JOBS:-1}

command -v clang >/dev/null || { echo "fuzz/run.sh: needs clang (apt-get install clang)" >&2; exit 2; }
libperf=()
[ -d .deps/libperf-x86_64 ] && libperf=(-DLIBPERF_PREFIX="$PWD/.deps/libperf-x86_64")
# Only the targets; clang's warnings differ from gcc's, which the tests hold to -Werror
CC=clang cmake -S . -B build-fuzz -DPTBENCH_FUZZ=ON -DPTBENCH_WERROR=OFF "${libperf[@]}" \
	>/dev/null &&
	cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null ||
	{ echo "fuzz/run.sh: build failed" >&2; exit 1; }

status=0
printf '%-10s %12s %8s %6s\n' target executions crashes hangs
for t in "${targets[@]}"; do
	bin=build-fuzz/fuzz/fuzz_$t
	[ -x "$bin" ] || { echo "fuzz/run.sh: no target '$t'" >&2; exit 2; }
	work=build-fuzz/work/$t
	mkdir -p "$work/corpus"
	cp -n fuzz/corpus/fuzz_$t/* "$work/corpus/" 2>/dev/null
	par=()
	[ "$jobs" -gt 1 ] && par=(-jobs="$jobs" -workers="$jobs") # then logs in fuzz-N.log
	rm -f "$work"/log "$work"/fuzz-*.log
	(cd "$work" && ASAN_OPTIONS=detect_leaks=1 "../../../$bin" corpus \
		-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		"${par[@]}" >log 2>&1)
	execs=$(grep -h 'stat::number_of_executed_units' "$work"/log "$work"/fuzz-*.log 2>/dev/null |
		awk '{ n += $2 } END { print n + 0 }')
	crashes=$(find "$work" -maxdepth 1 -name 'crash-*' | wc -l)
	hangs=$(find "$work" -maxdepth 1 -name 'timeout-*' | wc -l)
	printf '%-10s %12s %8s %6s\n' "$t" "$execs" "$crashes" "$hangs"
	[ "$crashes" -eq 0 ] && [ "$hangs" -eq 0 ] || status=1
	if [ -n "${FUZZ_SAVE:-}" ]; then
		"$bin" -merge=1 "fuzz/corpus/fuzz_$t" "$work/corpus" >/dev/null 2>&1
	fi
done
exit $status
