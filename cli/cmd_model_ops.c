// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench model ops: what D128 would cost the page-table operations a run
 * measured (analysis/opcost.h, docs/opcost.md). Prints the predictions,
 * the replicas and the validation; writes DIR/ops_model.csv and the
 * d128_predicted_* rows of DIR/results.csv.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/opcost.h"
#include "cli/commands.h"
#include "cli/model.h"
#include "util/atomicfile.h"
#include "util/path.h"
#include "util/table.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptbench model ops --results DIR [--no-write]\n"
		"\n"
		"Predict, from one D64 run, what D128 (16-byte descriptors, 256 per 4K table,\n"
		"5 levels at VA 48, 1M PMD blocks) would cost each fork, mprotect, munmap and\n"
		"anonymous fault case it measured. Every prediction is modelled: the run's\n"
		"D64 time, split by the case's cpu-clock profile into page-table components,\n"
		"each scaled by its structural count ratio (model/pgtable) and by the ptops\n"
		"replicas' D128/D64 cost of the same run; a range from the replicas' interval,\n"
		"the share of each component the replica accounts for, and the profile's\n"
		"sampling error. Without a profile the whole case is scaled as its main\n"
		"component (the replica bound), and the output says so. Also prints the\n"
		"validation: the profile's coverage of the timed cost, each replica's bound\n"
		"on the kernel function it stands for, and two held-out predictions (the\n"
		"mTHP 64K fault from the 4K and THP faults; the largest dense 4K fork from\n"
		"the smaller ones). Not modelled: D128 hardware's own microarchitecture,\n"
		"lock contention, the translation cost of the operation's own accesses.\n"
		"\n"
		"options:\n"
		"  --results DIR  the run (results.csv, meta.json)\n"
		"  --no-write     print only: none of DIR/ops_model.csv, DIR/ops_validation.csv\n"
		"                 and the d128_predicted_* rows of DIR/results.csv\n"
		"  -h, --help     this text\n"
		"\n"
		"Exit status: 0 done, 1 the files could not be written, 2 bad usage or\n"
		"input (no run, no case the model covers). See docs/opcost.md.\n");
}

static void fmt(char *out, size_t len, const char *f, double v)
{
	if (v != v)
		snprintf(out, len, "-");
	else
		snprintf(out, len, f, v);
}

static void print_predictions(const struct pt_opcost *o)
{
	struct pt_table t = { .ncol = 7, .right = { false, false, true, true, true, true, false } };
	char a[32], b[32], c[64], d[32], e[32];
	size_t i;

	pt_table_row(&t, "case", "metric", "D64 (measured)", "D128 (modelled)", "ratio [range]",
		     "coverage", "basis");
	for (i = 0; i < o->n; i++) {
		const struct pt_opcost_row *r = &o->rows[i];

		fmt(a, sizeof(a), "%.0f", r->t64);
		fmt(b, sizeof(b), "%.0f", r->t64 * r->pred.ratio);
		snprintf(c, sizeof(c), "%.3f [%.3f, %.3f]", r->pred.ratio, r->pred.ratio_lo,
			 r->pred.ratio_hi);
		fmt(d, sizeof(d), "%.2f", r->coverage >= 0 ? r->coverage : NAN);
		snprintf(e, sizeof(e), "%s", r->profiled ? "profile" : "no profile: replica bound");
		pt_table_row(&t, r->s->cs, r->s->metric, a, b, c, d, e);
	}
	printf("D128 against D64 for the same work (modelled; per-case detail in ops_model.csv):\n");
	pt_table_print(&t, stdout, "  ");
}

static void print_replicas(const struct pt_opcost *o)
{
	int k;

	printf("\nreplicas (ptops, %s, ns per entry; alloc per table):\n",
	       o->replica_size[0] ? o->replica_size : "none in this run");
	for (k = 0; k < PT_REPL_N; k++) {
		const struct pt_replica_cost *rc = &o->rep[k];

		if (!rc->have) {
			printf("  %-7s not measured: its components scale with their counts only\n",
			       pt_replica_name(k));
			continue;
		}
		printf("  %-7s D64 %.2f  D128 %.2f  ratio %.3f [%.3f, %.3f]\n", pt_replica_name(k),
		       rc->d64, rc->d128, rc->ratio, rc->ratio_lo, rc->ratio_hi);
	}
}

