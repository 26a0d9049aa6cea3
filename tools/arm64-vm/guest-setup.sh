# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=dash
#
# Sourced (as /etc/guest-setup.sh) by the /init of both arm64 ramdisks,
# tools/arm64-vm/init.sh and tools/lava/init.sh (guest_root_base in
# pkgs.sh puts it there): busybox's applets, the library path, and the
# file systems ptbench reads (proc, sysfs, debugfs and tracefs for the
# kernel's counters, hugetlbfs for the huge-page workloads).
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/aarch64-linux-gnu

mkdir -p /proc /sys /dev /tmp /run
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /dev/hugepages && mount -t hugetlbfs hugetlbfs /dev/hugepages 2>/dev/null
