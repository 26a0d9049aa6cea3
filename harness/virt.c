// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE /* strcasestr */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/klog.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "harness/virt.h"
#include "util/sysfs.h"

static void note(struct pt_virt *v, const char *what)
{
	size_t n = strlen(v->evidence);

	snprintf(v->evidence + n, sizeof(v->evidence) - n, "%s%s", n ? "; " : "", what);
}

static bool cpuinfo_hypervisor_flag(bool *readable)
{
	char line[8192];
	bool found = false;
	FILE *f = pt_sys_fopen("/proc/cpuinfo", "r");

	*readable = f != NULL;
	while (f && !found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		found = strstr(line, " hypervisor") != NULL;
		break;
	}
	if (f)
		fclose(f);
	return found;
}

/* The hypervisor's CPUID signature (x86 only; the leaf exists only on a guest). */
static void cpuid_signature(struct pt_virt *v)
{
#if defined(__x86_64__) || defined(__i386__)
	static const struct {
		const char *sig, *name;
	} known[] = { { "KVMKVMKVM", "KVM" },	      { "Microsoft Hv", "Hyper-V" },
		      { "VMwareVMware", "VMware" },   { "XenVMMXenVMM", "Xen" },
		      { "TCGTCGTCGTCG", "QEMU TCG" }, { "ACRNACRNACRN", "ACRN" },
		      { "bhyve bhyve ", "bhyve" } };
	unsigned a, b, c, d, i;
	char sig[13];

	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strncmp(sig, known[i].sig, strlen(known[i].sig))) {
			snprintf(v->hypervisor, sizeof(v->hypervisor), "%s", known[i].name);
			break;
		}
#else
	(void)v;
#endif
}

static void dmi(struct pt_virt *v)
{
	static const char *const vm_words[] = { "QEMU",
						"KVM",
						"VMware",
						"VirtualBox",
						"Xen",
						"Virtual Machine",
						"Amazon EC2",
						"Google Compute",
						"Bochs",
						"OpenStack",
						"Cloud Hypervisor" };
	char vendor[128] = "", product[128] = "", buf[300];
	unsigned i;

	pt_sys_read("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	pt_sys_read("/sys/class/dmi/id/product_name", product, sizeof(product));
	if (!vendor[0] && !product[0])
		return;
	v->known = true;
	snprintf(buf, sizeof(buf), "dmi %s / %s", vendor, product);
	note(v, buf);
	for (i = 0; i < sizeof(vm_words) / sizeof(vm_words[0]); i++)
		if (strcasestr(vendor, vm_words[i]) || strcasestr(product, vm_words[i]))
			v->virtualized = true;
}

#define SYSLOG_READ_ALL 3 /* klogctl actions, from syslog(2) */
#define SYSLOG_SIZE_BUFFER 10
#define KLOG_MAX (1u << 24)

/*
 * PVM runs its guests on shadow page tables (Huang et al., "PVM: Efficient
 * Shadow Paging for Deploying Secure Containers in Cloud-native
 * Environment", SOSP 2023): the hardware walks the host's copy, whose
 * leaves are no larger than the host's backing page. KVM translates a
 * guest in two dimensions wherever the CPU can (kvm_amd.npt and
 * kvm_intel.ept default to on, shadow paging is its fallback for CPUs
 * without them: Documentation/virt/kvm/x86/mmu.rst; on arm64 stage 2 is
 * always there). The guest cannot read the host's parameters, so this is
 * KVM's default assumed, and the evidence says so.
 */
static void paging(struct pt_virt *v)
{
	if (!strcmp(v->hypervisor, "PVM")) {
		snprintf(v->paging, sizeof(v->paging), "shadow");
	} else if (!strcmp(v->hypervisor, "KVM") && strcmp(v->paging, "nested")) {
		snprintf(v->paging, sizeof(v->paging), "nested");
		note(v, "paging nested: KVM's default, assumed");
	}
}

/*
 * The kernel's own word: x86 prints "Hypervisor detected: NAME" at boot.
 * It knows hypervisors whose CPUID signature is borrowed (this project's
 * PVM guests show bhyve's). Read from the kernel log, which needs
 * CAP_SYSLOG where dmesg_restrict is set and may have wrapped: absent, the
 * other evidence stands.
 */
void pt_virt_from_klog(struct pt_virt *v, const char *log)
{
	static const char key[] = "Hypervisor detected: ";
	const char *at = strstr(log, key);
	char ev[96];
	size_t len;

	if (!at)
		return;
	at += sizeof(key) - 1;
	len = strcspn(at, "\r\n");
	v->known = v->virtualized = true;
	snprintf(v->hypervisor, sizeof(v->hypervisor), "%.*s", (int)len, at);
	snprintf(ev, sizeof(ev), "kernel log: %s%s", key, v->hypervisor);
	note(v, ev);
	paging(v);
}

static void kernel_log(struct pt_virt *v)
{
	int size, n;
	char *buf;

	/* a fixture's sysroot is another machine: this kernel's log is not its */
	if (pt_sysroot()[0])
		return;
	size = klogctl(SYSLOG_SIZE_BUFFER, NULL, 0);
	if (size <= 0 || (unsigned)size > KLOG_MAX)
		return;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return;
	n = klogctl(SYSLOG_READ_ALL, buf, size);
	if (n > 0) {
		buf[n] = 0;
		pt_virt_from_klog(v, buf);
	}
	free(buf);
}

void pt_virt_detect(struct pt_virt *v)
{
	char type[64] = "";
	bool readable;

	memset(v, 0, sizeof(*v));
	if (cpuinfo_hypervisor_flag(&readable)) {
		v->virtualized = true;
		note(v, "cpuinfo hypervisor flag");
	}
	v->known = readable;
#if defined(__x86_64__) || defined(__i386__)
	if (v->virtualized)
		cpuid_signature(v);
#else
	(void)cpuid_signature; /* the CPUID leaf is x86's: nothing to read here */
#endif
	if (pt_sys_read("/sys/hypervisor/type", type, sizeof(type)) >= 0 && type[0]) {
		char buf[96];

		v->known = v->virtualized = true;
		snprintf(buf, sizeof(buf), "/sys/hypervisor/type %s", type);
		note(v, buf);
		if (!v->hypervisor[0])
			snprintf(v->hypervisor, sizeof(v->hypervisor), "%.*s",
				 (int)sizeof(v->hypervisor) - 1, type);
	}
	dmi(v);
	if (v->virtualized)
		kernel_log(v);
	paging(v);
}

void pt_virt_write_json(struct pt_json *j)
{
	struct pt_virt v;

	pt_virt_detect(&v);
	pt_json_obj_begin(j, "virtualization");
	if (v.known)
		pt_json_bool(j, "virtualized", v.virtualized);
	else
		pt_json_null(j, "virtualized");
	pt_json_str(j, "hypervisor", v.hypervisor[0] ? v.hypervisor : NULL);
	pt_json_str(j, "paging", v.paging[0] ? v.paging : NULL);
	pt_json_str(j, "evidence", v.evidence);
	pt_json_obj_end(j);
}
