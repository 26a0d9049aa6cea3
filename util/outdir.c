// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE /* O_DIRECTORY, O_NOFOLLOW, fdopendir */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/errf.h"
#include "util/outdir.h"

const char *const pt_outdir_artefacts[] = {
	"results.csv",
	"meta.json",
	"REPORT.md",
	"REPORT-series.md",
	"figures",
	"plot-data",
	"walk_model.csv",
	"walk_calibration.txt",
	/* ptbench report --db */
	"FLEET.md",
	"fleet.csv",
	"fleet-groups.csv",
	NULL,
};

/*
 * name below dirfd, a directory tree included, never following a symlink:
 * a link planted in figures/ is removed, not what it points to.
 */
static int remove_at(int at, const char *name, int depth)
{
	struct dirent *e;
	int fd, err = 0;
	DIR *d;

	if (!unlinkat(at, name, 0) || errno == ENOENT)
		return 0;
	if ((errno != EISDIR && errno != EPERM) || depth > 32)
		return -1;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while (!err && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			err = remove_at(dirfd(d), e->d_name, depth + 1);
	closedir(d);
	if (err)
		return -1;
	return unlinkat(at, name, AT_REMOVEDIR) && errno != ENOENT ? -1 : 0;
}

/* NAME.tmp.PID of an artefact: what a writer killed by SIGKILL leaves */
static bool stale_temp(const char *name)
{
	const char *tmp = strstr(name, ".tmp.");
	int i;

	if (!tmp || !tmp[5] || tmp[5 + strspn(tmp + 5, "0123456789")])
		return false;
	for (i = 0; pt_outdir_artefacts[i]; i++)
		if (strlen(pt_outdir_artefacts[i]) == (size_t)(tmp - name) &&
		    !strncmp(name, pt_outdir_artefacts[i], (size_t)(tmp - name)))
			return true;
	return false;
}

static int remove_stale_temps(int fd)
{
	struct dirent *e;
	int dup_fd = dup(fd), err = 0;
	DIR *d;

	if (dup_fd < 0)
		return -1;
	d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return -1;
	}
	while ((e = readdir(d)))
		if (stale_temp(e->d_name) && unlinkat(fd, e->d_name, 0) && errno != ENOENT)
			err = -1;
	closedir(d);
	return err;
}

/* The first entry of dir other than . and .. into first; -1 unreadable. */
static int first_entry(const char *dir, char *first, size_t len)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	first[0] = '\0';
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(first, len, "%s", e->d_name);
			break;
		}
	closedir(d);
	return 0;
}

static int fail(int e, char *err, size_t errlen, const char *fmt, const char *dir, const char *x)
{
	pt_errf(err, errlen, fmt, dir, x);
	errno = e;
	return -1;
}

int pt_outdir_prepare(const char *dir, bool force, bool *created, char *err, size_t errlen)
{
	char first[256];
	struct stat st;
	int i, fd;

	*created = false;
	if (!mkdir(dir, 0755))
		*created = true;
	else if (errno != EEXIST)
		return fail(errno, err, errlen, "%s: cannot create: %s", dir, strerror(errno));
	if (stat(dir, &st))
		return fail(errno, err, errlen, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fail(ENOTDIR, err, errlen, "%s: %s", dir, "not a directory");
	if (st.st_uid != geteuid()) {
		pt_errf(err, errlen,
			"%s: owned by uid %u, not by this user (uid %u); another user could "
			"replace the files in it with symlinks",
			dir, (unsigned)st.st_uid, (unsigned)geteuid());
		errno = EPERM;
		return -1;
	}
	if (st.st_mode & S_IWOTH)
		return fail(EPERM, err, errlen,
			    "%s: writable by others (mode %s); another user could replace the "
			    "files in it with symlinks",
			    dir, (st.st_mode & S_ISVTX) ? "o+wt" : "o+w");
	if (*created)
		return 0;
	if (force) {
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return fail(errno, err, errlen, "%s: %s", dir, strerror(errno));
		for (i = 0; pt_outdir_artefacts[i]; i++)
			if (remove_at(fd, pt_outdir_artefacts[i], 0)) {
				int e = errno;

				close(fd);
				pt_errf(err, errlen, "%s/%s: cannot remove: %s", dir,
					pt_outdir_artefacts[i], strerror(e));
				errno = e;
				return -1;
			}
		if (remove_stale_temps(fd)) {
			int e = errno;

			close(fd);
			pt_errf(err, errlen, "%s: cannot remove a stale temporary file: %s", dir,
				strerror(e));
			errno = e;
			return -1;
		}
		close(fd);
		return 0;
	}
	if (first_entry(dir, first, sizeof(first)))
		return fail(errno, err, errlen, "%s: %s", dir, strerror(errno));
	if (first[0])
		return fail(EEXIST, err, errlen,
			    "%s: not empty (it holds '%s'); choose a new directory, or --force "
			    "to remove an earlier run's results, report and figures from it",
			    dir, first);
	return 0;
}
