// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "analysis/compare_env.h"

static void add(struct pt_cmp_env *e, const char *label, const char *b, const char *c,
		enum pt_env_kind kind)
{
	if (e->n < PT_ENV_FIELDS)
		e->f[e->n++] = (struct pt_env_field){ label, b, c, kind };
}

void pt_cmp_env_collect(const struct pt_rundir_meta *b, const struct pt_rundir_meta *c,
			struct pt_cmp_env *e)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	add(e, "kernel release", b->kernel_release, c->kernel_release, PT_ENV_EXPECTED);
	add(e, "regime", b->regime_text, c->regime_text, PT_ENV_EXPECTED);
	add(e, "descriptor format", b->format, c->format, PT_ENV_EXPECTED);
	add(e, "arch", b->arch, c->arch, PT_ENV_LOUD);
	add(e, "CPU model", b->cpu_model, c->cpu_model, PT_ENV_LOUD);
	add(e, "page size", b->page_size, c->page_size, PT_ENV_LOUD);
	add(e, "hpage_pmd_size", b->pmd_size, c->pmd_size, PT_ENV_INFO);
	add(e, "THP mode", b->thp_mode, c->thp_mode, PT_ENV_INFO);
	add(e, "hardware PMU", b->pmu, c->pmu, PT_ENV_INFO);
	add(e, "suite", b->suite, c->suite, PT_ENV_INFO);
	add(e, "repetitions", b->reps, c->reps, PT_ENV_INFO);
	add(e, "pinning (--cpu)", b->pinning, c->pinning, PT_ENV_INFO);
	add(e, "ptbench version", b->tool_version, c->tool_version, PT_ENV_INFO);
	add(e, "host steal time, % of CPU", b->steal_pct, c->steal_pct, PT_ENV_INFO);
	add(e, "DAMON", b->damon, c->damon, PT_ENV_INFO);
	for (i = 0; i < e->n; i++)
		if (e->f[i].kind == PT_ENV_LOUD && pt_env_differs(&e->f[i]))
			e->loud++;
}

bool pt_env_differs(const struct pt_env_field *f)
{
	return f->base[0] && f->cand[0] && strcmp(f->base, f->cand);
}

const char *pt_env_mark(const struct pt_env_field *f)
{
	if (!f->base[0] || !f->cand[0])
		return f->base[0] || f->cand[0] ? "unknown on one side" : "";
	if (!pt_env_differs(f))
		return "";
	switch (f->kind) {
	case PT_ENV_LOUD:
		return "DIFFERS: see WARNING";
	case PT_ENV_EXPECTED:
		return "differs (expected when comparing kernels, e.g. D64 vs D128)";
	default:
		return "differs";
	}
}
