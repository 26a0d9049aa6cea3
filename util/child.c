// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/child.h"
#include "util/knobs.h"

static volatile sig_atomic_t child_pid, stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

void pt_child_forward_signals(void)
{
	pt_on_stop_signals(on_signal);
}

int pt_child_stop_signal(void)
{
	return stop_signal;
}

static void child_exec(const char *who, char *const argv[], const char *log)
{
	int fd;

	/* the child stops as the signal says, restoring what it changed itself */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (log) {
		/* never through a link planted in its place: the log is root's */
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
	}
	execv(argv[0], argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", who, argv[0], strerror(errno));
	_exit(127);
}

int pt_child_run(const char *who, char *const argv[], const char *log, int *status)
{
	int wstatus;
	pid_t pid;

	fflush(NULL); /* or the child would write this process's buffers again */
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		child_exec(who, argv, log);
	child_pid = pid;
	if (stop_signal) /* arrived between fork and here */
		kill(pid, stop_signal);
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			child_pid = 0;
			return -1;
		}
	}
	child_pid = 0;
	if (stop_signal)
		return stop_signal;
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	return 0;
}
