// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/utctime.h"

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static long days_from_civil(long y, unsigned m, unsigned d)
{
	long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long)doe - 719468;
}

static bool leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int pt_utc_parse(const char *s, double *t)
{
	static const unsigned mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, n = 0;
	double sec;
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t len, i;

	*t = NAN;
	if (!s)
		return -1;
	len = strlen(s);
	/* the fixed fields digit by digit: sscanf alone takes signs and short fields */
	for (i = 0; i < sizeof(shape) - 1; i++)
		if (i >= len || (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i]))
			return -1;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%lf%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6)
		return -1;
	/* then a fraction at most, the Z, and nothing after it */
	if ((size_t)n + 1 != len || s[n] != 'Z' ||
	    strspn(s + 19, "0123456789.") != (size_t)n - 19 || (n > 19 && s[19] != '.'))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || h > 23 || h < 0 || mi < 0 || mi > 59 || !(sec >= 0) ||
	    sec >= 61)
		return -1;
	if ((unsigned)d > mdays[mo - 1] + (mo == 2 && leap(y)))
		return -1;
	*t = (double)days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400.0 + h * 3600.0 +
	     mi * 60.0 + sec;
	return 0;
}
