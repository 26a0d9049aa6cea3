#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=dash
#
# /init of the arm64 VM's initramfs (tools/arm64-vm.sh): mounts what ptbench
# reads, loads the 9p modules, runs ptbench with the arguments in
# /ptbench.args, copies the run directory to the 9p share and powers off.
# Every line meant for the host starts with "ARM64VM: ".
# the PID-1 shell must not linger on a fault: power off whatever happens
trap 'poweroff -f' EXIT
# shellcheck source=tools/arm64-vm/guest-setup.sh
. /etc/guest-setup.sh

say() { echo "ARM64VM: $*"; }

mkdir -p /mnt/out
say "init up $(cut -d' ' -f1 /proc/uptime) s after boot, kernel $(uname -r)"

for m in $(cat /modules.order 2>/dev/null); do
	insmod "/modules/$m" 2>/tmp/insmod.err || {
		grep -q 'File exists' /tmp/insmod.err || say "insmod $m: $(cat /tmp/insmod.err)"
	}
done
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 ptout /mnt/out; then
	say "RESULT mount-failed: the 9p share did not mount"
	exit 1
fi
say "share mounted; $(grep MemTotal /proc/meminfo | tr -s ' '), THP PMD size" \
	"$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null || echo none)"

# the run's files stay in tmpfs until ptbench has renamed them into place
run=/tmp/run
cmd=$(cat /ptbench.args)
say "free blocks per order: $(sed "s/^Node 0, zone *//" /proc/buddyinfo | tr -s " " | tr "\n" ";")"
say "running: ptbench run --out $run $cmd"
start=$(cut -d' ' -f1 /proc/uptime)
# shellcheck disable=SC2086 # the arguments are split as written
{ /bin/ptbench run --out "$run" $cmd; echo $? >/tmp/rc; } 2>&1 |
	while IFS= read -r line; do say "ptbench: $line"; done
rc=$(cat /tmp/rc 2>/dev/null || echo 255)
end=$(cut -d' ' -f1 /proc/uptime)
say "ptbench exited $rc after $(awk "BEGIN { print $end - $start }") s"

mkdir -p /mnt/out/run
[ -d "$run" ] && cp -r "$run"/. /mnt/out/run/
{
	echo "rc=$rc"
	echo "run_start_uptime=$start"
	echo "run_end_uptime=$end"
	echo "kernel=$(uname -r)"
} >/mnt/out/guest.txt
dmesg >/mnt/out/dmesg.txt 2>/dev/null
cp /proc/meminfo /mnt/out/meminfo.txt
cp /proc/buddyinfo /mnt/out/buddyinfo.txt 2>/dev/null
cp /proc/vmstat /mnt/out/vmstat.txt 2>/dev/null
sync
umount /mnt/out
say "RESULT rc=$rc"
