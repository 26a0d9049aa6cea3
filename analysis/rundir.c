// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a run directory back: results.csv strictly (a comparison built on
 * a misread file is worse than none), meta.json tolerantly (only a few
 * fields are shown, unknown keys are ignored as SCHEMA.md asks).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/rundir.h"
#include "util/csv.h"
#include "util/errf.h"
#include "util/fileio.h"
#include "util/json.h"
#include "util/parse.h"
#include "util/path.h"

#define CSV_FIELDS 8
#define MAX_FILE_BYTES ((size_t)1024 * 1024 * 1024)

enum { F_WORKLOAD, F_CASE, F_PARAMS, F_REP, F_METRIC, F_VALUE, F_UNIT, F_BETTER };

static const char *const csv_columns[CSV_FIELDS] = {
	"workload", "case", "params", "rep", "metric", "value", "unit", "better",
};

struct csv_row {
	char *workload, *cs, *params, *metric, *unit;
	enum pt_better better;
	int rep;
	double value;
	long line;
};

static int parse_rep(const char *s, int *rep)
{
	unsigned v;

	if (!pt_schema_rep_ok(s) || pt_parse_uint(s, 0, INT_MAX, &v))
		return -1;
	*rep = (int)v;
	return 0;
}

static int parse_value(const char *s, double *v)
{
	char *end;

	if (!pt_schema_number_ok(s))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (*end || !isfinite(*v))
		return -1;
	/* strtod accepts hex floats and "inf"; SCHEMA.md's %.9g never writes them. */
	if (strpbrk(s, "xXnN"))
		return -1;
	return 0;
}

static int parse_better(const char *s, enum pt_better *b)
{
	if (!strcmp(s, "lower"))
		*b = PT_LOWER;
	else if (!strcmp(s, "higher"))
		*b = PT_HIGHER;
	else if (!strcmp(s, "neither"))
		*b = PT_NEITHER;
	else
		return -1;
	return 0;
}

static const char *better_name(enum pt_better b)
{
	return b == PT_LOWER ? "lower" : b == PT_HIGHER ? "higher" : "neither";
}

static int check_header(char **fields, int nf, const char *name, char *err, size_t errlen)
{
	int i;

	if (nf != CSV_FIELDS)
		return pt_errf(err, errlen, "%s:1: header has %d fields, expected %d (%s)", name,
			       nf, CSV_FIELDS, PT_CSV_HEADER);
	for (i = 0; i < CSV_FIELDS; i++)
		if (strcmp(fields[i], csv_columns[i]))
			return pt_errf(err, errlen,
				       "%s:1: header column %d is '%s', expected '%s' (%s)", name,
				       i + 1, fields[i], csv_columns[i], PT_CSV_HEADER);
	return 0;
}

static int row_from_fields(char **fl, int nf, long line, struct csv_row *row, const char *name,
			   char *err, size_t errlen)
{
	static const int required[] = { F_WORKLOAD, F_CASE, F_METRIC, F_UNIT };
	size_t k;

	if (nf != CSV_FIELDS)
		return pt_errf(err, errlen, "%s:%ld: %d fields, expected %d", name, line, nf,
			       CSV_FIELDS);
	for (k = 0; k < sizeof(required) / sizeof(required[0]); k++)
		if (!*fl[required[k]])
			return pt_errf(err, errlen, "%s:%ld: empty %s", name, line,
				       csv_columns[required[k]]);
	if (parse_rep(fl[F_REP], &row->rep))
		return pt_errf(err, errlen, "%s:%ld: rep '%s' is not an integer >= 0", name, line,
			       fl[F_REP]);
	if (parse_value(fl[F_VALUE], &row->value))
		return pt_errf(err, errlen, "%s:%ld: value '%s' is not a finite number", name, line,
			       fl[F_VALUE]);
	if (parse_better(fl[F_BETTER], &row->better))
		return pt_errf(err, errlen, "%s:%ld: better '%s' is not lower, higher or neither",
			       name, line, fl[F_BETTER]);
	row->workload = strdup(fl[F_WORKLOAD]);
	row->cs = strdup(fl[F_CASE]);
	row->params = strdup(fl[F_PARAMS]);
	row->metric = strdup(fl[F_METRIC]);
	row->unit = strdup(fl[F_UNIT]);
	row->line = line;
	if (!row->workload || !row->cs || !row->params || !row->metric || !row->unit)
		return pt_errf(err, errlen, "%s:%ld: out of memory", name, line);
	return 0;
}

