// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util/parse.h"

static int fail(int err)
{
	errno = err;
	return -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int pt_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !is_digit(*s))
		return fail(EINVAL);
	for (; is_digit(*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return fail(ERANGE);
		v = v * 10 + d;
	}
	if (*s)
		return fail(EINVAL);
	if (v < min || v > max)
		return fail(ERANGE);
	*out = v;
	return 0;
}

int pt_parse_long(const char *s, long min, long max, long *out)
{
	bool neg = s && *s == '-';
	uint64_t mag;
	long v;

	if (pt_parse_u64(s ? s + neg : NULL, 0, UINT64_MAX, &mag))
		return -1;
	/* LONG_MIN's magnitude is one more than LONG_MAX's */
	if (mag > (uint64_t)LONG_MAX + neg)
		return fail(ERANGE);
	if (!neg)
		v = (long)mag;
	else if (mag == (uint64_t)LONG_MAX + 1)
		v = LONG_MIN;
	else
		v = -(long)mag;
	if (v < min || v > max)
		return fail(ERANGE);
	*out = v;
	return 0;
}

int pt_parse_int(const char *s, int min, int max, int *out)
{
	long v;

	if (pt_parse_long(s, min, max, &v))
		return -1;
	*out = (int)v;
	return 0;
}

int pt_parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;

	if (pt_parse_u64(s, min, max, &v))
		return -1;
	*out = (unsigned)v;
	return 0;
}

int pt_parse_double(const char *s, double min, double max, double *out)
{
	const char *q;
	int dots = 0, digits = 0;
	double v;

	if (!s)
		return fail(EINVAL);
	/* checked by hand first: strtod would take signs, blanks, "inf" and hex */
	for (q = s; *q; q++) {
		if (*q == '.')
			dots++;
		else if (is_digit(*q))
			digits++;
		else
			return fail(EINVAL);
	}
	if (!digits || dots > 1)
		return fail(EINVAL);
	v = strtod(s, NULL);
	if (!(v >= min && v <= max))
		return fail(ERANGE);
	*out = v;
	return 0;
}
