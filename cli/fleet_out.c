// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fleet report's files: FLEET.md (one table, hosts x kernels) and the
 * two CSVs plot/fleet.py draws from. Every number comes from
 * analysis/fleet.c; this file lays them out.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/compare.h"
#include "cli/fleet.h"
#include "harness/runner.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/mdtext.h"
#include "util/path.h"

/* ---- CSV ---- */

static void csv_field(FILE *f, const char *s, bool first)
{
	char buf[2048];

	if (!first)
		fputc(',', f);
	if (pt_csv_escape(s, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "\"(field too long)\"");
	fputs(buf, f);
}

static void csv_group(FILE *f, const struct pt_fleet_group *g)
{
	csv_field(f, g->host, true);
	csv_field(f, g->cpu_model, false);
	csv_field(f, g->kernel_release, false);
	fprintf(f, ",%zu", g->nruns);
	csv_field(f, g->tags, false);
}

static void write_cells(FILE *f, const struct pt_fleet *fl)
{
	size_t s, g;

	fputs("host,cpu_model,kernel_release,runs,tags,workload,case,params,metric,unit,better,"
	      "kind,median,min,max,spread_pct,fleet_median,relative_cost\n",
	      f);
	for (s = 0; s < fl->nseries; s++) {
		const struct pt_fleet_series *x = &fl->series[s];

		for (g = 0; g < fl->ngroups; g++) {
			const struct pt_fleet_cell *c = pt_fleet_cell(fl, s, g);

			if (!c->nruns)
				continue;
			csv_group(f, &fl->groups[g]);
			csv_field(f, x->workload, false);
			csv_field(f, x->cs, false);
			csv_field(f, x->params, false);
			csv_field(f, x->metric, false);
			csv_field(f, x->unit, false);
			csv_field(f, pt_better_name(x->better), false);
			csv_field(f, x->modelled ? "modelled" : "measured", false);
			pt_csv_put_num(f, c->median);
			pt_csv_put_num(f, c->min);
			pt_csv_put_num(f, c->max);
			pt_csv_put_num(f, c->spread_pct);
			pt_csv_put_num(f, x->fleet_median);
			pt_csv_put_num(f, c->rel);
			fputc('\n', f);
		}
	}
}

static void write_groups(FILE *f, const struct pt_fleet *fl)
{
	size_t g;

	fputs("host,cpu_model,kernel_release,runs,tags,measured_series,measured_relative_cost,"
	      "modelled_series,modelled_relative_cost\n",
	      f);
	for (g = 0; g < fl->ngroups; g++) {
		const struct pt_fleet_group *x = &fl->groups[g];

		csv_group(f, x);
		fprintf(f, ",%zu", x->nmeasured);
		pt_csv_put_num(f, x->measured_rel);
		fprintf(f, ",%zu", x->nmodelled);
		pt_csv_put_num(f, x->modelled_rel);
		fputc('\n', f);
	}
}

static int write_file(const char *dir, const char *name, const struct pt_fleet *fl,
		      const struct fleet_source *src,
		      void (*fn)(FILE *, const struct pt_fleet *, const struct fleet_source *))
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	FILE *f;

	if (pt_path_join(path, sizeof(path), dir, name))
		return -ENAMETOOLONG;
	f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f)
		return -(errno ? errno : EIO);
	fn(f, fl, src);
	return pt_atomic_commit(f, tmp, path);
}

static void cells_csv(FILE *f, const struct pt_fleet *fl, const struct fleet_source *src)
{
	(void)src;
	write_cells(f, fl);
}

static void groups_csv(FILE *f, const struct pt_fleet *fl, const struct fleet_source *src)
{
	(void)src;
	write_groups(f, fl);
}

int fleet_write_csv(const char *dir, const struct pt_fleet *f)
{
	int err = write_file(dir, "fleet.csv", f, NULL, cells_csv);

	return err ? err : write_file(dir, "fleet-groups.csv", f, NULL, groups_csv);
}

/* ---- FLEET.md ---- */

static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	pt_md_escape(f, s);
	fputc(' ', f);
}

static void md_value(FILE *f, const struct pt_fleet_cell *c)
{
	char num[32];

	if (!c->nruns) {
		fputs("| - ", f);
		return;
	}
	cmp_fmt_num(c->median, num, sizeof(num));
	if (isnan(c->spread_pct))
		fprintf(f, "| %s (1) ", num);
	else if (isinf(c->spread_pct))
		fprintf(f, "| %s ±inf (%zu) ", num, c->nruns);
	else
		fprintf(f, "| %s ±%.*f%% (%zu) ", num, c->spread_pct < 10 ? 1 : 0, c->spread_pct,
			c->nruns);
}

static void md_header(FILE *f, const struct pt_fleet *fl)
{
	size_t g;

	fputs("| series | metric | unit | better | kind ", f);
	for (g = 0; g < fl->ngroups; g++) {
		/* our own <br>: the names in it are escaped */
		fputs("| ", f);
		pt_md_escape(f, fl->groups[g].host);
		fputs("<br>", f);
		pt_md_escape(f, fl->groups[g].cpu_model[0] ? fl->groups[g].cpu_model : "?");
		fputs("<br>", f);
		pt_md_escape(f, fl->groups[g].kernel_release);
		fputc(' ', f);
	}
	fputs("|\n|---|---|---|---|---", f);
	for (g = 0; g < fl->ngroups; g++)
		fputs("|---:", f);
	fputs("|\n", f);
}

