// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomicfile.h"
#include "util/knobs.h"

/*
 * How path is written: 0 through a temporary renamed into place (a new or
 * regular file, or a symlink to one: the link is replaced, nothing is
 * written through it), 1 directly (a character device or a FIFO named as
 * itself: a rename would replace /dev/null for the whole machine), -1
 * refused with errno (a directory, another special file, a link to one).
 */
static int target_kind(const char *path)
{
	struct stat st;

	if (lstat(path, &st) || S_ISREG(st.st_mode))
		return 0;
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return 1;
	if (S_ISLNK(st.st_mode) && !stat(path, &st) && S_ISREG(st.st_mode))
		return 0;
	errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	return -1;
}

FILE *pt_atomic_open(const char *path, char *tmp, size_t tmplen)
{
	int n = snprintf(tmp, tmplen, "%s.tmp.%d", path, (int)getpid());
	int kind = target_kind(path);
	FILE *f;
	int fd;

	if (n < 0 || (size_t)n >= tmplen) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if (kind < 0)
		return NULL;
	if (kind == 1) {
		tmp[0] = '\0';
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return NULL;
		f = fdopen(fd, "w");
		if (!f)
			close(fd);
		return f;
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

	if (!tmp[0]) { /* written directly: a device or a FIFO, nothing to rename */
		if (fflush(f))
			err = -errno;
		if (fclose(f) && !err)
			err = -errno;
		return err;
	}
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
	if (!tmp[0])
		return;
	unlink(tmp);
	pt_cleanup_remove(tmp);
}
