// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/path.h"

int pt_path_join(char *out, size_t len, const char *dir, const char *name)
{
	int n = len ? snprintf(out, len, "%s/%s", dir, name) : -1;

	if (n < 0 || (size_t)n >= len) {
		if (len)
			out[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int pt_mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX], *s;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, mode) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(buf, mode) && errno != EEXIST ? -1 : 0;
}