static void md_rows(FILE *f, const struct pt_fleet *fl)
{
	char label[1024];
	size_t s, g;

	for (s = 0; s < fl->nseries; s++) {
		const struct pt_fleet_series *x = &fl->series[s];

		if (x->params[0])
			snprintf(label, sizeof(label), "%s/%s [%s]", x->workload, x->cs, x->params);
		else
			snprintf(label, sizeof(label), "%s/%s", x->workload, x->cs);
		md_cell(f, label);
		md_cell(f, x->metric);
		md_cell(f, x->unit);
		md_cell(f, pt_better_name(x->better));
		fputs(x->modelled ? "| **modelled** " : "| measured ", f);
		for (g = 0; g < fl->ngroups; g++)
			md_value(f, pt_fleet_cell(fl, s, g));
		fputs("|\n", f);
	}
}

static void md_summary_row(FILE *f, const struct pt_fleet *fl, bool modelled)
{
	size_t g;

	fprintf(f, "| **relative cost** | median over the %s series | × | lower | %s ",
		modelled ? "modelled" : "measured", modelled ? "**modelled**" : "measured");
	for (g = 0; g < fl->ngroups; g++) {
		double r = modelled ? fl->groups[g].modelled_rel : fl->groups[g].measured_rel;
		size_t n = modelled ? fl->groups[g].nmodelled : fl->groups[g].nmeasured;

		if (isnan(r))
			fputs("| - ", f);
		else
			fprintf(f, "| **%.3f** (%zu) ", r, n);
	}
	fputs("|\n", f);
}

static void md_columns(FILE *f, const struct pt_fleet *fl)
{
	size_t g;

	fputs("\nThe columns, one per host and kernel (host · CPU · kernel release: runs, tags):\n\n",
	      f);
	for (g = 0; g < fl->ngroups; g++) {
		const struct pt_fleet_group *x = &fl->groups[g];

		fputs("- ", f);
		pt_md_escape(f, x->host[0] ? x->host : "(no host name)");
		fputs(" · ", f);
		pt_md_escape(f, x->cpu_model[0] ? x->cpu_model : "(CPU unknown)");
		fputs(" · ", f);
		pt_md_escape(f, x->kernel_release[0] ? x->kernel_release : "(kernel unknown)");
		fprintf(f, ": %zu run%s, tags ", x->nruns, x->nruns == 1 ? "" : "s");
		pt_md_escape(f, x->tags[0] ? x->tags : "(none)");
		fputc('\n', f);
	}
}

static bool any_modelled(const struct pt_fleet *fl)
{
	size_t s;

	for (s = 0; s < fl->nseries; s++)
		if (fl->series[s].modelled)
			return true;
	return false;
}

static void md_intro(FILE *f, const struct pt_fleet *fl, const struct fleet_source *src)
{
	char now[32];
	size_t i;

	pt_utc_now(now, sizeof(now));
	fputs("# Fleet report: hosts × kernels\n\nFrom the run history ", f);
	pt_md_escape(f, src->db);
	fprintf(f, ": %zu of its %zu runs", fl->nruns, src->history_runs);
	for (i = 0; i < src->ntags; i++) {
		fputs(i ? ", " : " (tags ", f);
		pt_md_escape(f, src->tags[i]);
	}
	fprintf(f, "%s, in %zu columns; written %s by ptbench %s.\n\n", src->ntags ? ")" : "",
		fl->ngroups, now, PTBENCH_VERSION);
	fputs("Each cell: the median over that host and kernel's runs of each run's median, "
	      "± half the range of those run medians in % of it (how far the runs of one "
	      "machine and kernel disagree), and (the number of runs); `-` where no run has "
	      "the series. Rows marked **modelled** are D128 predictions of ptbench's model, "
	      "not measurements; the others are measured. The **relative cost** rows: each "
	      "column's median, over its series, of its value divided by the fleet's median "
	      "(the median over the columns), inverted for higher-is-better metrics, so above "
	      "1 is costlier than the fleet.\n\n",
	      f);
	if (fl->undeclared)
		fputs("No run declares its cases' primary metrics (runs made before they "
		      "existed): every measured series is shown.\n\n",
		      f);
	if (!any_modelled(fl))
		fputs("These runs hold no D128 predictions (`d128_predicted_*`, "
		      "`pgtable_bytes_model_d128`, `pgtable_d128_d64_ratio`).\n\n",
		      f);
}

static void fleet_md(FILE *f, const struct pt_fleet *fl, const struct fleet_source *src)
{
	md_intro(f, fl, src);
	md_header(f, fl);
	md_rows(f, fl);
	md_summary_row(f, fl, false);
	if (any_modelled(fl))
		md_summary_row(f, fl, true);
	md_columns(f, fl);
	fputs("\nAll the figures: [fleet.csv](fleet.csv) (one row per series and column), "
	      "[fleet-groups.csv](fleet-groups.csv) (one per column).\n\n",
	      f);
	if (src->figure_note)
		fprintf(f, "No figure: %s.\n", src->figure_note);
	else
		fputs("![Each column's cost relative to the fleet median, per series: measured "
		      "primary metrics and modelled D128 predictions](figures/fleet.png)\n",
		      f);
}

int fleet_write_md(const char *dir, const struct pt_fleet *f, const struct fleet_source *src)
{
	return write_file(dir, "FLEET.md", f, src, fleet_md);
}
