#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run ci/lava/ptbench.yaml the way a LAVA lab does, on this machine: Debian's
# lava-dispatcher (lava-run, no server) boots Debian's arm64 kernel with a
# ramdisk holding the cross-built ptbench under qemu-system-aarch64, LAVA
# appends its test overlay to the ramdisk and runs the test definition in
# the guest. The log must then show every ptbench test case and measurement,
# equal to what ptbench export gives for the run directory the job printed.
# See docs/lava.md.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
here=$top/tools/lava
cache=$top/.deps/arm64-vm # shared with tools/arm64-vm.sh

# lava-dispatcher without its recommends: they add an NFS server, TFTP,
# LXC and more that a QEMU job does not use (docs/lava.md).
LAVA_PKGS=(lava-dispatcher qemu-system-arm cpio file binutils python3-yaml)
DEFAULT_ARGS=(--suite quick --case '*-4k-4M' --reps 3 --warmup 0 --max-mem 256M)

ptbench=$top/build-arm64/ptbench
host_ptbench=$top/build/ptbench
kernel=
out=
mem=2G
smp=2
timeout_min=60
keep=no
run_args=()

say() { printf 'lava-run: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

usage() {
	cat <<USAGE
usage: tools/lava-run.sh [options] [-- ptbench run options]
       ./run.sh lava [options] [-- ptbench run options]

Runs the LAVA test definition ci/lava/ptbench.yaml in a local LAVA QEMU job
(lava-run with a device dictionary, no server): Debian's arm64 kernel and a
ramdisk with the cross-built ptbench under qemu-system-aarch64 (TCG). Then
checks the job log: the job completed, every line 'ptbench export --format
lava' gives for the run directory the job printed is there as a LAVA test
case with the same result, measurement and units.

options:
  --ptbench FILE   the arm64 ptbench (default: build-arm64/ptbench)
  --host-ptbench FILE  this machine's ptbench, for the check
                   (default: build/ptbench)
  --kernel FILE    arm64 kernel image (default: Debian 12's linux-image
                   arm64 package, cached under .deps/arm64-vm/)
  --out DIR        where the job, device dictionary, log and run directory
                   go (default: results/<UTC time>-lava-qemu)
  --mem SIZE       guest memory (default $mem)
  --smp N          guest CPUs (default $smp)
  --timeout MIN    minutes for the whole job (default $timeout_min)
  --keep           keep lava-run's work directory (in --out)
  -h, --help       this text

ptbench run options after '--' replace the default: ${DEFAULT_ARGS[*]}
(--out is the test definition's). Exit status: 0 the job completed and its
log holds every test case and measurement, 1 it did not, 2 bad usage or a
missing tool.
USAGE
}

need_arg() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs an argument"; }
need_uint() { [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || die "$1: '$2' is not a positive integer"; }

while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--ptbench) need_arg "$@"; ptbench=$2; shift 2 ;;
	--host-ptbench) need_arg "$@"; host_ptbench=$2; shift 2 ;;
	--kernel) need_arg "$@"; kernel=$2; shift 2 ;;
	--out) need_arg "$@"; out=$2; shift 2 ;;
	--mem) need_arg "$@"; mem=$2; shift 2
		[[ $mem =~ ^[0-9]+[MG]$ ]] || die "--mem: '$mem' is not a size like 2G or 1536M" ;;
	--smp) need_arg "$@"; need_uint "$1" "$2"; smp=$2; shift 2 ;;
	--timeout) need_arg "$@"; need_uint "$1" "$2"; timeout_min=$2; shift 2 ;;
	--keep) keep=yes; shift ;;
	--) shift; run_args=("$@"); break ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
