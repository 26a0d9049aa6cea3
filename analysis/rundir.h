/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A strict reader of a run directory (results/SCHEMA.md): results.csv into
 * series of samples, and the few meta.json fields a comparison shows.
 * Every error names the file and line and says what is wrong.
 */
#ifndef PTBENCH_RESULTSREAD_H
#define PTBENCH_RESULTSREAD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/errf.h"
#include "util/schema.h"

/* The samples of one (workload, case, params, metric), ordered by rep. */
struct pt_series {
	char *workload;
	char *cs;
	char *params;
	char *metric;
	char *unit;
	enum pt_better better;
	double *values;
	int *reps;
	size_t n;
	long line; /* line of its first row in results.csv, 0 when synthetic */
};

/* What compare shows of meta.json; empty strings when absent. */
struct pt_rundir_meta {
	bool present; /* meta.json was found and parsed */
	char kernel_release[128];
	char regime_text[160];
	char format[16]; /* "D64", "D128" */
	char arch[32];
	char cpu_model[160];
	char page_size[32];
	char pmd_size[32]; /* hpage_pmd_size */
	char thp_mode[64];
	char pmu[16]; /* "yes", "no" */
	char suite[32];
	char reps[16];
	char tool_version[32];
	char steal_pct[32]; /* host steal time, % of all CPUs' time over the run */
	/* Which run this is, for a comparison's record of its inputs. */
	char started_utc[40];
	char finished_utc[40];
	char tag[128];
	char command_line[512];
	char run_id[64]; /* run.id, "" in runs made before it existed */
	char hostname[128];
	/* "false": the run was killed or stopped before its end; "" before the key existed */
	char complete[8];
	char damon[256]; /* env.damon: kdamonds running and their schemes */
	/* env.virtualization: "true" (a guest), "false" (native), "" or "null" unknown */
	char virtualized[8];
	char hypervisor[32]; /* "KVM", ...; "" or "null" when unknown */
	char paging[16]; /* env.virtualization.paging: "shadow", or ""/"null" */
	/* run.order: "interleaved" (repetition r of every case in round r) or "sequential" */
	char order[16];
	/* pinning.mode: "fixed" or "pick" (--cpu); "" in runs made before it, task 0 on CPU 0 */
	char pinning[8];
};

/* A case's declared headline metric (meta.json cases[].primary_metric). */
struct pt_primary {
	char *workload, *cs, *metric;
};

struct pt_rundir {
	char path[PATH_MAX]; /* the directory (or file) given */
	char csv_path[PATH_MAX];
	struct pt_series *series; /* sorted by (workload, case, params, metric) */
	size_t nseries;
	size_t nrows;
	struct pt_rundir_meta meta;
	char meta_note[256]; /* why meta is absent, "" when present */
	struct pt_primary *primary; /* empty for runs made before cases declared one */
	size_t nprimary;
};

/*
 * Read results.csv from stream f ("name" is used in messages) into r's
 * series. 0, or -1 with "name:line: problem" in err.
 */
int pt_results_parse(FILE *f, const char *name, struct pt_rundir *r, char *err, size_t errlen);
/* Parse meta.json text. 0, or -1 with "name:line: problem" in err. */
int pt_meta_parse(const char *text, const char *name, struct pt_rundir_meta *m, char *err,
		  size_t errlen);
/*
 * Read a run: path is a run directory (results.csv, optional meta.json) or
 * a results.csv file (meta.json beside it is used when present).
 * 0, or -1 with the problem in err (missing directory, bad CSV or JSON).
 */
int pt_rundir_read(const char *path, struct pt_rundir *r, char *err, size_t errlen);
void pt_rundir_free(struct pt_rundir *r);
/* Does r's meta.json say complete: false (killed, or stopped before its end)? */
bool pt_rundir_incomplete(const struct pt_rundir *r);
/* Add the primary metrics meta.json text declares to r. 0, or -1 (err). */
int pt_meta_primaries(const char *text, const char *name, struct pt_rundir *r, char *err,
		      size_t errlen);
/* Is s the primary metric of its case in run r? */
bool pt_rundir_is_primary(const struct pt_rundir *r, const struct pt_series *s);
/* "workload/case/metric": the name config globs and filters match. */
void pt_series_name(const struct pt_series *s, char *out, size_t len);
/* Compare two series keys (workload, case, params, metric) like strcmp. */
int pt_series_key_cmp(const struct pt_series *a, const struct pt_series *b);

#endif