static int row_key_cmp(const struct csv_row *a, const struct csv_row *b)
{
	int c;

	if ((c = strcmp(a->workload, b->workload)))
		return c;
	if ((c = strcmp(a->cs, b->cs)))
		return c;
	if ((c = strcmp(a->params, b->params)))
		return c;
	return strcmp(a->metric, b->metric);
}

static int row_sort_cmp(const void *pa, const void *pb)
{
	const struct csv_row *a = pa, *b = pb;
	int c = row_key_cmp(a, b);

	if (c)
		return c;
	if (a->rep != b->rep)
		return a->rep < b->rep ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static void rows_free(struct csv_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].workload);
		free(rows[i].cs);
		free(rows[i].params);
		free(rows[i].metric);
		free(rows[i].unit);
	}
	free(rows);
}

/* Move the rows of one series (rows[lo..hi)) into s; they are sorted by rep. */
static int series_from_rows(struct csv_row *rows, size_t lo, size_t hi, struct pt_series *s,
			    const char *name, char *err, size_t errlen)
{
	size_t i, n = hi - lo;

	memset(s, 0, sizeof(*s));
	for (i = lo + 1; i < hi; i++) {
		if (rows[i].rep == rows[i - 1].rep)
			return pt_errf(err, errlen, "%s:%ld: rep %d of %s/%s/%s repeats line %ld",
				       name, rows[i].line, rows[i].rep, rows[i].workload,
				       rows[i].cs, rows[i].metric, rows[i - 1].line);
		if (strcmp(rows[i].unit, rows[lo].unit))
			return pt_errf(err, errlen,
				       "%s:%ld: unit '%s' differs from '%s' on line %ld", name,
				       rows[i].line, rows[i].unit, rows[lo].unit, rows[lo].line);
		if (rows[i].better != rows[lo].better)
			return pt_errf(err, errlen,
				       "%s:%ld: better '%s' differs from '%s' on line %ld", name,
				       rows[i].line, better_name(rows[i].better),
				       better_name(rows[lo].better), rows[lo].line);
	}
	s->values = malloc(n * sizeof(*s->values));
	s->reps = malloc(n * sizeof(*s->reps));
	if (!s->values || !s->reps)
		return pt_errf(err, errlen, "%s: out of memory", name);
	s->line = rows[lo].line;
	for (i = lo; i < hi; i++) {
		s->values[i - lo] = rows[i].value;
		s->reps[i - lo] = rows[i].rep;
		if (rows[i].line < s->line)
			s->line = rows[i].line;
	}
	s->n = n;
	s->better = rows[lo].better;
	/* The strings move from the first row to the series. */
	s->workload = rows[lo].workload;
	s->cs = rows[lo].cs;
	s->params = rows[lo].params;
	s->metric = rows[lo].metric;
	s->unit = rows[lo].unit;
	rows[lo].workload = rows[lo].cs = rows[lo].params = NULL;
	rows[lo].metric = rows[lo].unit = NULL;
	return 0;
}

static void series_free(struct pt_series *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].workload);
		free(s[i].cs);
		free(s[i].params);
		free(s[i].metric);
		free(s[i].unit);
		free(s[i].values);
		free(s[i].reps);
	}
	free(s);
}

