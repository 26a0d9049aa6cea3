/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run history: run directories kept in one SQLite file, so a CI job can
 * compare a new run with many earlier ones (a baseline pool) instead of one.
 * A run is keyed by its id (meta.json run.id; a content hash for runs made
 * before ids existed), so adding it twice changes nothing. The schema is
 * versioned (PRAGMA user_version) and migrated forward on open; a file that
 * is not a ptbench history (another application's database, a corrupt or
 * non-SQLite file) is refused and never modified. WAL and a busy timeout let
 * two CI jobs add at once.
 */
#ifndef PTBENCH_HISTORY_H
#define PTBENCH_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#define PT_HISTORY_DEFAULT_DB "results/history.sqlite"
/* PRAGMA application_id of a ptbench history: "ptbh". */
#define PT_HISTORY_APP_ID 0x70746268
#define PT_HISTORY_SCHEMA 1
/* How long an add waits for another writer, in ms. */
#define PT_HISTORY_BUSY_MS 30000

/* Why an operation failed: bad input (exit 2) or the machine (exit 1). */
enum pt_history_err { PT_HIST_OK = 0, PT_HIST_EINPUT = 2, PT_HIST_EIO = 1 };

struct pt_history;

struct pt_history_run {
	char id[64];
	char tag[128];
	char kernel_release[128];
	char host[128];
	char suite[32];
	char started_utc[40];
	char tool_version[32];
	char source_path[512];
	long long nrows;
};

/* Runs whose fields equal every filter given (NULL: any). */
struct pt_history_filter {
	const char *tag, *kernel_release, *host, *suite;
};

/*
 * Open the database at path. writable: create it when missing and migrate
 * it; otherwise open read-only (a missing file is bad input). Returns
 * PT_HIST_OK, or an error with the problem in err.
 */
enum pt_history_err pt_history_open(const char *path, bool writable, struct pt_history **out,
				    char *err, size_t errlen);
void pt_history_close(struct pt_history *h);
/* The schema version of an open database. */
int pt_history_schema(const struct pt_history *h);

/*
 * Add the run directory dir; *added false when its id was there already.
 * The run's id goes to id. A run whose meta.json says complete: false is
 * bad input unless allow_incomplete: a baseline pool takes whole runs.
 */
enum pt_history_err pt_history_add(struct pt_history *h, const char *dir, bool allow_incomplete,
				   bool *added, char *id, size_t idlen, char *err, size_t errlen);
/*
 * Would pt_history_add take dir? The same reading and checks, without a
 * database: add checks every directory first, so bad input changes nothing.
 */
enum pt_history_err pt_history_check_run(const char *dir, bool allow_incomplete, char *err,
					 size_t errlen);
/* Call fn for each run matching f, oldest first; fn returning non-zero stops. */
enum pt_history_err pt_history_list(struct pt_history *h, const struct pt_history_filter *f,
				    int (*fn)(void *ctx, const struct pt_history_run *r), void *ctx,
				    char *err, size_t errlen);
/* One run by id (an unknown id is bad input). */
enum pt_history_err pt_history_get(struct pt_history *h, const char *id, struct pt_history_run *r,
				   char *err, size_t errlen);
/* The meta.json text a run was added with (malloc'd; NULL and no error when it had none). */
enum pt_history_err pt_history_meta(struct pt_history *h, const char *id, char **text, char *err,
				    size_t errlen);
/*
 * Write run id back out as a run directory: outdir/results.csv (rows in
 * series order) and outdir/meta.json as it was added. outdir must not exist
 * or be empty.
 */
enum pt_history_err pt_history_export(struct pt_history *h, const char *id, const char *outdir,
				      char *err, size_t errlen);

#endif
