// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which of the ptops primitives this CPU can run, and the words a case's
 * note uses to say which ran.
 */
#include <stdio.h>
#include <string.h>

#include "workloads/ptops_prim.h"

#if defined(__x86_64__)
#include <cpuid.h>

static void probe(struct ptops_caps *c)
{
	unsigned int a = 0, b = 0, ecx = 0, d = 0;
	bool cx16, avx;

	__get_cpuid(1, &a, &b, &ecx, &d);
	cx16 = ecx & bit_CMPXCHG16B;
	avx = ecx & bit_AVX;
	c->at = PTOPS_AT_BASE;
	c->d128 = cx16;
	if (!cx16)
		snprintf(c->d128_why, sizeof(c->d128_why),
			 "CPUID has no CMPXCHG16B: no 128-bit compare-and-swap");
	snprintf(c->d64_desc, sizeof(c->d64_desc),
		 "d64: mov load/store, xchg, lock cmpxchg (x86-64 stand-in)");
	snprintf(c->d128_desc, sizeof(c->d128_desc),
		 "d128: movdqa load/store (%s), lock cmpxchg16b, exchange as a cmpxchg16b loop "
		 "(x86-64 stand-in)",
		 avx ? "16-byte single-copy atomic: the CPU has AVX"
		     : "not guaranteed single-copy atomic: no AVX");
}

#elif defined(__aarch64__)
#include <sys/auxv.h>

/* The kernel's uapi value (Linux 6.7); older C libraries lack the name. */
#ifndef HWCAP2_LSE128
#define HWCAP2_LSE128 (1UL << 47)
#endif

static void probe(struct ptops_caps *c)
{
	unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
	bool lse = hw & HWCAP_ATOMICS, lse2 = hw & HWCAP_USCAT, lse128 = hw2 & HWCAP2_LSE128;

	c->at = !lse ? PTOPS_AT_BASE : lse128 ? PTOPS_AT_LSE128 : PTOPS_AT_LSE;
	/* every FEAT_D128 CPU has LSE; without it the kernel would use LL/SC pairs */
	c->d128 = lse;
	if (!lse)
		snprintf(c->d128_why, sizeof(c->d128_why),
			 "no FEAT_LSE (HWCAP_ATOMICS): no CASP for the 128-bit compare-and-swap");
	snprintf(c->d64_desc, sizeof(c->d64_desc), "d64: ldr/str, %s",
		 lse ? "swp, cas (FEAT_LSE)" : "ldxr/stxr loops (no FEAT_LSE)");
	snprintf(c->d128_desc, sizeof(c->d128_desc), "d128: ldp/stp (%s), casp, %s",
		 lse2 ? "single-copy atomic: FEAT_LSE2" : "not single-copy atomic: no FEAT_LSE2",
		 lse128 ? "swpp (FEAT_LSE128)" : "exchange as a casp loop (no FEAT_LSE128)");
}

#else
static void probe(struct ptops_caps *c)
{
	c->at = PTOPS_AT_BASE;
	c->d128 = false;
	snprintf(c->d128_why, sizeof(c->d128_why),
		 "no 128-bit single-copy-atomic load, store and compare-and-swap known to ptbench "
		 "on this architecture");
	snprintf(c->d64_desc, sizeof(c->d64_desc),
		 "d64: 64-bit volatile load/store, compiler atomic exchange and compare-exchange");
	snprintf(c->d128_desc, sizeof(c->d128_desc), "d128: not available");
}
#endif

const struct ptops_caps *ptops_caps(void)
{
	static struct ptops_caps caps;
	static bool done;

	if (!done) {
		memset(&caps, 0, sizeof(caps));
		probe(&caps);
		done = true;
	}
	return &caps;
}
