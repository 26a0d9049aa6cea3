/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Is this a guest? Translation on a guest is two-stage (the host's nested
 * paging), which decides the walk model's structure (docs/walk.md). The
 * evidence: the CPU's hypervisor bit (x86 CPUID.1:ECX[31], shown as the
 * "hypervisor" flag in /proc/cpuinfo), the hypervisor's CPUID signature
 * (leaf 0x40000000, x86), /sys/hypervisor/type, DMI vendor and product, and
 * the kernel log's "Hypervisor detected:" line (x86), which names PVM, a
 * hypervisor that translates through shadow page tables, not nested ones.
 */
#ifndef PTBENCH_HARNESS_VIRT_H
#define PTBENCH_HARNESS_VIRT_H

#include <stdbool.h>

#include "util/json.h"

struct pt_virt {
	bool known; /* some evidence was readable either way */
	bool virtualized;
	char hypervisor[32]; /* "KVM", "Xen", "Hyper-V", ... or "" */
	char paging[16]; /* "shadow" (PVM), "nested" (KVM's default, assumed), or "" */
	char evidence[256]; /* what was seen, "; "-separated */
};

void pt_virt_detect(struct pt_virt *v);
/*
 * The kernel log's "Hypervisor detected: NAME" line, where log has one:
 * NAME becomes v's hypervisor (the kernel's word over a borrowed CPUID
 * signature) and "shadow" its paging when NAME is PVM.
 */
void pt_virt_from_klog(struct pt_virt *v, const char *log);
/* "virtualization": {virtualized (null when unknown), hypervisor, paging, evidence} */
void pt_virt_write_json(struct pt_json *j);

#endif
