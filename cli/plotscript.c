// SPDX-License-Identifier: GPL-2.0-only
/* Finding and running the plot/ scripts (cli/plotscript.h). */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/plotscript.h"

#define EXEC_FAILED 127

const char *pt_plot_python(const char *requested)
{
	const char *env = getenv("PTBENCH_PYTHON");

	if (requested)
		return requested;
	if (env && *env)
		return env;
	if (!access(PT_SYSTEM_PYTHON, X_OK))
		return PT_SYSTEM_PYTHON;
	return "python3";
}

void pt_plot_self(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);

	out[n > 0 ? n : 0] = '\0';
}

static bool script_in(const char *dir, const char *name, char *out, size_t len)
{
	return snprintf(out, len, "%s/%s", dir, name) < (int)len && !access(out, R_OK);
}

int pt_plot_script(const char *cmd, const char *name, const char *self, char *out, size_t len)
{
	const char *env = getenv("PTBENCH_PLOTDIR");
	char self_copy[PATH_MAX], dir[PATH_MAX + 32];
	const char *bindir;

	if (env && *env) {
		if (script_in(env, name, out, len))
			return 0;
		fprintf(stderr, "ptbench %s: $PTBENCH_PLOTDIR: %s/%s: %s\n", cmd, env, name,
			strerror(errno ? errno : ENAMETOOLONG));
		return -1;
	}
	if (!*self) {
		fprintf(stderr,
			"ptbench %s: cannot read /proc/self/exe to find the "
			"scripts; set PTBENCH_PLOTDIR to the plot directory\n",
			cmd);
		return -1;
	}
	snprintf(self_copy, sizeof(self_copy), "%s", self);
	bindir = dirname(self_copy);
	snprintf(dir, sizeof(dir), "%s/" PT_PLOT_BUILD_REL, bindir);
	if (script_in(dir, name, out, len))
		return 0;
	snprintf(dir, sizeof(dir), "%s/" PT_PLOT_INSTALL_REL, bindir);
	if (script_in(dir, name, out, len))
		return 0;
	fprintf(stderr,
		"ptbench %s: %s is neither in %s/" PT_PLOT_BUILD_REL
		" nor in %s/" PT_PLOT_INSTALL_REL
		" (build or install ptbench with CMake, or set PTBENCH_PLOTDIR)\n",
		cmd, name, bindir, bindir);
	return -1;
}

int pt_plot_run(const char *cmd, const char *const *argv)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ptbench %s: fork: %s\n", cmd, strerror(errno));
		return PT_EXIT_FAIL;
	}
	if (!pid) {
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "ptbench %s: cannot run %s: %s\n", cmd, argv[0], strerror(errno));
		_exit(EXEC_FAILED);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "ptbench %s: waitpid: %s\n", cmd, strerror(errno));
			return PT_EXIT_FAIL;
		}
	if (!WIFEXITED(status)) {
		fprintf(stderr, "ptbench %s: %s was killed by signal %d\n", cmd,
			argv[1] ? argv[1] : argv[0], WTERMSIG(status));
		return PT_EXIT_FAIL;
	}
	switch (WEXITSTATUS(status)) {
	case PT_EXIT_OK:
	case PT_EXIT_USAGE:
		return WEXITSTATUS(status);
	default:
		return PT_EXIT_FAIL;
	}
}
