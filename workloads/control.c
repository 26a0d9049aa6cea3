// SPDX-License-Identifier: GPL-2.0-only
/*
 * Controls: fixed work that involves no page-table operation, timed in every
 * round of a run like any case. On a shared host the speed of the whole
 * machine drifts by 10-30% over minutes; a case's time divided by the
 * control's time in the same round (the runner's *_norm rows) cancels what
 * moves both. cpu-loop is a chain of dependent multiply-adds (core clock,
 * steal); mem-chase a dependent chase over a small buffer that stays in the
 * caches and the TLB (memory-subsystem contention without walks).
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/procmem.h"
#include "util/params.h"
#include "workloads/wl_common.h"

#define LOOP_ITERS (1ull << 24)
#define CHASE_BYTES (1ull << 20) /* 256 4K pages: L2-resident, in every TLB */
#define CHASE_LINE 64
#define CHASE_LOADS (1ull << 22)
/* Knuth's MMIX LCG: odd increment, full period modulo 2^64 */
#define LCG_A 6364136223846793005ull
#define LCG_C 1442695040888963407ull

enum control_kind { CONTROL_CPU = 0, CONTROL_MEM };

struct control_case {
	enum control_kind kind;
};
PT_CASE_DATA(struct control_case, control_case)

/* x after n LCG steps, by squaring the affine map: checks the timed loop. */
static uint64_t lcg_jump(uint64_t x, uint64_t n)
{
	uint64_t a = LCG_A, c = LCG_C, acc_a = 1, acc_c = 0;

	while (n) {
		if (n & 1) {
			acc_a *= a;
			acc_c = acc_c * a + c;
		}
		c = (a + 1) * c;
		a *= a;
		n >>= 1;
	}
	return acc_a * x + acc_c;
}

static int run_cpu(struct pt_rep *r)
{
	volatile uint64_t sink;
	uint64_t x = 1, i;

	pt_rep_begin(r);
	for (i = 0; i < LOOP_ITERS; i++)
		x = x * LCG_A + LCG_C;
	pt_rep_end(r);
	sink = x;
	if (sink != lcg_jump(1, LOOP_ITERS))
		return pt_rep_fail(r, "cpu-loop ended at %#llx, not the LCG's %#llx",
				   (unsigned long long)x,
				   (unsigned long long)lcg_jump(1, LOOP_ITERS));
	pt_rep_emit_per_op(r, (double)LOOP_ITERS, "iter");
	return 0;
}

/* A single cycle through every line of buf (Sattolo's shuffle), fixed seed. */
static void make_cycle(char *buf, size_t lines)
{
	size_t *order = malloc(lines * sizeof(*order)), i;
	uint64_t x = 12345;

	if (!order)
		return;
	for (i = 0; i < lines; i++)
		order[i] = i;
	for (i = lines - 1; i > 0; i--) {
		size_t j, t;

		x = x * LCG_A + LCG_C;
		j = (size_t)((x >> 33) % i);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < lines; i++)
		*(void **)(buf + order[i] * CHASE_LINE) = buf + order[(i + 1) % lines] * CHASE_LINE;
	free(order);
}

static int run_mem(const struct pt_case *c, struct pt_rep *r)
{
	size_t lines = CHASE_BYTES / CHASE_LINE, n = 0;
	char *buf = pt_map_anon(CHASE_BYTES, 0, c->backing);
	void *volatile end;
	void **p;
	uint64_t i;

	if (!buf)
		return pt_rep_fail(r, "mmap of %llu bytes: %s", (unsigned long long)CHASE_BYTES,
				   strerror(errno));
	make_cycle(buf, lines);
	/* verify untimed: the chase is one cycle through every line */
	p = *(void ***)buf;
	for (n = 1; (char *)p != buf && n <= lines; n++)
		p = *p;
	if (n != lines) {
		pt_unmap(buf, CHASE_BYTES);
		return pt_rep_fail(r, "mem-chase cycle has %zu of %zu lines", n, lines);
	}
	p = (void **)buf;
	pt_rep_begin(r);
	for (i = 0; i < CHASE_LOADS; i++)
		p = *p;
	pt_rep_end(r);
	end = p;
	(void)end;
	pt_unmap(buf, CHASE_BYTES);
	pt_rep_emit_per_op(r, (double)CHASE_LOADS, "access");
	return 0;
}

static int control_run(const struct pt_case *c, struct pt_rep *r)
{
	return control_case_get(c).kind == CONTROL_CPU ? run_cpu(r) : run_mem(c, r);
}

static int control_cases(const struct pt_suite_opts *o, struct pt_case *out, size_t max)
{
	static const char *const names[] = { "cpu-loop", "mem-chase" };
	static const char *const primary[] = { "ns_per_iter", "ns_per_access" };
	size_t n = 0;
	int k;

	(void)o;
	for (k = CONTROL_CPU; k <= CONTROL_MEM; k++) {
		struct pt_case *c = wl_case_next(out, max, &n, PT_BACK_4K,
						 k == CONTROL_CPU ? 0 : CHASE_BYTES);
		struct control_case d = { (enum control_kind)k };
		struct pt_params p;

		if (!c)
			break;
		snprintf(c->name, sizeof(c->name), "%s", names[k]);
		c->primary_metric = primary[k];
		c->mem_bytes = CHASE_BYTES;
		control_case_set(c, &d);
		pt_params_init(&p);
		pt_params_str(&p, "kind", names[k]);
		if (pt_params_render(&p, c->params, sizeof(c->params)))
			return -1;
	}
	return (int)n;
}

const struct pt_workload pt_wl_control = {
	.name = "control",
	.primary_metric = "ns_per_iter",
	.summary = "fixed work without page-table operations, timed every round: the "
		   "*_norm rows divide by it",
	.help = "cases: cpu-loop (2^24 dependent multiply-adds), mem-chase (2^22 loads\n"
		"chasing one cycle through the lines of 1 MiB of 4K pages)\n"
		"metrics: ns_per_iter, ns_per_access (and ticks_, <event>_per_)\n"
		"verified: the loop ends at the value the LCG's jump-ahead gives; the\n"
		"chase is one cycle through every line",
	.cases = control_cases,
	.run = control_run,
};
