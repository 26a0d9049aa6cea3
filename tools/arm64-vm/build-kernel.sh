#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-build a trimmed arm64 kernel from linux-source-6.1 for one page size
# and VA size, cached under .deps/arm64-kernels/ (never in CI: it takes tens
# of minutes on two cores). Prints the Image's path on stdout.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$top/tools/arm64-vm
cache=$top/.deps/arm64-kernels
LINUX_SRC_TAR=/usr/src/linux-source-6.1.tar.xz
BUILD_PKGS=(linux-source-6.1 xz-utils gcc-aarch64-linux-gnu gcc make bc bison flex
	libssl-dev libelf-dev)

page=
va=
jobs=2

say() { printf 'build-kernel: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

usage() {
	cat <<USAGE
usage: tools/arm64-vm/build-kernel.sh --page 4K|16K|64K --va BITS [--jobs N]

Builds arch/arm64/boot/Image from $LINUX_SRC_TAR with allnoconfig plus
tools/arm64-vm/kernel.config, for the given granule and VA size (16K: 47
or 48; 64K: 42, 48 or 52; 4K: 39 or 48), under nice -n 10. The build is
cached in .deps/arm64-kernels/<page>-va<bits>/; a second call only prints
the path. Refuses to run under CI=true. Then:
  tools/arm64-vm.sh --kernel \$(tools/arm64-vm/build-kernel.sh --page 64K --va 48)
USAGE
}

while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--page) [ $# -ge 2 ] || die "--page needs an argument"; page=$2; shift 2 ;;
	--va) [ $# -ge 2 ] || die "--va needs an argument"; va=$2; shift 2 ;;
	--jobs) [ $# -ge 2 ] || die "--jobs needs an argument"; jobs=$2; shift 2
		[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs: '$jobs' is not a positive integer" ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
case $page in
4K) valid="39 48" ;;
16K) valid="47 48" ;;
64K) valid="42 48 52" ;;
"") die "--page is required (4K, 16K or 64K)" ;;
*) die "--page: '$page' is not 4K, 16K or 64K" ;;
esac
[ -n "$va" ] || die "--va is required ($page: $valid)"
[[ " $valid " == *" $va "* ]] || die "--va: '$va' is not valid with $page pages ($valid)"

out=$cache/$page-va$va
if [ -f "$out/.done" ]; then
	echo "$out/arch/arm64/boot/Image"
	exit 0
fi
[ "${CI:-}" != true ] || die "not building a kernel under CI (tens of minutes): docs/arm64-vm.md"

need=()
for p in "${BUILD_PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || die "missing Debian packages: ${need[*]}"
	say "installing: ${need[*]}"
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >&2
fi

src=$cache/src
if [ ! -f "$src/.done" ]; then
	say "extracting $LINUX_SRC_TAR"
	rm -rf "$src" && mkdir -p "$src"
	nice -n 10 tar -xJf "$LINUX_SRC_TAR" -C "$src" --strip-components=1
	touch "$src/.done"
fi

rm -rf "$out" && mkdir -p "$out"
frag=$out/fragment.config
{
	grep -v '^#' "$here/kernel.config"
	echo "CONFIG_ARM64_${page}_PAGES=y"
	echo "CONFIG_ARM64_VA_BITS_$va=y"
} >"$frag"
kmake=(nice -n 10 make -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
t0=$(date +%s)
"${kmake[@]}" -s KCONFIG_ALLCONFIG="$frag" allnoconfig >&2
# Kconfig drops what it cannot satisfy: say so rather than boot the wrong kernel
bad=0
while IFS= read -r line; do
	case $line in
	*=n) grep -qx "${line%=n}=y" "$out/.config" && { say "config: $line not applied"; bad=1; } ;;
	*) grep -qxF "$line" "$out/.config" || { say "config: $line not applied"; bad=1; } ;;
	esac
done < <(grep '^CONFIG_' "$frag")
[ "$bad" -eq 0 ] || die "the trimmed config does not hold (see $out/.config)"
say "building Image ($page pages, VA $va) with -j$jobs"
"${kmake[@]}" -s -j"$jobs" Image >&2
t1=$(date +%s)
echo "build_seconds=$((t1 - t0))" >"$out/build-time.txt"
say "built in $((t1 - t0)) s: $out/arch/arm64/boot/Image"
touch "$out/.done"
echo "$out/arch/arm64/boot/Image"
