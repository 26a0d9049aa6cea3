/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Python scripts of plot/, found and run from a command (report, and
 * report --db). They are found beside this binary: the build copies plot/
 * to share/ptbench/plot beside ptbench, and 'cmake --install' puts it
 * under PREFIX/share with the binary in PREFIX/bin. No source path is
 * compiled in, so an installed ptbench works after the source tree is gone.
 */
#ifndef PTBENCH_CLI_PLOTSCRIPT_H
#define PTBENCH_CLI_PLOTSCRIPT_H

#include <stddef.h>

/* Debian's python3-matplotlib is installed for the system interpreter. */
#define PT_SYSTEM_PYTHON "/usr/bin/python3"
#define PT_PLOT_BUILD_REL "share/ptbench/plot"
#define PT_PLOT_INSTALL_REL "../share/ptbench/plot"

/* requested, else $PTBENCH_PYTHON, else PT_SYSTEM_PYTHON where it exists, else python3. */
const char *pt_plot_python(const char *requested);
/* This binary's path, so a script can run ptbench; "" when unknown. */
void pt_plot_self(char *out, size_t len);
/*
 * The path of the script name: in $PTBENCH_PLOTDIR, else beside self.
 * 0, or -1 with a message naming "ptbench cmd" on stderr.
 */
int pt_plot_script(const char *cmd, const char *name, const char *self, char *out, size_t len);
/*
 * Run argv (argv[0] the interpreter, NULL-terminated) and wait: its exit
 * status when 0 (done) or 2 (bad input), 1 for anything else.
 */
int pt_plot_run(const char *cmd, const char *const *argv);

#endif
