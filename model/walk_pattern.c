// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/walk_pattern.h"

/* in enum pt_pattern_kind's order */
static const char *const names[] = {
	"chase", "dense", "seq", "stride", "random", "chase-half", "chase-quarter",
};

int pt_pattern_parse(const char *s, enum pt_pattern_kind *k)
{
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*k = (enum pt_pattern_kind)i;
			return 0;
		}
	}
	return -1;
}

const char *pt_pattern_name(enum pt_pattern_kind k)
{
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

/*
 * Sattolo's algorithm: a uniformly random single cycle over n elements,
 * kept in the order it is followed from element 0 (next[i] follows i), so
 * that following it reads the array in order.
 */
static int make_cycle(struct pt_pattern *p, uint64_t n)
{
	uint32_t *order = malloc(n * sizeof(*order));
	uint64_t i;

	if (!order)
		return -1;
	for (i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (i = n - 1; i > 0; i--) {
		uint64_t j = pt_pattern_rand(p) % i;
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; order[i]; i++)
		;
	p->cycle = order;
	p->n = n;
	p->cur = i + 1 == n ? 0 : i + 1; /* the element after 0 comes first */
	return 0;
}

static int check(enum pt_pattern_kind k, uint64_t ws, uint64_t stride, char *err, size_t errlen)
{
	if (ws < PT_PATTERN_PAGE || ws % PT_PATTERN_PAGE) {
		snprintf(err, errlen, "working set %llu bytes: must be a multiple of 4096",
			 (unsigned long long)ws);
		return -1;
	}
	if (ws / PT_PATTERN_PAGE > UINT32_MAX) {
		snprintf(err, errlen, "working set too large (at most 2^32 pages)");
		return -1;
	}
	if ((k == PT_PAT_SEQ || k == PT_PAT_STRIDE) && stride >= ws) {
		snprintf(err, errlen, "stride %llu is not smaller than the working set",
			 (unsigned long long)stride);
		return -1;
	}
	return 0;
}

/* Pages between a chase's elements; 0 for the other patterns. */
static uint64_t chase_pages(enum pt_pattern_kind k)
{
	switch (k) {
	case PT_PAT_CHASE:
		return 1;
	case PT_PAT_CHASE_HALF:
		return 2;
	case PT_PAT_CHASE_QUARTER:
		return 4;
	default:
		return 0;
	}
}

int pt_pattern_init(struct pt_pattern *p, enum pt_pattern_kind k, uint64_t ws, uint64_t stride,
		    uint64_t seed, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	if (chase_pages(k))
		stride = chase_pages(k) * PT_PATTERN_PAGE;
	else if (!stride)
		stride = k == PT_PAT_SEQ ? 8 : PT_PATTERN_PAGE;
	if (check(k, ws, stride, err, errlen))
		return -1;
	p->kind = k;
	p->base = PT_PATTERN_BASE;
	p->ws = ws;
	p->stride = stride;
	p->rng = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (!p->rng)
		p->rng = 1;
	if (chase_pages(k) || k == PT_PAT_DENSE) {
		/* dense: as many elements (lines) as the chase over every page */
		uint64_t n = ws / PT_PATTERN_PAGE / (chase_pages(k) ? chase_pages(k) : 1);

		if (make_cycle(p, n ? n : 1)) {
			snprintf(err, errlen, "out of memory for a %llu-element cycle",
				 (unsigned long long)(n ? n : 1));
			return -1;
		}
	}
	return 0;
}

void pt_pattern_free(struct pt_pattern *p)
{
	free(p->cycle);
	p->cycle = NULL;
}

uint64_t pt_pattern_pass(const struct pt_pattern *p)
{
	switch (p->kind) {
	case PT_PAT_CHASE:
	case PT_PAT_DENSE:
	case PT_PAT_CHASE_HALF:
	case PT_PAT_CHASE_QUARTER:
		return p->n;
	case PT_PAT_RANDOM:
		return p->ws / PT_PATTERN_PAGE;
	default:
		return (p->ws + p->stride - 1) / p->stride;
	}
}