static void print_heldout(const char *what, const struct pt_opcost_heldout *h)
{
	if (!h->have) {
		printf("  %s: not checked (the run lacks the cases)\n", what);
		return;
	}
	printf("  %s: %s predicted %.0f ns, measured %.0f ns, error %+.1f%% (%s)\n", what,
	       h->target, h->predicted, h->measured, 100 * h->err, h->what);
}

static void print_validation(const struct pt_opcost *o)
{
	size_t i;

	printf("\nvalidation on this D64 kernel:\n");
	for (i = 0; i < o->n; i++) {
		const struct pt_opcost_row *r = &o->rows[i];

		if (r->profiled && r->coverage >= 0)
			printf("  %s: profile covers %.1f%% of the timed cost (%.0f samples)\n",
			       r->s->cs, 100 * r->coverage, r->samples);
		if (r->bound_share >= 0)
			printf("  %s: replica %s D64 cost x entries = %.1f%% of the profiled %s%s\n",
			       r->s->cs, pt_replica_name(pt_comp_replica(r->main)),
			       100 * r->bound_share, pt_comp_name(r->main),
			       r->bound_share > 1 ? " (more than the kernel spent: capped)" : "");
	}
	print_heldout("held-out fault", &o->fault);
	print_heldout("held-out fork", &o->fork);
}

static int write_file(const char *dir, const char *name, const struct pt_opcost *o,
		      int (*put)(FILE *, const struct pt_opcost *))
{
	char path[4096], tmp[4200];
	FILE *f;
	int ret;

	if (pt_path_join(path, sizeof(path), dir, name)) {
		fprintf(stderr, "error: %s: path too long\n", dir);
		return PT_EXIT_FAIL;
	}
	f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f) {
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
		return PT_EXIT_FAIL;
	}
	if (put(f, o)) {
		pt_atomic_abort(f, tmp);
		fprintf(stderr, "error: %s: write failed\n", path);
		return PT_EXIT_FAIL;
	}
	ret = pt_atomic_commit(f, tmp, path);
	if (ret) {
		fprintf(stderr, "error: %s: %s\n", path, strerror(-ret));
		return PT_EXIT_FAIL;
	}
	return PT_EXIT_OK;
}

static int write_outputs(const char *dir, const struct pt_opcost *o)
{
	char err[512];

	if (write_file(dir, "ops_model.csv", o, pt_opcost_write_csv) ||
	    write_file(dir, "ops_validation.csv", o, pt_opcost_write_validation))
		return PT_EXIT_FAIL;
	if (pt_opcost_merge_rows(dir, o, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return PT_EXIT_FAIL;
	}
	printf("\nwrote %s/ops_model.csv, %s/ops_validation.csv and the d128_predicted_* rows "
	       "of %s/results.csv\n",
	       dir, dir, dir);
	return PT_EXIT_OK;
}

int cmd_model_ops(int argc, char **argv)
{
	static const struct option opts[] = { { "results", required_argument, NULL, 'r' },
					      { "no-write", no_argument, NULL, 'n' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	const char *dir = NULL;
	struct pt_rundir run;
	struct pt_opcost o;
	char err[512];
	bool write = true;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			dir = optarg;
			break;
		case 'n':
			write = false;
			break;
		case 'h':
			usage(stdout);
			return PT_EXIT_OK;
		default:
			return pt_opt_error("model ops", c, argc, argv);
		}
	}
	if (optind < argc)
		return pt_usage_error("model ops", "unexpected argument '%s'", argv[optind]);
	if (!dir)
		return pt_usage_error("model ops", "--results DIR is required");
	if (pt_rundir_read(dir, &run, err, sizeof(err)))
		return pt_usage_error("model ops", "%s", err);
	if (pt_opcost_compute(&run, &o, err, sizeof(err))) {
		pt_rundir_free(&run);
		return pt_usage_error("model ops", "%s", err);
	}
	print_predictions(&o);
	print_replicas(&o);
	print_validation(&o);
	ret = write ? write_outputs(dir, &o) : PT_EXIT_OK;
	pt_opcost_free(&o);
	pt_rundir_free(&run);
	return ret;
}