[ ${#run_args[@]} -gt 0 ] || run_args=("${DEFAULT_ARGS[@]}")
for a in "${run_args[@]}"; do
	case $a in
	--out|--out=*) die "ptbench option '$a': the test definition sets --out" ;;
	*[[:space:]\']*) die "ptbench argument '$a': LAVA passes parameters as one single-quoted shell word, split at spaces" ;;
	esac
done

# shellcheck source=tools/arm64-vm/pkgs.sh
. "$top/tools/arm64-vm/pkgs.sh"

# lava-dispatcher recommends much that a local QEMU job does not use
pkgs_install_missing --no-install-recommends "${LAVA_PKGS[@]}"
command -v lava-run >/dev/null || die "lava-run not found after installing lava-dispatcher"
command -v aarch64-linux-gnu-readelf >/dev/null || die "aarch64-linux-gnu-readelf not found (./run.sh setup)"
[ -x "$ptbench" ] || die "--ptbench: '$ptbench' is not an executable (./run.sh lava builds it)"
file -b "$ptbench" | grep -q 'ARM aarch64' || die "--ptbench: '$ptbench' is not an arm64 executable"
[ -x "$host_ptbench" ] || die "--host-ptbench: '$host_ptbench' is not an executable (./run.sh build)"

mkdir -p "$cache"
if [ -z "$kernel" ]; then
	kpkg=$(debian_kernel_pkg)
	kernel=$(find "$(fetch_arm64_pkg "$kpkg")/root/boot" -name 'vmlinuz-*' | head -n 1)
	[ -n "$kernel" ] || die "no vmlinuz in the Debian package $kpkg"
fi
[ -f "$kernel" ] || die "--kernel: '$kernel' is not a file"
kernel=$(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel")

[ -n "$out" ] || out=$top/results/$(date -u +%Y%m%dT%H%M%SZ)-lava-qemu
[ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && die "--out: '$out' exists and is not empty"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# --- the ramdisk: busybox, ptbench and its libraries, tools/lava/init.sh ----
root=$out/ramdisk-root
rm -rf "$root"
mkdir -p "$root/root"
guest_root_base "$root" "$ptbench" "$here/init.sh"
# LAVA unpacks its overlay into this cpio and packs it again (cpio.newc)
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/ramdisk.cpio.gz"
rm -rf "$root"
say "ramdisk: $(du -k "$out/ramdisk.cpio.gz" | cut -f1) KiB; kernel ${kernel#"$top"/}"

# --- the job and the device dictionary ---------------------------------------
/usr/bin/python3 "$here/make_job.py" --kernel "$kernel" --ramdisk "$out/ramdisk.cpio.gz" \
	--testdef "$top/ci/lava/ptbench.yaml" --run-args "${run_args[*]}" \
	--mem "$mem" --smp "$smp" --timeout-min "$timeout_min" \
	--job "$out/job.yaml" --device "$out/device.yaml" || die "make_job.py failed"

work=$out/lava-work
mkdir -p "$work"
cleanup() {
	local rc=$?
	[ "$keep" = yes ] || rm -rf "$work"
	exit "$rc"
}
trap cleanup EXIT
say "lava-run --job-id 1 --device $out/device.yaml $out/job.yaml (log: $out/lava.log)"
t0=$(date +%s)
lrc=0
# a little past the job's own timeout: LAVA ends the job itself first
timeout $((timeout_min * 60 + 120)) nice -n 10 lava-run --job-id 1 --output-dir "$work" \
	--device "$out/device.yaml" "$out/job.yaml" >"$out/lava.log" 2>&1 || lrc=$?
secs=$(($(date +%s) - t0))
say "lava-run exited $lrc after ${secs}s"

crc=0
/usr/bin/python3 "$here/check_log.py" --log "$out/lava.log" --out "$out" \
	--ptbench "$host_ptbench" || crc=$?
{
	echo "kernel=${kernel#"$top"/}"
	echo "ptbench_args=${run_args[*]}"
	echo "lava_run_exit=$lrc"
	echo "lava_run_seconds=$secs"
	echo "check_exit=$crc"
} >"$out/lava.txt"
say "$out/lava.txt"
[ "$lrc" -eq 0 ] && [ "$crc" -eq 0 ] || exit 1
