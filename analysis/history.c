// SPDX-License-Identifier: GPL-2.0-only
/* The run history in SQLite: open, validate, migrate. Adding and reading: history_rows.c. */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/history.h"
#include "analysis/history_db.h"
#include "util/errf.h"

/* Each entry takes the schema from its index to index + 1. */
static const char *const migrations[] = {
	/* 0 -> 1: runs and their rows */
	"CREATE TABLE runs ("
	" id TEXT PRIMARY KEY, tag TEXT NOT NULL, kernel_release TEXT NOT NULL,"
	" host TEXT NOT NULL, suite TEXT NOT NULL, started_utc TEXT NOT NULL,"
	" finished_utc TEXT NOT NULL, tool_version TEXT NOT NULL, cpu_model TEXT NOT NULL,"
	" arch TEXT NOT NULL, format TEXT NOT NULL, source_path TEXT NOT NULL,"
	" added_utc TEXT NOT NULL, meta_json TEXT, nrows INTEGER NOT NULL);"
	"CREATE INDEX runs_tag ON runs(tag);"
	"CREATE INDEX runs_kernel ON runs(kernel_release);"
	"CREATE INDEX runs_host ON runs(host);"
	"CREATE INDEX runs_suite ON runs(suite);"
	"CREATE TABLE rows ("
	" run_id TEXT NOT NULL REFERENCES runs(id), workload TEXT NOT NULL,"
	" cs TEXT NOT NULL, params TEXT NOT NULL, rep INTEGER NOT NULL,"
	" metric TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL,"
	" better TEXT NOT NULL);"
	"CREATE INDEX rows_run ON rows(run_id);"
	"CREATE INDEX rows_series ON rows(workload, cs, metric);",
};

_Static_assert(sizeof(migrations) / sizeof(migrations[0]) == PT_HISTORY_SCHEMA,
	       "one migration per schema version");

enum pt_history_err pt_hist_fail(struct pt_history *h, enum pt_history_err e, char *err,
				 size_t errlen, const char *what)
{
	pt_errf(err, errlen, "%s: %s: %s", h->path, what, sqlite3_errmsg(h->db));
	return e;
}

/* One integer from a PRAGMA; -1 and err when the file is not a database. */
static int pragma_int(struct pt_history *h, const char *sql, long long *v, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		pt_errf(err, errlen, "%s: not a ptbench history database (%s)", h->path,
			sqlite3_errmsg(h->db));
		sqlite3_finalize(st);
		return -1;
	}
	*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 0;
}

/*
 * Is this our file? Reads only. An empty database (a new file) is ours to
 * create; anything with tables must carry our application id.
 */
static enum pt_history_err check_identity(struct pt_history *h, bool *fresh, char *err,
					  size_t errlen)
{
	long long app, ver, ntables;

	if (pragma_int(h, "PRAGMA application_id", &app, err, errlen) ||
	    pragma_int(h, "PRAGMA user_version", &ver, err, errlen) ||
	    pragma_int(h, "SELECT count(*) FROM sqlite_master", &ntables, err, errlen))
		return PT_HIST_EINPUT;
	*fresh = !app && !ver && !ntables;
	if (*fresh)
		return PT_HIST_OK;
	if (app != PT_HISTORY_APP_ID) {
		pt_errf(err, errlen,
			"%s: a SQLite database of another application (application_id %#llx), "
			"not a ptbench history; left unchanged",
			h->path, app);
		return PT_HIST_EINPUT;
	}
	if (ver > PT_HISTORY_SCHEMA || ver < 0) {
		pt_errf(err, errlen,
			"%s: history schema %lld is newer than this ptbench's (%d); left unchanged",
			h->path, ver, PT_HISTORY_SCHEMA);
		return PT_HIST_EINPUT;
	}
	h->schema = (int)ver;
	return PT_HIST_OK;
}

static enum pt_history_err migrate(struct pt_history *h, bool fresh, char *err, size_t errlen)
{
	char sql[96];
	int v;

	if (!fresh && h->schema == PT_HISTORY_SCHEMA)
		return PT_HIST_OK;
	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot start a migration");
	/* re-read inside the write lock: another job may have migrated meanwhile */
	if (check_identity(h, &fresh, err, errlen)) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return PT_HIST_EINPUT;
	}
	if (fresh)
		h->schema = 0;
	for (v = h->schema; v < PT_HISTORY_SCHEMA; v++) {
		if (sqlite3_exec(h->db, migrations[v], NULL, NULL, NULL) != SQLITE_OK) {
			pt_hist_fail(h, PT_HIST_EIO, err, errlen, "migration failed");
			sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
			return PT_HIST_EIO;
		}
	}
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 PT_HISTORY_APP_ID, PT_HISTORY_SCHEMA);
	if (sqlite3_exec(h->db, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		pt_hist_fail(h, PT_HIST_EIO, err, errlen, "migration failed");
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return PT_HIST_EIO;
	}
	h->schema = PT_HISTORY_SCHEMA;
	return PT_HIST_OK;
}

/* Refuse what SQLite would misread or block on: FIFOs, devices, directories. */
static enum pt_history_err check_file(const char *path, bool writable, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT && writable)
			return PT_HIST_OK;
		pt_errf(err, errlen, "%s: %s", path, strerror(errno));
		return errno == ENOENT ? PT_HIST_EINPUT : PT_HIST_EIO;
	}
	if (S_ISLNK(st.st_mode) && writable) {
		pt_errf(err, errlen, "%s: a symbolic link; give the database's own path", path);
		return PT_HIST_EINPUT;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		pt_errf(err, errlen, "%s: not a regular file", path);
		return PT_HIST_EINPUT;
	}
	return PT_HIST_OK;
}

enum pt_history_err pt_history_open(const char *path, bool writable, struct pt_history **out,
				    char *err, size_t errlen)
{
	int flags = writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW
			     : SQLITE_OPEN_READONLY;
	struct pt_history *h;
	enum pt_history_err e;
	bool fresh = false;

	*out = NULL;
	e = check_file(path, writable, err, errlen);
	if (e)
		return e;
	h = calloc(1, sizeof(*h));
	if (!h)
		return pt_errf(err, errlen, "out of memory"), PT_HIST_EIO;
	snprintf(h->path, sizeof(h->path), "%s", path);
	if (sqlite3_open_v2(path, &h->db, flags, NULL) != SQLITE_OK) {
		e = pt_hist_fail(h, PT_HIST_EINPUT, err, errlen, "cannot open");
		pt_history_close(h);
		return e;
	}
	sqlite3_busy_timeout(h->db, PT_HISTORY_BUSY_MS);
	e = check_identity(h, &fresh, err, errlen);
	if (!e && fresh && !writable) {
		pt_errf(err, errlen, "%s: an empty database, not a ptbench history", path);
		e = PT_HIST_EINPUT;
	}
	/* WAL only once the file is known to be ours: setting it writes the header */
	if (!e && writable &&
	    sqlite3_exec(h->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) != SQLITE_OK)
		e = pt_hist_fail(h, PT_HIST_EIO, err, errlen, "cannot switch to WAL");
	if (!e && writable)
		e = migrate(h, fresh, err, errlen);
	if (e) {
		pt_history_close(h);
		return e;
	}
	*out = h;
	return PT_HIST_OK;
}

void pt_history_close(struct pt_history *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	free(h);
}

int pt_history_schema(const struct pt_history *h)
{
	return h->schema;
}
