#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot an arm64 kernel under qemu-system-aarch64 (TCG, -M virt -cpu max) with
# an initramfs holding the cross-built ptbench, run a subset sized for
# emulation, bring the run directory back over 9p and check it on the host
# (tools/arm64-vm/check.py). See docs/arm64-vm.md.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
here=$top/tools/arm64-vm
cache=$top/.deps/arm64-vm

# What this script itself needs on the host (besides run.sh's cross build).
VM_PKGS=(qemu-system-arm cpio kmod xz-utils file binutils python3)
DEFAULT_ARGS=(--max-mem 256M --reps 2 --warmup 0)

kernel=
modules=
kconfig=
ptbench=$top/build-arm64/ptbench
out=
mem=
smp=2
boot_timeout=300
timeout=5400
check=yes
expect=
run_args=()

say() { printf 'arm64-vm: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

usage() {
	cat <<USAGE
usage: tools/arm64-vm.sh [options] [-- ptbench run options]
       ./run.sh arm64-vm [options] [-- ptbench run options]

Boots an arm64 kernel under qemu-system-aarch64 (TCG, -M virt -cpu max),
runs 'ptbench run' inside it, copies the run directory back over 9p and
checks it (regime, verification, page-table model against VmPTE).

options:
  --kernel FILE    arm64 kernel Image (default: Debian 12's linux-image
                   arm64 package, fetched with apt-get download and cached
                   under .deps/arm64-vm/)
  --modules DIR    its lib/modules/<release> directory, for the 9p and
                   virtio-pci modules (default: the Debian package's; give
                   none for a kernel with them built in)
  --config FILE    its kernel config, put at /boot/config-<release> in the
                   guest (default: the Debian package's, or the .config of
                   the build tree a built arch/arm64/boot/Image is in)
  --ptbench FILE   the arm64 ptbench binary (default: build-arm64/ptbench)
  --out DIR        where the run directory and the logs go
                   (default: results/<UTC time>-arm64-qemu)
  --expect REGIME  what check.py expects, e.g. 4K,D64,48 (default: the
                   kernel config's page size, D64 and VA bits)
  --mem SIZE       guest memory (default 2G; 12G for a 64K-page kernel,
                   whose 512M THPs were not found after the first round
                   in 2G, 3G or 4G: docs/arm64-vm.md)
  --smp N          guest CPUs (default $smp)
  --boot-timeout S seconds until init must be up (default $boot_timeout)
  --timeout S      seconds for the whole VM (default $timeout)
  --no-check       do not run the host checks
  -h, --help       this text

ptbench run options after '--' replace the default: ${DEFAULT_ARGS[*]}
(--out is set by the VM). Exit status: 0 the run and the checks passed,
1 the run or a check failed, 2 bad usage or a missing tool.
USAGE
}

need_arg() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs an argument"; }
need_uint() { [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || die "$1: '$2' is not a positive integer"; }

while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--kernel) need_arg "$@"; kernel=$2; shift 2 ;;
	--modules) need_arg "$@"; modules=$2; shift 2 ;;
	--config) need_arg "$@"; kconfig=$2; shift 2 ;;
	--ptbench) need_arg "$@"; ptbench=$2; shift 2 ;;
	--out) need_arg "$@"; out=$2; shift 2 ;;
	--expect) need_arg "$@"; expect=$2; shift 2 ;;
	--mem) need_arg "$@"; mem=$2; shift 2
		[[ $mem =~ ^[0-9]+[MG]$ ]] || die "--mem: '$mem' is not a size like 2G or 1536M" ;;
	--smp) need_arg "$@"; need_uint "$1" "$2"; smp=$2; shift 2 ;;
	--boot-timeout) need_arg "$@"; need_uint "$1" "$2"; boot_timeout=$2; shift 2 ;;
	--timeout) need_arg "$@"; need_uint "$1" "$2"; timeout=$2; shift 2 ;;
	--no-check) check=no; shift ;;
	--) shift; run_args=("$@"); break ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
[ ${#run_args[@]} -gt 0 ] || run_args=("${DEFAULT_ARGS[@]}")
for a in "${run_args[@]}"; do
	case $a in
	--out|--out=*) die "ptbench option '$a': the VM sets --out itself (use --out before '--')" ;;
	*[[:space:]]*) die "ptbench argument '$a' holds white space, which the guest cannot pass" ;;
	esac
done

# pkgs_install_missing, fetch_arm64_pkg, debian_kernel_pkg, resolve_libs,
# guest_root_base: shared with tools/lava-run.sh
# shellcheck source=tools/arm64-vm/pkgs.sh
. "$here/pkgs.sh"

