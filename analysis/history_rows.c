// SPDX-License-Identifier: GPL-2.0-only
/* The run history's contents: add a run directory, list runs, export one back. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "analysis/history.h"
#include "analysis/history_db.h"
#include "analysis/rundir.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/errf.h"
#include "util/fileio.h"
#include "util/schema.h"

#define META_MAX ((size_t)16 * 1024 * 1024)
#define CSV_MAX ((size_t)1024 * 1024 * 1024)

/* A whole regular file (NULL and *len 0 when absent); -1 on other errors. */
static int read_file(const char *path, size_t max, char **text, size_t *len, char *err,
		     size_t errlen)
{
	struct stat st;
	FILE *f;

	*text = NULL;
	*len = 0;
	if (stat(path, &st))
		return errno == ENOENT ? 0 : pt_errf(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return pt_errf(err, errlen, "%s: not a regular file", path);
	if ((size_t)st.st_size > max)
		return pt_errf(err, errlen, "%s: larger than %zu bytes", path, max);
	f = fopen(path, "r");
	if (!f)
		return pt_errf(err, errlen, "%s: %s", path, strerror(errno));
	*text = pt_read_stream(f, max, len);
	fclose(f);
	if (!*text)
		return pt_errf(err, errlen, "%s: cannot read", path);
	return 0;
}

/* FNV-1a, 64 bits: a stable id for runs made before meta.json had one. */
static uint64_t fnv1a(uint64_t h, const char *p, size_t n)
{
	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static enum pt_history_err run_id(const char *dir, const struct pt_rundir *r, const char *meta,
				  size_t metalen, char *id, size_t idlen, char *err, size_t errlen)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char *csv;
	size_t len;

	if (r->meta.run_id[0]) {
		snprintf(id, idlen, "%s", r->meta.run_id);
		return PT_HIST_OK;
	}
	if (read_file(r->csv_path, CSV_MAX, &csv, &len, err, errlen) || !csv) {
		if (!csv && err && !err[0])
			pt_errf(err, errlen, "%s/results.csv: cannot read", dir);
		return PT_HIST_EINPUT;
	}
	h = fnv1a(h, csv, len);
	free(csv);
	if (meta)
		h = fnv1a(h, meta, metalen);
	snprintf(id, idlen, "content-%016llx", (unsigned long long)h);
	return PT_HIST_OK;
}

static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_TRANSIENT);
}

static enum pt_history_err insert_run(struct pt_history *h, const char *id,
				      const struct pt_rundir *r, const char *source,
				      const char *meta, char *err, size_t errlen)
{
	static const char sql[] =
		"INSERT INTO runs (id, tag, kernel_release, host, suite, started_utc,"
		" finished_utc, tool_version, cpu_model, arch, format, source_path, added_utc,"
		" meta_json, nrows) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	const struct pt_rundir_meta *m = &r->meta;
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	sqlite3_stmt *st;
	int rc;

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot add the run");
	bind_text(st, 1, id);
	bind_text(st, 2, m->tag);
	bind_text(st, 3, m->kernel_release);
	bind_text(st, 4, m->hostname);
	bind_text(st, 5, m->suite);
	bind_text(st, 6, m->started_utc);
	bind_text(st, 7, m->finished_utc);
	bind_text(st, 8, m->tool_version);
	bind_text(st, 9, m->cpu_model);
	bind_text(st, 10, m->arch);
	bind_text(st, 11, m->format);
	bind_text(st, 12, source);
	bind_text(st, 13, now);
	if (meta)
		bind_text(st, 14, meta);
	else
		sqlite3_bind_null(st, 14);
	sqlite3_bind_int64(st, 15, (sqlite3_int64)r->nrows);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot add the run");
	return PT_HIST_OK;
}

