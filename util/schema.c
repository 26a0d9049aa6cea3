// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "util/schema.h"

static const char *const better_names[] = { "lower", "higher", "neither" };

const char *pt_better_name(enum pt_better b)
{
	return b <= PT_NEITHER ? better_names[b] : "neither";
}

int pt_better_parse(const char *s, enum pt_better *b)
{
	int i;

	for (i = 0; i <= PT_NEITHER; i++) {
		if (!strcmp(s, better_names[i])) {
			*b = (enum pt_better)i;
			return 0;
		}
	}
	return -1;
}