# Modules (by name) and every module they depend on, dependencies first.
declare -A mod_seen=()
mod_order=()
mod_visit() {
	local mdir=$1 name=$2 f deps d
	[ -n "${mod_seen[$name]:-}" ] && return 0
	mod_seen[$name]=1
	f=$(find "$mdir/kernel" \( -name "$name.ko" -o -name "$name.ko.xz" \
		-o -name "${name//_/-}.ko" -o -name "${name//_/-}.ko.xz" \) | head -n 1)
	if [ -z "$f" ]; then
		grep -q "/$name.ko" "$mdir/modules.builtin" 2>/dev/null ||
			say "module $name: not in $mdir (assumed built in)"
		return 0
	fi
	deps=$(modinfo -F depends "$f")
	for d in ${deps//,/ }; do
		mod_visit "$mdir" "$d"
	done
	mod_order+=("$f")
}

resolve_modules() {
	local mdir=$1 m
	shift
	for m in "$@"; do
		mod_visit "$mdir" "$m"
	done
	printf '%s\n' "${mod_order[@]}"
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "${qpid:-}" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	[ -n "${work:-}" ] && rm -rf "$work"
	# the 9p staging folder; console.log stays to say how far it got
	[ -n "${out:-}" ] && rm -rf "$out/share"
	exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted: stopping qemu"; exit 130' INT TERM

pkgs_install_missing "${VM_PKGS[@]}"
command -v aarch64-linux-gnu-readelf >/dev/null || die "aarch64-linux-gnu-readelf not found (./run.sh setup)"
[ -x "$ptbench" ] || die "--ptbench: '$ptbench' is not an executable (build it: ./run.sh arm64-vm does)"
file -b "$ptbench" 2>/dev/null | grep -q 'ARM aarch64' ||
	die "--ptbench: '$ptbench' is not an arm64 executable"

mkdir -p "$cache"
if [ -z "$kernel" ]; then
	kpkg=$(debian_kernel_pkg)
	kdir=$(fetch_arm64_pkg "$kpkg")/root
	kernel=$(find "$kdir/boot" -name 'vmlinuz-*' | head -n 1)
	release=${kernel##*/vmlinuz-}
	modules=$kdir/lib/modules/$release
	kconfig=$kdir/boot/config-$release
else
	[ -f "$kernel" ] || die "--kernel: '$kernel' is not a file"
	if [ -z "$kconfig" ] && [ -f "$(dirname "$kernel")/../../../.config" ]; then
		kconfig=$(cd "$(dirname "$kernel")/../../.." && pwd)/.config
	fi
	release=$(strings "$kernel" | sed -n 's/^Linux version \([^ ]*\) .*/\1/p' | head -n 1)
	if [ -z "$release" ]; then
		release=$(file -b "$kernel" | sed -n 's/.*version \([^ ]*\).*/\1/p')
	fi
	[ -n "$release" ] || release=unknown
fi
[ -z "$modules" ] || [ -d "$modules/kernel" ] || die "--modules: '$modules' has no kernel/ folder"
[ -z "$kconfig" ] || [ -f "$kconfig" ] || die "--config: '$kconfig' is not a file"

if [ -z "$expect" ]; then
	page=4K va=48
	if [ -n "$kconfig" ]; then
		grep -q '^CONFIG_ARM64_16K_PAGES=y' "$kconfig" && page=16K
		grep -q '^CONFIG_ARM64_64K_PAGES=y' "$kconfig" && page=64K
		va=$(sed -n 's/^CONFIG_ARM64_VA_BITS=//p' "$kconfig")
		[ -n "$va" ] || va=48
	fi
	expect=$page,D64,$va
fi
[[ $expect =~ ^(4|16|64)K,D(64|128),[0-9]+$ ]] || die "--expect: '$expect' is not like 4K,D64,48"
if [ -z "$mem" ]; then
	mem=2G
	[[ $expect == 64K,* ]] && mem=12G
fi

[ -n "$out" ] || out=$top/results/$(date -u +%Y%m%dT%H%M%SZ)-arm64-qemu
[ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && die "--out: '$out' exists and is not empty"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# --- the initramfs -----------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/arm64-vm.XXXXXX")
root=$work/root
mkdir -p "$root"/{modules,boot}
guest_root_base "$root" "$ptbench" "$here/init.sh"
: >"$root/modules.order"
if [ -n "$modules" ]; then
	mods=$(resolve_modules "$modules" virtio_pci 9pnet_virtio 9p)
	while read -r f; do
		base=${f##*/}
		case $base in
		*.xz) xz -dc "$f" >"$root/modules/${base%.xz}"; base=${base%.xz} ;;
		*) cp "$f" "$root/modules/" ;;
		esac
		echo "$base" >>"$root/modules.order"
	done <<<"$mods"
fi
[ -n "$kconfig" ] && cp "$kconfig" "$root/boot/config-$release"
printf '%s\n' "${run_args[*]}" >"$root/ptbench.args"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"
say "initramfs: $(du -k "$work/initrd.gz" | cut -f1) KiB ($(wc -l <"$root/modules.order") modules), kernel $release, expecting $expect"

# --- the VM ------------------------------------------------------------------
log=$out/console.log
mkdir -p "$out/share"
# shellcheck disable=SC2054 # -cpu takes a comma-separated list
qemu=(nice -n 10 qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -smp "$smp" -m "$mem"
	-accel tcg -display none -monitor none -no-reboot
	-serial "file:$log"
	-kernel "$kernel" -initrd "$work/initrd.gz"
	-append "console=ttyAMA0 quiet loglevel=3 panic=-1 rdinit=/init"
	-virtfs "local,path=$out/share,mount_tag=ptout,security_model=none,id=ptout")
say "booting: ${qemu[*]:3}"
t0=$(date +%s.%N)
"${qemu[@]}" </dev/null >"$work/qemu.out" 2>&1 &
qpid=$!

elapsed() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
shown=0
boot_s=
result=
while :; do
	alive=yes
	kill -0 "$qpid" 2>/dev/null || alive=no
	if [ -f "$log" ]; then
		total=$(wc -l <"$log")
		if [ "$total" -gt "$shown" ]; then
			while IFS= read -r line; do
				line=${line%$'\r'}
				case $line in
				*"ARM64VM: "*)
					msg=${line#*ARM64VM: }
					printf '[%6ss] %s\n' "$(elapsed)" "$msg" >&2
					case $msg in
					"init up"*) [ -n "$boot_s" ] || boot_s=$(elapsed) ;;
					"RESULT "*) result=${msg#RESULT } ;;
					esac ;;
				*"Kernel panic"*) say "guest: $line" ;;
				esac
			done < <(sed -n "$((shown + 1)),${total}p" "$log")
			shown=$total
		fi
	fi
	[ "$alive" = no ] && break
	now=$(elapsed)
	if [ -z "$boot_s" ] && awk -v n="$now" -v l="$boot_timeout" 'BEGIN { exit !(n > l) }'; then
		say "init was not up after ${boot_timeout}s: stopping qemu (see $log)"
		break
	fi
	if awk -v n="$now" -v l="$timeout" 'BEGIN { exit !(n > l) }'; then
		say "the VM ran past ${timeout}s: stopping it (see $log)"
		break
	fi
	sleep 1
done
if kill -0 "$qpid" 2>/dev/null; then
	kill "$qpid" 2>/dev/null || true
fi
qrc=0
wait "$qpid" || qrc=$?
qpid=
total_s=$(elapsed)
[ -s "$work/qemu.out" ] && say "qemu said: $(tr '\n' ' ' <"$work/qemu.out")"

# the share's contents become the output directory
if [ -d "$out/share/run" ]; then
	mv "$out/share/run" "$out/run"
fi
for f in guest.txt dmesg.txt meminfo.txt buddyinfo.txt vmstat.txt; do
	[ -f "$out/share/$f" ] && mv "$out/share/$f" "$out/$f"
done
rm -rf "$out/share"

run_s=
if [ -f "$out/guest.txt" ]; then
	run_s=$(awk -F= '/^run_start_uptime=/ { s = $2 } /^run_end_uptime=/ { e = $2 }
		END { if (s != "" && e != "") printf "%.1f", e - s }' "$out/guest.txt")
fi
{
	echo "kernel=${kernel#"$top"/}"
	echo "release=$release"
	echo "expect=$expect"
	echo "qemu=${qemu[*]:3}" | sed "s#$top/##g; s#$work/##g"
	echo "ptbench_args=${run_args[*]}"
	echo "boot_seconds=${boot_s:-}"
	echo "run_seconds=${run_s:-}"
	echo "vm_seconds=$total_s"
	echo "qemu_exit=$qrc"
	echo "result=${result:-none}"
} >"$out/vm.txt"
say "boot ${boot_s:-?} s (qemu start to init), ptbench ${run_s:-?} s, VM ${total_s} s in all"

if [ ! -f "$out/run/meta.json" ]; then
	say "no run directory came back (see $log)"
	exit 1
fi
rc=0
case $result in
rc=0) ;;
rc=*) say "ptbench exited ${result#rc=} in the guest"; rc=1 ;;
*) say "the guest did not finish (${result:-no RESULT line})"; rc=1 ;;
esac
if [ "$check" = yes ]; then
	python3 "$here/check.py" --expect "$expect" "$out/run" >"$out/check.txt" || rc=1
	cat "$out/check.txt"
fi
echo "results: $out"
exit "$rc"
