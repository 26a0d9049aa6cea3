/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The accesses the kernel makes to a page-table entry, in the two formats
 * the ptops replicas compare. D64: plain 64-bit loads and stores
 * (READ_ONCE/WRITE_ONCE) and 64-bit exchange and compare-and-swap
 * (xchg_relaxed/cmpxchg_relaxed). D128 (the FEAT_D128 series: ptval_get,
 * ptval_set, ptval_xchg_relaxed, cmpxchg128_relaxed): 128-bit
 * single-copy-atomic loads and stores and a 128-bit exchange and CAS.
 *
 *   arm64   D64: LDR/STR, SWP/CAS (FEAT_LSE; LL/SC without it)
 *           D128: LDP/STP (single-copy atomic under FEAT_LSE2), CASP, and
 *           SWPP for the exchange under FEAT_LSE128, else a CASP loop
 *   x86-64  D64: MOV, XCHG, LOCK CMPXCHG
 *           D128 (a stand-in): MOVDQA (16-byte aligned; single-copy atomic
 *           on CPUs with AVX, per Intel's and AMD's manuals), LOCK
 *           CMPXCHG16B, and the exchange as a CMPXCHG16B loop
 *
 * Everything is inline, and the loops pass the atomics variant as a
 * constant, so each variant compiles to straight-line code as the kernel's
 * patched alternatives do, with no test per entry.
 */
#ifndef PTBENCH_WORKLOADS_PTOPS_PRIM_H
#define PTBENCH_WORKLOADS_PTOPS_PRIM_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#define PTOPS_INLINE static inline __attribute__((always_inline))

/* A 128-bit descriptor: lo holds bits 63:0, hi bits 127:64. */
struct pt128 {
	_Alignas(16) uint64_t lo;
	uint64_t hi;
};

/* Which atomic instructions the CPU has (ptops_caps); arm64 only. */
enum ptops_atomics {
	PTOPS_AT_BASE = 0, /* x86-64 always; arm64 without FEAT_LSE (no D128) */
	PTOPS_AT_LSE, /* arm64: SWP, CAS, CASP */
	PTOPS_AT_LSE128, /* arm64: and SWPP */
};

struct ptops_caps {
	enum ptops_atomics at;
	bool d128; /* the D128 primitives can run here */
	char d128_why[128]; /* why not, when !d128 */
	char d64_desc[128]; /* which instructions ran: the case's note */
	char d128_desc[192];
};

/* Probed once (CPUID, AT_HWCAP/AT_HWCAP2) and kept. */
const struct ptops_caps *ptops_caps(void);

static inline bool pt128_eq(struct pt128 a, struct pt128 b)
{
	return a.lo == b.lo && a.hi == b.hi;
}

/* ---- D64 ---- */

PTOPS_INLINE uint64_t d64_get(const uint64_t *p)
{
	return *(const volatile uint64_t *)p;
}

PTOPS_INLINE void d64_set(uint64_t *p, uint64_t v)
{
	*(volatile uint64_t *)p = v;
}

/* Store v, return what was there. */
PTOPS_INLINE uint64_t d64_xchg(uint64_t *p, uint64_t v, enum ptops_atomics at)
{
#if defined(__aarch64__)
	if (at != PTOPS_AT_BASE) {
		uint64_t old;

		asm volatile(".arch_extension lse\n\tswp %[v], %[old], %[m]"
			     : [old] "=r"(old), [m] "+Q"(*p)
			     : [v] "r"(v));
		return old;
	}
#endif
	(void)at;
	return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}

/* Store new if *p == old; return the value seen (old on success). */
PTOPS_INLINE uint64_t d64_cas(uint64_t *p, uint64_t old, uint64_t new, enum ptops_atomics at)
{
#if defined(__aarch64__)
	if (at != PTOPS_AT_BASE) {
		asm volatile(".arch_extension lse\n\tcas %[o], %[n], %[m]"
			     : [o] "+r"(old), [m] "+Q"(*p)
			     : [n] "r"(new));
		return old;
	}
#endif
	(void)at;
	__atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return old;
}

/* ---- D128 ---- */

#if defined(__x86_64__)
#define PTOPS_HAVE_D128 1

PTOPS_INLINE struct pt128 d128_get(const struct pt128 *p)
{
	__m128i v;

	asm volatile("movdqa %1, %0" : "=x"(v) : "m"(*p));
	return (struct pt128){ (uint64_t)_mm_cvtsi128_si64(v),
			       (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) };
}

