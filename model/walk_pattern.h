/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synthetic access patterns matching the workloads: the tlb workload's
 * pointer chase (one random cycle over the pages, one load per page, the
 * offset within each page varied), its dense control (the same loads on
 * consecutive cache lines), a sequential scan, a fixed stride, and uniform
 * random 8-byte accesses (GUPS-like).
 */
#ifndef PTBENCH_MODEL_WALK_PATTERN_H
#define PTBENCH_MODEL_WALK_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define PT_PATTERN_BASE (1ull << 40) /* 1 TiB: aligned for every block size */
#define PT_PATTERN_PAGE 4096ull

enum pt_pattern_kind {
	PT_PAT_CHASE,
	PT_PAT_DENSE,
	PT_PAT_SEQ,
	PT_PAT_STRIDE,
	PT_PAT_RANDOM,
	PT_PAT_CHASE_HALF, /* the chase over every second page (tlb chase-half-*) */
	PT_PAT_CHASE_QUARTER, /* over every fourth page (tlb chase-quarter-*) */
};

struct pt_pattern {
	enum pt_pattern_kind kind;
	uint64_t base, ws, stride; /* stride: the chases' bytes between elements */
	uint32_t *cycle; /* chase/dense: the elements in the order they are visited */
	uint64_t n; /* elements in the cycle */
	uint64_t cur; /* chase/dense: index in cycle of the next element; seq/stride: offset */
	uint64_t rng;
};

int pt_pattern_parse(const char *s, enum pt_pattern_kind *k);
const char *pt_pattern_name(enum pt_pattern_kind k);
/*
 * ws: bytes of the working set; stride: bytes between accesses (seq: 8 if
 * 0, stride: 4096 if 0; the chases and dense set their own). 0, or -1 with
 * a message in err.
 */
int pt_pattern_init(struct pt_pattern *p, enum pt_pattern_kind k, uint64_t ws, uint64_t stride,
		    uint64_t seed, char *err, size_t errlen);
void pt_pattern_free(struct pt_pattern *p);
/* Accesses in one pass over the working set. */
uint64_t pt_pattern_pass(const struct pt_pattern *p);

static inline uint64_t pt_pattern_rand(struct pt_pattern *p)
{
	p->rng ^= p->rng << 13;
	p->rng ^= p->rng >> 7;
	p->rng ^= p->rng << 17;
	return p->rng;
}

/* The chase's offset within page i, as the tlb workload places it: line (i * 37) mod 64. */
static inline uint64_t pt_chase_offset(uint64_t i)
{
	return (i * 37 % 64) << 6;
}

/* The next element of a chase or dense cycle: a sequential read. */
static inline uint64_t pt_pattern_next_element(struct pt_pattern *p)
{
	uint64_t e = p->cycle[p->cur];

	p->cur = p->cur + 1 == p->n ? 0 : p->cur + 1;
	return e;
}

static inline uint64_t pt_pattern_next(struct pt_pattern *p)
{
	uint64_t a;

	switch (p->kind) {
	case PT_PAT_CHASE:
	case PT_PAT_CHASE_HALF:
	case PT_PAT_CHASE_QUARTER:
		a = pt_pattern_next_element(p);
		return p->base + a * p->stride + pt_chase_offset(a);
	case PT_PAT_DENSE:
		return p->base + (pt_pattern_next_element(p) << 6);
	case PT_PAT_RANDOM:
		/* multiply-high maps the random word onto [0, ws / 8) without a division */
		return p->base +
		       ((uint64_t)(((unsigned __int128)pt_pattern_rand(p) * (p->ws >> 3)) >> 64)
			<< 3);
	default:
		a = p->base + p->cur;
		p->cur += p->stride;
		if (p->cur >= p->ws)
			p->cur -= p->ws;
		return a;
	}
}

#endif
