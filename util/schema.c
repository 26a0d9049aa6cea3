// SPDX-License-Identifier: GPL-2.0-only
#include <stdbool.h>
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

/* digits: one or more, and no leading zero unless it is the only one */
static const char *integer_part(const char *s)
{
	if (*s == '0')
		return s + 1;
	if (*s < '1' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

bool pt_schema_rep_ok(const char *s)
{
	const char *end = integer_part(s);

	return end && !*end && end - s <= 9; /* below INT_MAX */
}

bool pt_schema_number_ok(const char *s)
{
	const char *p = s;

	if (*p == '-')
		p++;
	p = integer_part(p);
	if (!p)
		return false;
	if (*p == '.') {
		if (*++p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return !*p;
}