static int group_rows(struct csv_row *rows, size_t n, struct pt_rundir *r, const char *name,
		      char *err, size_t errlen)
{
	size_t i, lo = 0, ns = 0;

	if (n)
		qsort(rows, n, sizeof(*rows), row_sort_cmp);
	r->series = calloc(n ? n : 1, sizeof(*r->series));
	if (!r->series)
		return pt_errf(err, errlen, "%s: out of memory", name);
	for (i = 1; i <= n; i++) {
		if (i < n && !row_key_cmp(&rows[i], &rows[lo]))
			continue;
		if (series_from_rows(rows, lo, i, &r->series[ns], name, err, errlen)) {
			series_free(r->series, ns + 1);
			r->series = NULL;
			return -1;
		}
		ns++;
		lo = i;
	}
	r->nseries = ns;
	r->nrows = n;
	return 0;
}

static int parse_rows(const char *buf, size_t len, char *scratch, struct csv_row **rowsp,
		      size_t *np, const char *name, char *err, size_t errlen)
{
	char *fields[CSV_FIELDS];
	size_t pos = 0, n = 0, cap = 0;
	struct csv_row *rows = NULL, *nr;
	long line = 1, start;
	int nf;

	nf = pt_csv_record(buf, len, &pos, &line, scratch, fields, CSV_FIELDS, name, err, errlen);
	if (nf < 0 || check_header(fields, nf, name, err, errlen))
		return -1;
	while (pos < len) {
		start = line;
		nf = pt_csv_record(buf, len, &pos, &line, scratch, fields, CSV_FIELDS, name, err,
				   errlen);
		if (nf < 0)
			goto err;
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			nr = realloc(rows, cap * sizeof(*rows));
			if (!nr) {
				pt_errf(err, errlen, "%s: out of memory", name);
				goto err;
			}
			rows = nr;
		}
		memset(&rows[n], 0, sizeof(rows[n]));
		n++;
		if (row_from_fields(fields, nf, start, &rows[n - 1], name, err, errlen))
			goto err;
	}
	*rowsp = rows;
	*np = n;
	return 0;
err:
	rows_free(rows, n);
	return -1;
}

int pt_results_parse(FILE *f, const char *name, struct pt_rundir *r, char *err, size_t errlen)
{
	struct csv_row *rows = NULL;
	size_t len = 0, n = 0;
	char *buf, *scratch;
	int ret;

	buf = pt_read_stream(f, MAX_FILE_BYTES, &len);
	if (!buf)
		return pt_errf(err, errlen, "%s: cannot read: %s", name,
			       strerror(errno ? errno : EIO));
	if (len == 0) {
		free(buf);
		return pt_errf(err, errlen, "%s:1: empty file, expected the header %s", name,
			       PT_CSV_HEADER);
	}
	if (memchr(buf, '\0', len)) {
		free(buf);
		return pt_errf(err, errlen, "%s: contains a NUL byte; not a CSV text file", name);
	}
	scratch = malloc(len + 1);
	if (!scratch) {
		free(buf);
		return pt_errf(err, errlen, "%s: out of memory", name);
	}
	ret = parse_rows(buf, len, scratch, &rows, &n, name, err, errlen);
	free(scratch);
	free(buf);
	if (ret)
		return -1;
	ret = group_rows(rows, n, r, name, err, errlen);
	rows_free(rows, n);
	return ret;
}

#define PICK(p, out, ...)                                                                          \
	do {                                                                                       \
		static const char *const paths_[] = { __VA_ARGS__, NULL };                         \
		pt_json_pick(p, paths_, out, sizeof(out));                                         \
	} while (0)

