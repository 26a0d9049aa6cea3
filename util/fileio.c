// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>

#include "util/fileio.h"

char *pt_read_stream(FILE *f, size_t max, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap + 1), *nb;

	if (!buf)
		return NULL;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			if (cap >= max)
				break;
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
	}
	if (ferror(f)) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}
