// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errf.h"
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

char *pt_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	int saved;

	if (!f) {
		saved = errno;
		pt_errf(err, errlen, "%s: %s", path, strerror(saved));
		errno = saved;
		return NULL;
	}
	buf = pt_read_stream(f, max, len);
	saved = buf ? 0 : errno ? errno : EIO;
	/* pt_read_stream stops at about max: one byte more means the file is larger */
	if (buf && (*len > max || fgetc(f) != EOF)) {
		free(buf);
		buf = NULL;
		saved = EFBIG;
		pt_errf(err, errlen, "%s: larger than %zu bytes", path, max);
	} else if (!buf) {
		pt_errf(err, errlen, "%s: cannot read: %s", path, strerror(saved));
	}
	fclose(f);
	if (!buf)
		errno = saved;
	return buf;
}