static void meta_fill(const struct pt_json_doc *p, struct pt_rundir_meta *m)
{
	PICK(p, m->kernel_release, "env.kernel_release", "env.kernel.release", "env.kernel",
	     "env.uname.release", "env.release");
	PICK(p, m->regime_text, "regime.text");
	PICK(p, m->format, "regime.format");
	PICK(p, m->arch, "regime.arch", "env.arch", "env.machine", "env.uname.machine");
	PICK(p, m->cpu_model, "env.cpu_model", "env.cpu.model", "env.cpu.model_name",
	     "env.cpu_model_name", "env.cpu");
	PICK(p, m->page_size, "env.page_size", "regime.page_size");
	PICK(p, m->pmd_size, "env.hpage_pmd_size", "env.thp.hpage_pmd_size", "regime.pmd_size");
	PICK(p, m->thp_mode, "env.thp.enabled", "env.thp_enabled", "env.thp_mode",
	     "env.transparent_hugepage.enabled", "env.thp");
	PICK(p, m->pmu, "env.pmu_present", "env.hw_pmu", "env.has_hw_pmu", "env.pmu.present",
	     "env.pmu.hardware", "env.pmu");
	PICK(p, m->suite, "run.suite");
	PICK(p, m->reps, "run.reps");
	PICK(p, m->tool_version, "tool.version");
	PICK(p, m->run_id, "run.id");
	PICK(p, m->hostname, "env.hostname");
	PICK(p, m->damon, "env.damon");
	PICK(p, m->virtualized, "env.virtualization.virtualized");
	PICK(p, m->hypervisor, "env.virtualization.hypervisor");
	PICK(p, m->paging, "env.virtualization.paging");
	PICK(p, m->order, "run.order");
	PICK(p, m->pinning, "pinning.mode");
	PICK(p, m->steal_pct, "run.steal_pct");
	PICK(p, m->started_utc, "run.started_utc");
	PICK(p, m->finished_utc, "run.finished_utc");
	PICK(p, m->tag, "run.tag");
	PICK(p, m->command_line, "tool.command_line");
	PICK(p, m->complete, "complete");
	if (!strcmp(m->pmu, "true"))
		snprintf(m->pmu, sizeof(m->pmu), "yes");
	else if (!strcmp(m->pmu, "false"))
		snprintf(m->pmu, sizeof(m->pmu), "no");
}

int pt_meta_parse(const char *text, const char *name, struct pt_rundir_meta *m, char *err,
		  size_t errlen)
{
	struct pt_json_doc doc;

	const char *ver;

	memset(m, 0, sizeof(*m));
	if (pt_json_parse(text, name, &doc, err, errlen))
		return -1;
	/* a newer layout may mean what this reader would misread: refuse it */
	ver = pt_json_get(&doc, "schema_version");
	if (ver && pt_schema_number_ok(ver) && strtod(ver, NULL) > PT_SCHEMA_VERSION) {
		/* the message first: ver points into doc */
		pt_errf(err, errlen, "%s: schema_version %s is newer than this ptbench reads (%d)",
			name, ver, PT_SCHEMA_VERSION);
		pt_json_doc_free(&doc);
		return -1;
	}
	meta_fill(&doc, m);
	m->present = true;
	pt_json_doc_free(&doc);
	return 0;
}

/* ---- the run directory ---- */

/* cases[].primary_metric: what each case declared as its headline cost. */
int pt_meta_primaries(const char *text, const char *name, struct pt_rundir *r, char *err,
		      size_t errlen)
{
	struct pt_json_doc doc;
	size_t i, cap = 0;

	if (pt_json_parse(text, name, &doc, err, errlen))
		return -1;
	for (i = 0;; i++) {
		char path[64];
		const char *w, *c, *m;
		struct pt_primary *p;

		snprintf(path, sizeof(path), "cases[%zu].workload", i);
		w = pt_json_get(&doc, path);
		snprintf(path, sizeof(path), "cases[%zu].case", i);
		c = pt_json_get(&doc, path);
		snprintf(path, sizeof(path), "cases[%zu].primary_metric", i);
		m = pt_json_get(&doc, path);
		if (!w || !c)
			break;
		if (!m || !strcmp(m, "null"))
			continue; /* a run made before cases declared one */
		if (r->nprimary == cap) {
			cap = cap ? 2 * cap : 64;
			p = realloc(r->primary, cap * sizeof(*p));
			if (!p)
				break;
			r->primary = p;
		}
		p = &r->primary[r->nprimary];
		p->workload = strdup(w);
		p->cs = strdup(c);
		p->metric = strdup(m);
		if (!p->workload || !p->cs || !p->metric) {
			free(p->workload);
			free(p->cs);
			free(p->metric);
			break;
		}
		r->nprimary++;
	}
	pt_json_doc_free(&doc);
	return 0;
}

