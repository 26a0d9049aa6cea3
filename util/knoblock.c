// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ownership of ptbench's system changes across runs and crashes.
 *
 * One lock (flock on /run/ptbench/lock) is held by the run that changes
 * knobs, so two runs never save each other's values as "the original". The
 * original value of every knob is appended to /run/ptbench/knobs.journal and
 * synced before the knob is written; a clean exit or a stop signal restores
 * the knobs and removes the journal. After SIGKILL or a crash the journal
 * stays, and the kernel has dropped the dead run's lock: the next run that
 * takes the lock restores what the journal says before it reads any knob.
 * Under PTBENCH_SYSROOT both files live below the sysroot (tests).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/errf.h"
#include "util/fileio.h"
#include "util/knobs.h"
#include "util/sysfs.h"

#define RUN_DIR "/run/ptbench"
#define JOURNAL_MAX (64 * 1024)

static int lock_fd = -1;
static int journal_fd = -1;
static char journal_path[PATH_MAX];
static char recovered[1024];

static int run_dir(char *out, size_t len)
{
	const char *root = pt_sysroot();
	struct stat st;
	int n = snprintf(out, len, "%s/run", root);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	/* /run is there on any systemd host; a fixture sysroot may lack it */
	if (mkdir(out, 0755) && errno != EEXIST)
		return -errno;
	n = snprintf(out, len, "%s%s", root, RUN_DIR);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if (mkdir(out, 0700) && errno != EEXIST)
		return -errno;
	/* lstat: a symlink planted here must not redirect root's writes */
	if (lstat(out, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	return 0;
}

/* The path must be a knob: below the sysroot's /sys or /proc/sys. */
static int knob_path_ok(const char *path)
{
	const char *root = pt_sysroot();
	size_t rl = strlen(root);

	if (strncmp(path, root, rl) || strstr(path, "/../"))
		return 0;
	return !strncmp(path + rl, "/sys/", 5) || !strncmp(path + rl, "/proc/sys/", 10);
}

/* Restore what a dead run's journal holds, newest first. */
static int recover(const char *path)
{
	char *text, *lines[PT_MAX_KNOBS * 4], *p, *save = NULL;
	size_t len, o = 0;
	int n = 0, i, restored = 0, fd;
	FILE *f;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	text = pt_read_stream(f, JOURNAL_MAX, &len);
	fclose(f);
	if (!text)
		return -EIO;
	for (p = strtok_r(text, "\n", &save); p && n < (int)(sizeof(lines) / sizeof(lines[0]));
	     p = strtok_r(NULL, "\n", &save))
		lines[n++] = p;
	for (i = n - 1; i >= 0; i--) {
		char *tab = strchr(lines[i], '\t');
		int kfd;

		if (!tab)
			continue;
		*tab = '\0';
		if (!knob_path_ok(lines[i]))
			continue;
		kfd = open(lines[i], O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (kfd < 0)
			continue;
		if (write(kfd, tab + 1, strlen(tab + 1)) >= 0)
			restored++;
		close(kfd);
		if (o < sizeof(recovered))
			o += (size_t)snprintf(recovered + o, sizeof(recovered) - o, "%s%s=%s",
					      o ? "; " : "", lines[i] + strlen(pt_sysroot()),
					      tab + 1);
	}
	free(text);
	unlink(path);
	return restored;
}

int pt_knob_lock(int wait_s, char *note, size_t notelen)
{
	char dir[PATH_MAX], lock[PATH_MAX + 8];
	time_t start = time(NULL);
	bool told = false;
	int err, n;

	if (note && notelen)
		note[0] = '\0';
	if (lock_fd >= 0)
		return 0;
	err = run_dir(dir, sizeof(dir));
	if (err) {
		pt_errf(note, notelen, "%s%s: %s", pt_sysroot(), RUN_DIR, strerror(-err));
		return err;
	}
	snprintf(lock, sizeof(lock), "%s/lock", dir);
	n = snprintf(journal_path, sizeof(journal_path), "%s/knobs.journal", dir);
	if (n < 0 || (size_t)n >= sizeof(journal_path))
		return -ENAMETOOLONG;
	lock_fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lock_fd < 0) {
		err = -errno;
		pt_errf(note, notelen, "%s: %s", lock, strerror(errno));
		return err;
	}
	while (flock(lock_fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK || time(NULL) - start >= wait_s) {
			err = errno == EWOULDBLOCK ? -EBUSY : -errno;
			close(lock_fd);
			lock_fd = -1;
			pt_errf(note, notelen,
				"%s: another ptbench run holds the lock of system changes%s", lock,
				wait_s ? " (waited " : "");
			if (wait_s && note && notelen) {
				size_t l = strlen(note);

				snprintf(note + l, notelen - l, "%d s)", wait_s);
			}
			return err;
		}
		if (!told) {
			fprintf(stderr,
				"ptbench: waiting up to %d s for another run to finish (%s)\n",
				wait_s, lock);
			told = true;
		}
		sleep(1);
	}
	n = recover(journal_path);
	if (n > 0 && note && notelen)
		snprintf(note, notelen, "restored %d knob(s) a dead run had left changed: %s", n,
			 recovered);
	return 0;
}

const char *pt_knob_recovered(void)
{
	return recovered;
}

int pt_knob_journal(const char *real, const char *value)
{
	char line[PATH_MAX + 160];
	int n;

	if (lock_fd < 0)
		return 0; /* no lock (tests of the knob table alone): no journal */
	if (journal_fd < 0) {
		journal_fd = open(journal_path,
				  O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (journal_fd < 0)
			return -errno;
	}
	n = snprintf(line, sizeof(line), "%s\t%s\n", real, value);
	if (n < 0 || (size_t)n >= sizeof(line) || strpbrk(value, "\t\n"))
		return -EINVAL;
	if (write(journal_fd, line, (size_t)n) != n || fsync(journal_fd))
		return -errno ? -errno : -EIO;
	return 0;
}

/* Async-signal-safe: called once every knob is back. */
void pt_knob_journal_done(void)
{
	if (journal_fd >= 0) {
		close(journal_fd);
		journal_fd = -1;
		unlink(journal_path);
	}
}
