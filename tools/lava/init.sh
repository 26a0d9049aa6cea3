#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=dash
#
# /init of the LAVA job's arm64 ramdisk (tools/lava-run.sh): mounts what
# ptbench reads, then gives LAVA a root shell on the serial console. LAVA
# unpacked its test overlay (/lava-<job>/) into this ramdisk before boot,
# and drives everything else by typing into that shell.
# shellcheck source=tools/arm64-vm/guest-setup.sh
. /etc/guest-setup.sh
export HOME=/root
mkdir -p /root
hostname ptbench-guest
echo "ptbench-lava: init up $(cut -d' ' -f1 /proc/uptime) s after boot, kernel $(uname -r)"

# The prompt the job's boot action waits for. PID 1 must not exit (the
# kernel would panic), so a shell that ends is started again.
export PS1='ptbench-guest# '
while :; do
	if command -v cttyhack >/dev/null; then
		setsid cttyhack sh
	else
		sh </dev/console >/dev/console 2>&1
	fi
done