bool pt_rundir_is_primary(const struct pt_rundir *r, const struct pt_series *s)
{
	size_t i;

	for (i = 0; i < r->nprimary; i++)
		if (!strcmp(r->primary[i].metric, s->metric) && !strcmp(r->primary[i].cs, s->cs) &&
		    !strcmp(r->primary[i].workload, s->workload))
			return true;
	return false;
}

static int read_meta(const char *path, struct pt_rundir *r, char *err, size_t errlen)
{
	size_t len;
	char *text;
	FILE *f;
	int ret;

	/* a FIFO or a device as meta.json is refused, not read forever */
	f = pt_open_regular(path, err, errlen);
	if (!f && errno != EINVAL && errno != EISDIR) {
		snprintf(r->meta_note, sizeof(r->meta_note), "%s", strerror(errno));
		return 0;
	}
	if (!f)
		return -1;
	text = pt_read_stream(f, MAX_FILE_BYTES, &len);
	fclose(f);
	if (!text)
		return pt_errf(err, errlen, "%s: cannot read", path);
	if (memchr(text, '\0', len)) {
		free(text);
		return pt_errf(err, errlen, "%s: contains a NUL byte", path);
	}
	ret = pt_meta_parse(text, path, &r->meta, err, errlen);
	if (!ret)
		ret = pt_meta_primaries(text, path, r, err, errlen);
	free(text);
	return ret;
}

int pt_rundir_read(const char *path, struct pt_rundir *r, char *err, size_t errlen)
{
	char meta_path[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	FILE *f;
	int ret;

	memset(r, 0, sizeof(*r));
	if (snprintf(r->path, sizeof(r->path), "%s", path) >= (int)sizeof(r->path))
		return pt_errf(err, errlen, "%.64s...: %s", path, strerror(ENAMETOOLONG));
	if (stat(path, &st))
		return pt_errf(err, errlen, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		snprintf(dir, sizeof(dir), "%s", path);
		if (pt_path_join(r->csv_path, sizeof(r->csv_path), path, "results.csv"))
			return pt_errf(err, errlen, "%s: %s", path, strerror(errno));
	} else {
		const char *slash = strrchr(path, '/');

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
			 slash ? path : ".");
		snprintf(r->csv_path, sizeof(r->csv_path), "%s", path);
	}
	f = pt_open_regular(r->csv_path, err, errlen);
	if (!f)
		return -1;
	ret = pt_results_parse(f, r->csv_path, r, err, errlen);
	fclose(f);
	if (ret)
		return -1;
	if (pt_path_join(meta_path, sizeof(meta_path), dir, "meta.json")) {
		pt_rundir_free(r);
		return pt_errf(err, errlen, "%s: %s", dir, strerror(ENAMETOOLONG));
	}
	if (read_meta(meta_path, r, err, errlen)) {
		pt_rundir_free(r);
		return -1;
	}
	return 0;
}

void pt_rundir_free(struct pt_rundir *r)
{
	size_t i;

	series_free(r->series, r->nseries);
	r->series = NULL;
	r->nseries = 0;
	for (i = 0; i < r->nprimary; i++) {
		free(r->primary[i].workload);
		free(r->primary[i].cs);
		free(r->primary[i].metric);
	}
	free(r->primary);
	r->primary = NULL;
	r->nprimary = 0;
}

void pt_series_name(const struct pt_series *s, char *out, size_t len)
{
	snprintf(out, len, "%s/%s/%s", s->workload, s->cs, s->metric);
}

int pt_series_key_cmp(const struct pt_series *a, const struct pt_series *b)
{
	int c;

	if ((c = strcmp(a->workload, b->workload)))
		return c;
	if ((c = strcmp(a->cs, b->cs)))
		return c;
	if ((c = strcmp(a->params, b->params)))
		return c;
	return strcmp(a->metric, b->metric);
}

bool pt_rundir_incomplete(const struct pt_rundir *r)
{
	return !strcmp(r->meta.complete, "false");
}
