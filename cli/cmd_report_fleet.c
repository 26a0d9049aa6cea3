// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench report --db FILE: the fleet report of a run history, hosts x
 * kernels for the primary metrics and the D128 predictions. The statistics
 * are analysis/fleet.c's, the files fleet_out.c's, the figure
 * plot/fleet.py's (it only draws what fleet.csv holds).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/fleet.h"
#include "cli/commands.h"
#include "cli/fleet.h"
#include "cli/plotscript.h"
#include "harness/runner.h"
#include "util/outdir.h"
#include "util/path.h"

struct fleet_args {
	const char *db, *out, *python;
	const char *tags[PT_FLEET_MAX_TAGS];
	size_t ntags;
	bool force, no_plots;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench report --db FILE [--tag T]... [--out DIR] [--force] [--no-plots]\n"
		"                      [--python PATH]\n"
		"\n"
		"The fleet report of a run history (ptbench history add): hosts x kernels side\n"
		"by side for each case's primary metric and the model's D128 predictions.\n"
		"Runs are grouped by host, CPU model and kernel release, one column each;\n"
		"a cell is the median of its runs' medians, with their spread and count.\n"
		"Writes DIR/FLEET.md (the table), DIR/fleet.csv and DIR/fleet-groups.csv\n"
		"(every figure) and DIR/figures/fleet.png and .svg (plot/fleet.py), and\n"
		"prints the path of FLEET.md. Histories of several hosts are merged by\n"
		"adding their run directories to one file (docs/report.md).\n"
		"\n"
		"options:\n"
		"  --db FILE      the run history (SQLite, ptbench history)\n"
		"  --tag T        only runs with tag T; repeat for several (default: all)\n"
		"  --out DIR      where to write (default results/fleet-<UTC time>); it must\n"
		"                 be new or empty\n"
		"  --force        write into a non-empty --out, removing ptbench's files there\n"
		"  --no-plots     no figure (needs no matplotlib); FLEET.md says so\n"
		"  --python PATH  the Python 3 interpreter for the figure (as 'report')\n"
		"  -h, --help     this text\n"
		"\n"
		"Exit status: 0 written, 1 the figure or a file could not be made (FLEET.md\n"
		"says why), 2 bad usage or input: a file that is not a ptbench history (or a\n"
		"damaged one), a history without runs, a tag no run has, selected runs\n"
		"without rows, an --out that is not empty.\n"
		"See docs/report.md.\n");
}

/* 0 parsed, 1 --help given, or PT_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct fleet_args *a)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },	 { "tag", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' }, { "force", no_argument, NULL, 'F' },
		{ "no-plots", no_argument, NULL, 'n' },	 { "python", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },	 { NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			a->db = optarg;
			break;
		case 't':
			if (a->ntags == PT_FLEET_MAX_TAGS)
				return pt_usage_error("report", "more than %d --tag options",
						      PT_FLEET_MAX_TAGS);
			a->tags[a->ntags++] = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'F':
			a->force = true;
			break;
		case 'n':
			a->no_plots = true;
			break;
		case 'p':
			a->python = optarg;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			return pt_opt_error("report", c, argc, argv);
		}
	}
	if (optind < argc)
		return pt_usage_error("report",
				      "--db takes no run directory ('%s'); 'report DIR' reports "
				      "one run",
				      argv[optind]);
	if (!a->db || !a->db[0])
		return pt_usage_error("report", "--db needs a history file");
	return 0;
}

/* The output directory: --out, or a new results/fleet-<UTC time>. */
static int make_out_dir(const struct fleet_args *a, char *buf, size_t len)
{
	char stamp[32], err[PATH_MAX + 200], *p;
	bool created;

	if (a->out) {
		snprintf(buf, len, "%s", a->out);
	} else {
		pt_utc_now(stamp, sizeof(stamp));
		for (p = stamp; *p; p++)
			if (*p == '-' || *p == ':')
				memmove(p, p + 1, strlen(p));
		snprintf(buf, len, "results/fleet-%s", stamp);
		mkdir("results", 0755);
	}
	if (pt_outdir_prepare(buf, a->force, &created, err, sizeof(err)))
		return pt_usage_error("report", "--out %s", err);
	return 0;
}

