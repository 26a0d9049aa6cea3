// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/steal.h"
#include "util/sysfs.h"

int pt_steal_parse(const char *stat, long ticks_per_s, double *seconds)
{
	unsigned long long f[8];

	if (ticks_per_s <= 0 || strncmp(stat, "cpu ", 4))
		return -1;
	if (sscanf(stat + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3],
		   &f[4], &f[5], &f[6], &f[7]) != 8)
		return -1;
	*seconds = (double)f[7] / (double)ticks_per_s;
	return 0;
}

int pt_steal_read(double *seconds)
{
	char buf[512];

	if (pt_sys_read("/proc/stat", buf, sizeof(buf)) < 0)
		return -1;
	return pt_steal_parse(buf, sysconf(_SC_CLK_TCK), seconds);
}
