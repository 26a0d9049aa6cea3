// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/knobs.h"
#include "util/sysfs.h"

struct pt_knob {
	char path[512]; /* resolved (sysroot) path, ready for the handler */
	char value[128]; /* the value to restore */
};

static struct pt_knob knobs[PT_MAX_KNOBS];
static volatile sig_atomic_t nknobs;
/* Only the process that changed the knobs restores them, not its children. */
static pid_t owner;

static int knob_index(const char *real)
{
	int i;

	for (i = 0; i < nknobs; i++)
		if (!strcmp(knobs[i].path, real))
			return i;
	return -1;
}

int pt_knob_set(const char *path, const char *value)
{
	char real[512];
	int err;

	pt_knob_install_handlers();
	if (pt_sys_path(path, real, sizeof(real)))
		return -ENAMETOOLONG;
	if (knob_index(real) < 0) {
		/* no wait here: a run that wants to wait takes the lock first */
		err = pt_knob_lock(0, NULL, 0);
		if (err && err != -EACCES && err != -EROFS && err != -EPERM)
			return err;
		struct pt_knob *k;

		if (nknobs >= PT_MAX_KNOBS)
			return -ENOSPC;
		k = &knobs[nknobs];
		snprintf(k->path, sizeof(k->path), "%s", real);
		err = pt_sys_read_choice(path, k->value, sizeof(k->value));
		if (err)
			return err;
		/*
		 * The journal first: a run killed between the two writes must
		 * leave the original value where the next run finds it.
		 */
		err = pt_knob_journal(real, k->value);
		if (err)
			return err;
		nknobs++; /* published only once complete */
	}
	return pt_sys_write(path, value);
}

/* open/write/close only: safe in a signal handler. */
void pt_knob_restore_all(void)
{
	if (owner && getpid() != owner)
		return;
	while (nknobs > 0) {
		struct pt_knob *k = &knobs[nknobs - 1];
		int fd = open(k->path, O_WRONLY | O_TRUNC | O_CLOEXEC);

		if (fd >= 0) {
			ssize_t n = write(fd, k->value, strlen(k->value));

			(void)n;
			close(fd);
		}
		nknobs--;
	}
	pt_knob_journal_done();
}

int pt_knob_count(void)
{
	return nknobs;
}

#define PT_MAX_CLEANUP 8

/* Static: the signal handler unlinks these and may not allocate. */
static char cleanup_paths[PT_MAX_CLEANUP][PATH_MAX];
static char cleanup_dir_path[PATH_MAX];

void pt_cleanup_dir(const char *path)
{
	pt_knob_install_handlers();
	snprintf(cleanup_dir_path, sizeof(cleanup_dir_path), "%s", path ? path : "");
}

void pt_cleanup_add(const char *path)
{
	int i;

	pt_knob_install_handlers();
	for (i = 0; i < PT_MAX_CLEANUP; i++) {
		if (!cleanup_paths[i][0]) {
			snprintf(cleanup_paths[i], sizeof(cleanup_paths[i]), "%s", path);
			return;
		}
	}
}

void pt_cleanup_remove(const char *path)
{
	int i;

	for (i = 0; i < PT_MAX_CLEANUP; i++)
		if (!strcmp(cleanup_paths[i], path))
			cleanup_paths[i][0] = '\0';
}

static void on_signal(int sig)
{
	int i;

	if (!owner || getpid() == owner) {
		for (i = 0; i < PT_MAX_CLEANUP; i++)
			if (cleanup_paths[i][0])
				unlink(cleanup_paths[i]);
		if (cleanup_dir_path[0])
			rmdir(cleanup_dir_path); /* fails, as it should, unless empty */
	}
	pt_knob_restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_exit_restore(void)
{
	pt_knob_restore_all();
}

void pt_on_stop_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL); /* e.g. "ptbench run | head" */
}

void pt_knob_install_handlers(void)
{
	static int installed;

	if (installed)
		return;
	installed = 1;
	owner = getpid();
	pt_on_stop_signals(on_signal);
	atexit(on_exit_restore);
}
