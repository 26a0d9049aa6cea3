// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run of the history written back out as a run directory, so everything
 * that reads one (compare, summary, report) works on a run kept only in
 * the history.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/history.h"
#include "analysis/history_db.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/errf.h"
#include "util/schema.h"

/* A new or empty directory: an export never mixes with other files. */
static enum pt_history_err make_dir(const char *dir, char *err, size_t errlen)
{
	struct dirent *e;
	DIR *d;

	if (!mkdir(dir, 0755))
		return PT_HIST_OK;
	if (errno != EEXIST) {
		pt_errf(err, errlen, "%s: %s", dir, strerror(errno));
		return PT_HIST_EINPUT;
	}
	d = opendir(dir);
	if (!d) {
		pt_errf(err, errlen, "%s: %s", dir, strerror(errno));
		return PT_HIST_EINPUT;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			closedir(d);
			pt_errf(err, errlen, "%s: not empty; export into a new directory", dir);
			return PT_HIST_EINPUT;
		}
	closedir(d);
	return PT_HIST_OK;
}

static void put_field(FILE *f, const unsigned char *v, const char *sep)
{
	char buf[1024];

	if (pt_csv_escape(v ? (const char *)v : "", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "\"(field too long)\"");
	fputs(buf, f);
	fputs(sep, f);
}

static int write_rows(struct pt_history *h, const char *id, FILE *f)
{
	static const char sql[] = "SELECT workload, cs, params, rep, metric, value, unit, better"
				  " FROM rows WHERE run_id = ? ORDER BY rowid";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
		return SQLITE_ERROR;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	fprintf(f, "%s\n", PT_CSV_HEADER);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		put_field(f, sqlite3_column_text(st, 0), ",");
		put_field(f, sqlite3_column_text(st, 1), ",");
		put_field(f, sqlite3_column_text(st, 2), ",");
		fprintf(f, "%d,", sqlite3_column_int(st, 3));
		put_field(f, sqlite3_column_text(st, 4), ",");
		/* %.9g as the run wrote it: the same text comes back */
		fprintf(f, "%.9g,", sqlite3_column_double(st, 5));
		put_field(f, sqlite3_column_text(st, 6), ",");
		put_field(f, sqlite3_column_text(st, 7), "\n");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int write_meta(struct pt_history *h, const char *id, FILE *f, bool *present)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h->db, "SELECT meta_json FROM runs WHERE id = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return SQLITE_ERROR;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	*present = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	if (*present)
		fputs((const char *)sqlite3_column_text(st, 0), f);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static enum pt_history_err write_file(struct pt_history *h, const char *id, const char *dir,
				      const char *name, bool meta, char *err, size_t errlen)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	bool present = true;
	FILE *f;
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name), rc, werr;

	if (n < 0 || (size_t)n >= sizeof(path)) {
		pt_errf(err, errlen, "%s/%s: path too long", dir, name);
		return PT_HIST_EINPUT;
	}
	f = pt_atomic_open(path, tmp, sizeof(tmp));
	if (!f) {
		pt_errf(err, errlen, "%s: %s", path, strerror(errno));
		return PT_HIST_EIO;
	}
	rc = meta ? write_meta(h, id, f, &present) : write_rows(h, id, f);
	if (rc != SQLITE_OK || !present) {
		pt_atomic_abort(f, tmp);
		if (rc != SQLITE_OK)
			return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot read the run");
		return PT_HIST_OK; /* the run had no meta.json */
	}
	werr = pt_atomic_commit(f, tmp, path);
	if (werr) {
		pt_errf(err, errlen, "%s: %s", path, strerror(-werr));
		return PT_HIST_EIO;
	}
	return PT_HIST_OK;
}

enum pt_history_err pt_history_export(struct pt_history *h, const char *id, const char *outdir,
				      char *err, size_t errlen)
{
	struct pt_history_run r;
	enum pt_history_err e = pt_history_get(h, id, &r, err, errlen);

	if (!e)
		e = make_dir(outdir, err, errlen);
	if (!e)
		e = write_file(h, id, outdir, "results.csv", false, err, errlen);
	if (!e)
		e = write_file(h, id, outdir, "meta.json", true, err, errlen);
	return e;
}
