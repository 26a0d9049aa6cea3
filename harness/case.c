// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "harness/case.h"

void pt_case_set_params(struct pt_case *c, const char *params)
{
	snprintf(c->params, sizeof(c->params), "%s", params);
}

const char *pt_backing_name(enum pt_backing b)
{
	static const char *const names[] = { "4k", "thp", "mthp", "hugetlb" };

	return b <= PT_BACK_HUGETLB ? names[b] : "unknown";
}