static enum pt_history_err insert_rows(struct pt_history *h, const char *id,
				       const struct pt_rundir *r, char *err, size_t errlen)
{
	static const char sql[] = "INSERT INTO rows (run_id, workload, cs, params, rep, metric,"
				  " value, unit, better) VALUES (?,?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	size_t i, k;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot add the rows");
	bind_text(st, 1, id);
	for (i = 0; i < r->nseries && rc == SQLITE_DONE; i++) {
		const struct pt_series *s = &r->series[i];

		bind_text(st, 2, s->workload);
		bind_text(st, 3, s->cs);
		bind_text(st, 4, s->params);
		bind_text(st, 6, s->metric);
		bind_text(st, 8, s->unit);
		bind_text(st, 9, pt_better_name(s->better));
		for (k = 0; k < s->n && rc == SQLITE_DONE; k++) {
			sqlite3_bind_int(st, 5, s->reps[k]);
			sqlite3_bind_double(st, 7, s->values[k]);
			rc = sqlite3_step(st);
			sqlite3_reset(st);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot add the rows");
	return PT_HIST_OK;
}

/* Is id there? -1 on a database error. */
static int have_run(struct pt_history *h, const char *id)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h->db, "SELECT 1 FROM runs WHERE id = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	bind_text(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static enum pt_history_err add_in_transaction(struct pt_history *h, const char *id,
					      const struct pt_rundir *r, const char *source,
					      const char *meta, bool *added, char *err,
					      size_t errlen)
{
	enum pt_history_err e;
	int have;

	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot start adding");
	have = have_run(h, id);
	if (have < 0)
		e = pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot look the run up");
	else if (have)
		e = PT_HIST_OK; /* idempotent: the same run, already there */
	else
		e = insert_run(h, id, r, source, meta, err, errlen);
	if (!e && !have)
		e = insert_rows(h, id, r, err, errlen);
	if (e || sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		if (!e)
			e = pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot commit the run");
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return e;
	}
	*added = !have;
	return PT_HIST_OK;
}

/*
 * Read run directory dir for adding: its rows into r, its absolute path into
 * source, its meta.json text into *meta (NULL when it has none). A killed
 * run's cases are partial, and in a pool it would pass for a baseline, so a
 * run whose meta.json says complete: false is refused unless allow_incomplete.
 */
static enum pt_history_err read_run(const char *dir, bool allow_incomplete, struct pt_rundir *r,
				    char *source, char **meta, size_t *metalen, char *err,
				    size_t errlen)
{
	char meta_path[PATH_MAX];
	struct stat st;
	int n;

	if (stat(dir, &st)) {
		pt_errf(err, errlen, "%s: %s", dir, strerror(errno));
		return PT_HIST_EINPUT;
	}
	if (!S_ISDIR(st.st_mode)) {
		pt_errf(err, errlen, "%s: not a run directory", dir);
		return PT_HIST_EINPUT;
	}
	n = snprintf(meta_path, sizeof(meta_path), "%s/meta.json", dir);
	if (n < 0 || (size_t)n >= sizeof(meta_path) || !realpath(dir, source)) {
		pt_errf(err, errlen, "%s: %s", dir,
			strerror(n < 0				  ? EINVAL
				 : (size_t)n >= sizeof(meta_path) ? ENAMETOOLONG
								  : errno));
		return PT_HIST_EINPUT;
	}
	if (pt_rundir_read(dir, r, err, errlen))
		return PT_HIST_EINPUT;
	if (!allow_incomplete && pt_rundir_incomplete(r))
		pt_errf(err, errlen,
			"%s: meta.json says complete: false (the run was killed or stopped "
			"before its end): not added; --allow-incomplete adds it",
			dir);
	else if (!read_file(meta_path, META_MAX, meta, metalen, err, errlen))
		return PT_HIST_OK;
	pt_rundir_free(r);
	return PT_HIST_EINPUT;
}

enum pt_history_err pt_history_check_run(const char *dir, bool allow_incomplete, char *err,
					 size_t errlen)
{
	char source[PATH_MAX];
	struct pt_rundir r;
	size_t metalen;
	char *meta;

	if (read_run(dir, allow_incomplete, &r, source, &meta, &metalen, err, errlen))
		return PT_HIST_EINPUT;
	free(meta);
	pt_rundir_free(&r);
	return PT_HIST_OK;
}

