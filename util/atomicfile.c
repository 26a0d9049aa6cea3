// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "util/atomicfile.h"
#include "util/knobs.h"

FILE *pt_atomic_open(const char *path, char *tmp, size_t tmplen)
{
	int n = snprintf(tmp, tmplen, "%s.tmp.%d", path, (int)getpid());

	FILE *f;
	int fd;

	if (n < 0 || (size_t)n >= tmplen) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	/*
	 * O_EXCL and O_NOFOLLOW: ptbench runs as root, and a name planted
	 * beforehand (a symlink to /etc/passwd) must make this fail, not be
	 * written through.
	 */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return NULL;
	}
	pt_cleanup_add(tmp);
	return f;
}

int pt_atomic_commit(FILE *f, const char *tmp, const char *path)
{
	int err = 0;

	if (fflush(f) || fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	pt_cleanup_remove(tmp);
	return err;
}

void pt_atomic_abort(FILE *f, const char *tmp)
{
	if (f)
		fclose(f);
	unlink(tmp);
	pt_cleanup_remove(tmp);
}
