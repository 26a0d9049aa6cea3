// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

FILE *pt_open_regular(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, saved;
	FILE *f;

	/* O_NONBLOCK: opening a FIFO with no writer would otherwise block here */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		saved = errno;
		pt_errf(err, errlen, "%s: %s", path, strerror(saved));
		errno = saved;
		return NULL;
	}
	if (fstat(fd, &st)) {
		saved = errno;
		pt_errf(err, errlen, "%s: %s", path, strerror(saved));
		goto bad;
	}
	if (!S_ISREG(st.st_mode)) {
		saved = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		pt_errf(err, errlen, "%s: %s, not a regular file", path,
			S_ISDIR(st.st_mode)    ? "a directory"
			: S_ISFIFO(st.st_mode) ? "a FIFO"
			: S_ISCHR(st.st_mode)  ? "a character device"
			: S_ISBLK(st.st_mode)  ? "a block device"
			: S_ISSOCK(st.st_mode) ? "a socket"
					       : "of an unknown type");
		goto bad;
	}
	/* a regular file: blocking reads again, as stdio expects */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "rb"))) {
		saved = errno;
		pt_errf(err, errlen, "%s: %s", path, strerror(saved));
		goto bad;
	}
	return f;
bad:
	close(fd);
	errno = saved;
	return NULL;
}

char *pt_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	FILE *f = pt_open_regular(path, err, errlen);
	char *buf;
	int saved;

	if (!f)
		return NULL;
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