enum pt_history_err pt_history_add(struct pt_history *h, const char *dir, bool allow_incomplete,
				   bool *added, char *id, size_t idlen, char *err, size_t errlen)
{
	char source[PATH_MAX];
	struct pt_rundir r;
	enum pt_history_err e;
	size_t metalen;
	char *meta;

	*added = false;
	e = read_run(dir, allow_incomplete, &r, source, &meta, &metalen, err, errlen);
	if (e)
		return e;
	e = run_id(dir, &r, meta, metalen, id, idlen, err, errlen);
	if (!e)
		e = add_in_transaction(h, id, &r, source, meta, added, err, errlen);
	free(meta);
	pt_rundir_free(&r);
	return e;
}

static void column_text(sqlite3_stmt *st, int i, char *out, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(out, len, "%s", t ? (const char *)t : "");
}

#define RUN_COLUMNS                                                                                \
	"id, tag, kernel_release, host, suite, started_utc, tool_version,"                         \
	" source_path, nrows"

static void run_from_row(sqlite3_stmt *st, struct pt_history_run *r)
{
	column_text(st, 0, r->id, sizeof(r->id));
	column_text(st, 1, r->tag, sizeof(r->tag));
	column_text(st, 2, r->kernel_release, sizeof(r->kernel_release));
	column_text(st, 3, r->host, sizeof(r->host));
	column_text(st, 4, r->suite, sizeof(r->suite));
	column_text(st, 5, r->started_utc, sizeof(r->started_utc));
	column_text(st, 6, r->tool_version, sizeof(r->tool_version));
	column_text(st, 7, r->source_path, sizeof(r->source_path));
	r->nrows = sqlite3_column_int64(st, 8);
}

enum pt_history_err pt_history_list(struct pt_history *h, const struct pt_history_filter *f,
				    int (*fn)(void *ctx, const struct pt_history_run *r), void *ctx,
				    char *err, size_t errlen)
{
	static const char sql[] = "SELECT " RUN_COLUMNS " FROM runs"
				  " WHERE (?1 IS NULL OR tag = ?1) AND (?2 IS NULL OR"
				  " kernel_release = ?2) AND (?3 IS NULL OR host = ?3) AND"
				  " (?4 IS NULL OR suite = ?4) ORDER BY started_utc, added_utc, id";
	const char *v[4] = { f ? f->tag : NULL, f ? f->kernel_release : NULL, f ? f->host : NULL,
			     f ? f->suite : NULL };
	struct pt_history_run r;
	sqlite3_stmt *st;
	int i, rc;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot list runs");
	for (i = 0; i < 4; i++)
		if (v[i])
			bind_text(st, i + 1, v[i]);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		run_from_row(st, &r);
		if (fn(ctx, &r))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot list runs");
	return PT_HIST_OK;
}

enum pt_history_err pt_history_get(struct pt_history *h, const char *id, struct pt_history_run *r,
				   char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h->db, "SELECT " RUN_COLUMNS " FROM runs WHERE id = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot look the run up");
	bind_text(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		run_from_row(st, r);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		pt_errf(err, errlen, "%s: no run with id '%s' (see 'ptbench history list')",
			h->path, id);
		return PT_HIST_EINPUT;
	}
	if (rc != SQLITE_ROW)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot look the run up");
	return PT_HIST_OK;
}

enum pt_history_err pt_history_meta(struct pt_history *h, const char *id, char **text, char *err,
				    size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	*text = NULL;
	if (sqlite3_prepare_v2(h->db, "SELECT meta_json FROM runs WHERE id = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot read the run");
	bind_text(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*text = strdup((const char *)sqlite3_column_text(st, 0));
		if (!*text)
			rc = SQLITE_NOMEM;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		pt_errf(err, errlen, "%s: no run with id '%s'", h->path, id);
		return PT_HIST_EINPUT;
	}
	if (rc != SQLITE_ROW)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot read the run");
	return PT_HIST_OK;
}
