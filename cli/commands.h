/* SPDX-License-Identifier: GPL-2.0-only */
/* The ptbench subcommands; each parses its own options. */
#ifndef PTBENCH_COMMANDS_H
#define PTBENCH_COMMANDS_H

enum { PT_EXIT_OK = 0, PT_EXIT_FAIL = 1, PT_EXIT_USAGE = 2 };

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_model_walk(int argc, char **argv);
int cmd_model_ops(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_report(int argc, char **argv);
/* report --db: the fleet report of a history (cmd_report.c hands over). */
int cmd_report_fleet(int argc, char **argv);
int cmd_history(int argc, char **argv);

/* "error: ..." on stderr, for usage errors; returns PT_EXIT_USAGE. */
int pt_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The usage error for what getopt_long returned as c with opterr = 0 and
 * ':' first in its option string: a value missing (':') or an option
 * unknown (anything else), named as typed (-x inside a cluster such as
 * -vx, --name as given); returns PT_EXIT_USAGE.
 */
int pt_opt_error(const char *cmd, int c, int argc, char *const argv[]);

#endif