PTOPS_INLINE void d128_set(struct pt128 *p, struct pt128 x)
{
	__m128i v = _mm_set_epi64x((long long)x.hi, (long long)x.lo);

	asm volatile("movdqa %1, %0" : "=m"(*p) : "x"(v));
}

PTOPS_INLINE struct pt128 d128_cas(struct pt128 *p, struct pt128 old, struct pt128 new,
				   enum ptops_atomics at)
{
	(void)at;
	/* rdx:rax is compared; on a mismatch it receives what memory held */
	asm volatile("lock cmpxchg16b %[m]"
		     : [m] "+m"(*p), "+a"(old.lo), "+d"(old.hi)
		     : "b"(new.lo), "c"(new.hi)
		     : "cc");
	return old;
}

#elif defined(__aarch64__)
#define PTOPS_HAVE_D128 1

PTOPS_INLINE struct pt128 d128_get(const struct pt128 *p)
{
	struct pt128 v;

	asm volatile("ldp %[lo], %[hi], %[m]" : [lo] "=r"(v.lo), [hi] "=r"(v.hi) : [m] "Q"(*p));
	return v;
}

PTOPS_INLINE void d128_set(struct pt128 *p, struct pt128 v)
{
	asm volatile("stp %[lo], %[hi], %[m]" : [m] "=Q"(*p) : [lo] "r"(v.lo), [hi] "r"(v.hi));
}

/* CASP needs FEAT_LSE (ptops_caps: no D128 without it) and even register pairs. */
PTOPS_INLINE struct pt128 d128_cas(struct pt128 *p, struct pt128 old, struct pt128 new,
				   enum ptops_atomics at)
{
	register uint64_t x0 asm("x0") = old.lo;
	register uint64_t x1 asm("x1") = old.hi;
	register uint64_t x2 asm("x2") = new.lo;
	register uint64_t x3 asm("x3") = new.hi;

	(void)at;
	asm volatile(".arch_extension lse\n\tcasp %[o0], %[o1], %[n0], %[n1], %[m]"
		     : [o0] "+&r"(x0), [o1] "+&r"(x1), [m] "+Q"(*p)
		     : [n0] "r"(x2), [n1] "r"(x3));
	return (struct pt128){ x0, x1 };
}

/*
 * SWPP X0, X1, [X2] (FEAT_LSE128), encoded: Debian 12's assembler
 * (binutils 2.40) and clang 14 do not know the instruction. The encoding
 * is 0x19208000 | Rt2 << 16 | Rn << 5 | Rt, with Rt = 0, Rt2 = 1, Rn = 2.
 */
PTOPS_INLINE struct pt128 d128_swpp(struct pt128 *p, struct pt128 v)
{
	register uint64_t x0 asm("x0") = v.lo;
	register uint64_t x1 asm("x1") = v.hi;
	register struct pt128 *x2 asm("x2") = p;

	asm volatile(".inst 0x19218040" : "+r"(x0), "+r"(x1), "+m"(*p) : "r"(x2));
	return (struct pt128){ x0, x1 };
}

#else
/*
 * No 128-bit single-copy-atomic primitives known here: ptops_caps says so
 * and the d128 cases skip. These only keep the loops compiling; they are
 * never run.
 */
#define PTOPS_HAVE_D128 0

PTOPS_INLINE struct pt128 d128_get(const struct pt128 *p)
{
	return *p;
}

PTOPS_INLINE void d128_set(struct pt128 *p, struct pt128 v)
{
	*p = v;
}

PTOPS_INLINE struct pt128 d128_cas(struct pt128 *p, struct pt128 old, struct pt128 new,
				   enum ptops_atomics at)
{
	struct pt128 seen = *p;

	(void)at;
	if (pt128_eq(seen, old))
		*p = new;
	return seen;
}
#endif

/* Store v, return what was there: SWPP, else a CAS loop from a fresh load. */
PTOPS_INLINE struct pt128 d128_xchg(struct pt128 *p, struct pt128 v, enum ptops_atomics at)
{
	struct pt128 cur, seen;

#if defined(__aarch64__)
	if (at == PTOPS_AT_LSE128)
		return d128_swpp(p, v);
#endif
	cur = d128_get(p);
	for (;;) {
		seen = d128_cas(p, cur, v, at);
		if (pt128_eq(seen, cur))
			return cur;
		cur = seen;
	}
}

/* pmd_install's smp_wmb: the zeroed table is visible before the entry. */
PTOPS_INLINE void ptops_wmb(void)
{
#if defined(__aarch64__)
	asm volatile("dmb ishst" ::: "memory");
#else
	asm volatile("" ::: "memory"); /* x86: stores are not reordered with stores */
#endif
}

#endif
