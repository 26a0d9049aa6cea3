// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cost model's outputs (results/SCHEMA.md): ops_model.csv, one row per
 * predicted case, and the d128_predicted_* rows of results.csv, which are
 * modelled, not measured: their names say so, and `ptbench model ops`
 * replaces them whenever it runs, so a run never holds two versions.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/opcost.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/errf.h"
#include "util/fileio.h"
#include "util/path.h"

#define PREDICTED_PREFIX "d128_predicted_"
#define RESULTS_FIELDS 8
#define RESULTS_METRIC 4
#define MAX_RESULTS_BYTES ((size_t)1024 * 1024 * 1024)

static void put_str(FILE *f, const char *s, bool first)
{
	char buf[1024];

	if (!first)
		fputc(',', f);
	if (pt_csv_escape(s, buf, sizeof(buf)))
		fputs("?", f);
	else
		fputs(buf, f);
}

int pt_opcost_write_csv(FILE *f, const struct pt_opcost *o)
{
	size_t i;

	fprintf(f, "workload,case,params,metric,op,region_bytes,thp,d64_ns,d128_ns,d128_ns_lo,"
		   "d128_ns_hi,ratio,ratio_lo,ratio_hi,basis,profile_samples,profile_coverage,"
		   "replica_bound_share,entries_d64,entries_d128,tables_d64,tables_d128,"
		   "levels_d64,levels_d128,replicas\n");
	for (i = 0; i < o->n; i++) {
		const struct pt_opcost_row *r = &o->rows[i];
		const struct pt_op_prediction *p = &r->pred;

		put_str(f, r->s->workload, true);
		put_str(f, r->s->cs, false);
		put_str(f, r->s->params, false);
		put_str(f, r->s->metric, false);
		put_str(f, pt_op_name(r->oc.op), false);
		fprintf(f, ",%llu,%d", (unsigned long long)r->oc.region_bytes, r->oc.thp);
		pt_csv_put_num(f, r->t64);
		pt_csv_put_num(f, r->t64 * p->ratio);
		pt_csv_put_num(f, r->t64 * p->ratio_lo);
		pt_csv_put_num(f, r->t64 * p->ratio_hi);
		pt_csv_put_num(f, p->ratio);
		pt_csv_put_num(f, p->ratio_lo);
		pt_csv_put_num(f, p->ratio_hi);
		put_str(f, r->profiled ? "profile" : "no-profile", false);
		pt_csv_put_num(f, r->samples);
		pt_csv_put_num(f, r->coverage >= 0 ? r->coverage : NAN);
		pt_csv_put_num(f, r->bound_share >= 0 ? r->bound_share : NAN);
		pt_csv_put_num(f, r->d64.entries);
		pt_csv_put_num(f, r->d128.entries);
		pt_csv_put_num(f, r->d64.tables);
		pt_csv_put_num(f, r->d128.tables);
		fprintf(f, ",%u,%u", r->d64.levels, r->d128.levels);
		put_str(f, o->replica_size[0] ? o->replica_size : "none", false);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

static void put_check(FILE *f, const char *check, const char *cs, double v, const char *target,
		      bool pass, const char *note)
{
	put_str(f, check, true);
	put_str(f, cs, false);
	pt_csv_put_num(f, v);
	put_str(f, target, false);
	put_str(f, pass ? "yes" : "no", false);
	put_str(f, note, false);
	fputc('\n', f);
}

static void put_heldout(FILE *f, const char *check, const struct pt_opcost_heldout *h)
{
	if (h->have)
		put_check(f, check, h->target, h->err, "|error| <= 0.20", fabs(h->err) <= 0.2,
			  h->what);
}

int pt_opcost_write_validation(FILE *f, const struct pt_opcost *o)
{
	size_t i;

	fprintf(f, "check,case,value,target,pass,note\n");
	for (i = 0; i < o->n; i++) {
		const struct pt_opcost_row *r = &o->rows[i];
		char note[96];

		if (r->profiled && r->coverage >= 0)
			put_check(f, "profile_coverage", r->s->cs, r->coverage, "0.90 to 1.10",
				  fabs(r->coverage - 1) <= 0.1, "sampled time / timed time");
		if (r->bound_share >= 0) {
			snprintf(note, sizeof(note), "replica %s D64 cost x entries / profiled %s",
				 pt_replica_name(pt_comp_replica(r->main)), pt_comp_name(r->main));
			put_check(f, "replica_bound", r->s->cs, r->bound_share, "<= 1",
				  r->bound_share <= 1, note);
		}
	}
	put_heldout(f, "heldout_fault", &o->fault);
	put_heldout(f, "heldout_fork", &o->fork);
	return ferror(f) ? -1 : 0;
}

static void put_row(FILE *f, const struct pt_series *s, int rep, const char *suffix, double v)
{
	char metric[160];

	snprintf(metric, sizeof(metric), PREDICTED_PREFIX "%s%s", s->metric, suffix);
	put_str(f, s->workload, true);
	put_str(f, s->cs, false);
	put_str(f, s->params, false);
	fprintf(f, ",%d", rep);
	put_str(f, metric, false);
	pt_csv_put_num(f, v);
	put_str(f, s->unit, false);
	put_str(f, "neither", false);
	fputc('\n', f);
}

/* The kept records of the old file (everything but earlier predictions). */
static int copy_measured(FILE *f, const char *buf, size_t len, const char *name, char *err,
			 size_t errlen)
{
	char *scratch = malloc(len + 1), *fields[RESULTS_FIELDS + 1];
	size_t pos = 0;
	long line = 1;
	int nf, i;

	if (!scratch)
		return pt_errf(err, errlen, "out of memory");
	while (pos < len) {
		nf = pt_csv_record(buf, len, &pos, &line, scratch, fields, RESULTS_FIELDS + 1, name,
				   err, errlen);
		if (nf < 0)
			break;
		if (nf != RESULTS_FIELDS) {
			nf = pt_errf(err, errlen, "%s:%ld: %d fields, expected %d", name, line - 1,
				     nf, RESULTS_FIELDS);
			break;
		}
		if (!strncmp(fields[RESULTS_METRIC], PREDICTED_PREFIX, strlen(PREDICTED_PREFIX)))
			continue;
		for (i = 0; i < nf; i++)
			put_str(f, fields[i], !i);
		fputc('\n', f);
	}
	free(scratch);
	return nf < 0 ? -1 : 0;
}

int pt_opcost_merge_rows(const char *dir, const struct pt_opcost *o, char *err, size_t errlen)
{
	char path[4096], tmp[4200];
	size_t len, i, k;
	char *buf;
	FILE *f;
	int ret;

	if (pt_path_join(path, sizeof(path), dir, "results.csv"))
		return pt_errf(err, errlen, "%s: path too long", dir);
	buf = pt_read_file(path, MAX_RESULTS_BYTES, &len, err, errlen);
	if (!buf)
		return -1;
	f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f) {
		free(buf);
		return pt_errf(err, errlen, "%s: %s", path, strerror(errno));
	}
	ret = copy_measured(f, buf, len, path, err, errlen);
	free(buf);
	for (i = 0; !ret && i < o->n; i++) {
		const struct pt_opcost_row *r = &o->rows[i];

		for (k = 0; k < r->s->n; k++) {
			double v = r->s->values[k];

			put_row(f, r->s, r->s->reps[k], "", v * r->pred.ratio);
			put_row(f, r->s, r->s->reps[k], "_lo", v * r->pred.ratio_lo);
			put_row(f, r->s, r->s->reps[k], "_hi", v * r->pred.ratio_hi);
		}
	}
	if (ret || ferror(f)) {
		pt_atomic_abort(f, tmp);
		return ret ? -1 : pt_errf(err, errlen, "%s: write failed", path);
	}
	ret = pt_atomic_commit(f, tmp, path);
	if (ret)
		return pt_errf(err, errlen, "%s: %s", path, strerror(-ret));
	return 0;
}
