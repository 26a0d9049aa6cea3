// SPDX-License-Identifier: GPL-2.0-only
#include "harness/case.h"

const char *pt_backing_name(enum pt_backing b)
{
	static const char *const names[] = { "4k", "thp", "mthp", "hugetlb" };

	return b <= PT_BACK_HUGETLB ? names[b] : "unknown";
}
