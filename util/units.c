// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/units.h"

void pt_size_name(uint64_t bytes, char *out, size_t len)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (u < 3 && bytes >= 1024 && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(out, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(out, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

int pt_size_parse(const char *s, uint64_t *bytes)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (shift) {
		end++;
		if (toupper((unsigned char)*end) == 'I')
			end++;
		if (toupper((unsigned char)*end) == 'B')
			end++;
	}
	if (*end || (shift && v > (~0ull >> shift)))
		return -1;
	*bytes = (uint64_t)v << shift;
	return 0;
}