/* Draw figures/fleet.png and .svg: 0, or 1 with the reason in note. */
static int draw(const struct fleet_args *a, const char *dir, char *note, size_t len)
{
	char script[PATH_MAX], self[PATH_MAX];
	const char *argv[5];

	if (a->no_plots) {
		snprintf(note, len, "--no-plots was given");
		return 0;
	}
	pt_plot_self(self, sizeof(self));
	if (pt_plot_script("report", "fleet.py", self, script, sizeof(script))) {
		snprintf(note, len, "plot/fleet.py was not found (see the message of ptbench)");
		return PT_EXIT_FAIL;
	}
	argv[0] = pt_plot_python(a->python);
	argv[1] = script;
	argv[2] = dir;
	argv[3] = "--quiet"; /* stdout is FLEET.md's path alone */
	argv[4] = NULL;
	if (pt_plot_run("report", argv)) {
		snprintf(note, len,
			 "plot/fleet.py failed (its message is on stderr; matplotlib missing?)");
		return PT_EXIT_FAIL;
	}
	note[0] = '\0';
	return 0;
}

static int load(const struct fleet_args *a, struct pt_fleet_data *d, struct pt_fleet *f)
{
	struct pt_history *h;
	enum pt_history_err e;
	char err[PATH_MAX + 512];

	e = pt_history_open(a->db, false, &h, err, sizeof(err));
	if (!e) {
		e = pt_fleet_load(h, a->tags, a->ntags, d, err, sizeof(err));
		pt_history_close(h);
	}
	if (e) {
		fprintf(stderr, "ptbench report: %s\n", err);
		return e == PT_HIST_EINPUT ? PT_EXIT_USAGE : PT_EXIT_FAIL;
	}
	if (pt_fleet_build(d->runs, d->nruns, d->pts, d->npts, f)) {
		fprintf(stderr, "ptbench report: out of memory\n");
		return PT_EXIT_FAIL;
	}
	if (!f->nseries)
		return pt_usage_error("report",
				      "%s: the runs selected hold no primary metric and no D128 "
				      "prediction: nothing to report",
				      a->db);
	return 0;
}

int cmd_report_fleet(int argc, char **argv)
{
	struct fleet_args a = { 0 };
	struct pt_fleet_data d = { 0 };
	struct pt_fleet f = { 0 };
	char dir[PATH_MAX], note[256], path[PATH_MAX];
	int ret, err, plotted;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret == 1 ? PT_EXIT_OK : ret;
	ret = load(&a, &d, &f);
	if (!ret)
		ret = make_out_dir(&a, dir, sizeof(dir));
	if (ret)
		goto out;
	err = fleet_write_csv(dir, &f);
	if (err) {
		fprintf(stderr, "ptbench report: %s: writing the CSVs: %s\n", dir, strerror(-err));
		ret = PT_EXIT_FAIL;
		goto out;
	}
	plotted = draw(&a, dir, note, sizeof(note));
	err = fleet_write_md(dir, &f,
			     &(struct fleet_source){ a.db, a.tags, a.ntags, d.history_runs,
						     note[0] ? note : NULL });
	if (err) {
		fprintf(stderr, "ptbench report: %s/FLEET.md: %s\n", dir, strerror(-err));
		ret = PT_EXIT_FAIL;
		goto out;
	}
	if (pt_path_join(path, sizeof(path), dir, "FLEET.md"))
		snprintf(path, sizeof(path), "%s", dir);
	printf("%s\n", path);
	ret = plotted;
out:
	pt_fleet_free(&f);
	pt_fleet_data_free(&d);
	return ret;
}
