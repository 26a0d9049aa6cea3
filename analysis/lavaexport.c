// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptbench export --format lava: the lava-test-case command lines of a run.
 * Every token is made of characters the shell takes literally, so the
 * lines can be piped to sh in the test definition without quoting.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/lavaexport.h"
#include "util/errf.h"
#include "util/fileio.h"
#include "util/json.h"
#include "util/path.h"
#include "util/stats.h"

#define META_MAX_BYTES ((size_t)64 * 1024 * 1024)
#define NAME_MAX_LEN 256

/* A meta.json beside results.csv: the run directory's own. */
static int meta_path_of(const struct pt_rundir *r, char *out, size_t len)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(r->csv_path, '/');

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - r->csv_path), r->csv_path);
	else
		snprintf(dir, sizeof(dir), ".");
	return pt_path_join(out, len, dir[0] ? dir : "/", "meta.json");
}

static bool status_known(const char *s)
{
	return !strcmp(s, "ok") || !strcmp(s, "failed") || !strcmp(s, "skipped");
}

static const char *get_at(const struct pt_json_doc *d, size_t i, const char *key)
{
	char path[64];

	snprintf(path, sizeof(path), "cases[%zu].%s", i, key);
	return pt_json_get(d, path);
}

static int add_case(struct pt_lava_cases *c, const struct pt_json_doc *d, size_t i,
		    const char *name, char *err, size_t errlen)
{
	const char *w = get_at(d, i, "workload"), *cs = get_at(d, i, "case");
	const char *p = get_at(d, i, "params"), *st = get_at(d, i, "status");
	const char *m = get_at(d, i, "primary_metric");
	struct pt_lava_case *x = &c->v[c->n];

	if (!st || !strcmp(st, "null"))
		return pt_errf(err, errlen, "%s: cases[%zu] (%s/%s) has no status", name, i, w, cs);
	if (!status_known(st))
		return pt_errf(err, errlen,
			       "%s: cases[%zu] (%s/%s): status '%s' is not ok, failed or skipped",
			       name, i, w, cs, st);
	memset(x, 0, sizeof(*x));
	x->workload = strdup(w);
	x->cs = strdup(cs);
	x->params = strdup(p && strcmp(p, "null") ? p : "");
	x->status = strdup(st);
	if (m && strcmp(m, "null"))
		x->primary = strdup(m);
	c->n++; /* freed with the rest even when a copy failed */
	if (!x->workload || !x->cs || !x->params || !x->status ||
	    (m && strcmp(m, "null") && !x->primary))
		return pt_errf(err, errlen, "%s: out of memory", name);
	return 0;
}

int pt_lava_cases_read(const struct pt_rundir *r, struct pt_lava_cases *c, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct pt_json_doc doc;
	size_t len, i, n;
	char *text;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (meta_path_of(r, path, sizeof(path)))
		return pt_errf(err, errlen, "%s: path too long for its meta.json", r->csv_path);
	text = pt_read_file(path, META_MAX_BYTES, &len, err, errlen);
	if (!text)
		return -1; /* err names the file: the case statuses are only there */
	if (pt_json_parse(text, path, &doc, err, errlen)) {
		free(text);
		return -1;
	}
	free(text);
	for (n = 0; get_at(&doc, n, "workload") && get_at(&doc, n, "case"); n++)
		;
	if (!n) {
		pt_json_doc_free(&doc);
		return pt_errf(err, errlen, "%s: no cases[] with a workload and a case", path);
	}
	c->v = calloc(n, sizeof(*c->v));
	if (!c->v) {
		pt_json_doc_free(&doc);
		return pt_errf(err, errlen, "%s: out of memory", path);
	}
	for (i = 0; i < n && !ret; i++)
		ret = add_case(c, &doc, i, path, err, errlen);
	pt_json_doc_free(&doc);
	if (ret)
		pt_lava_cases_free(c);
	return ret;
}

void pt_lava_cases_free(struct pt_lava_cases *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].workload);
		free(c->v[i].cs);
		free(c->v[i].params);
		free(c->v[i].status);
		free(c->v[i].primary);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static bool keep_char(unsigned char ch, const char *extra)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (ch && strchr(extra, ch));
}

static void sanitize(const char *s, char *out, size_t len, const char *extra)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		out[i] = keep_char((unsigned char)s[i], extra) ? s[i] : '_';
	out[i] = '\0';
}

void pt_lava_name(const char *s, char *out, size_t len)
{
	if (!len)
		return;
	sanitize(s, out, len, "-_.");
	if (!out[0])
		snprintf(out, len, "case");
}

/* The names given so far: a sanitised name may equal another one. */
struct names {
	char **v;
	size_t n, cap;
};

static bool taken(const struct names *t, const char *s)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i], s))
			return true;
	return false;
}

/* base, or base-2, base-3, ... the first one not given yet; 0 or -1 (memory). */
static int unique_name(struct names *t, const char *base, char *out, size_t len)
{
	unsigned int k;
	char **v;

	snprintf(out, len, "%s", base);
	for (k = 2; taken(t, out); k++)
		snprintf(out, len, "%.*s-%u", (int)(len - 12), base, k);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		v = realloc(t->v, t->cap * sizeof(*v));
		if (!v)
			return -1;
		t->v = v;
	}
	t->v[t->n] = strdup(out);
	if (!t->v[t->n])
		return -1;
	t->n++;
	return 0;
}

static void names_free(struct names *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
}

/*
 * v with six significant digits in plain decimal notation: LAVA parses
 * the measurement as a decimal number, and a server stores it with at
 * most ten decimal places, so no exponent and no more places than that.
 */
static void format_value(double v, char *out, size_t len)
{
	int places = 0;
	char *dot, *end;

	if (v != 0) {
		places = 5 - (int)floor(log10(fabs(v)));
		places = places < 0 ? 0 : places > 10 ? 10 : places;
	}
	snprintf(out, len, "%.*f", places, v);
	dot = strchr(out, '.');
	if (!dot)
		return;
	end = out + strlen(out) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*end = '\0';
	if (!strcmp(out, "-0"))
		snprintf(out, len, "0");
}

static const char *result_of(const char *status)
{
	if (!strcmp(status, "ok"))
		return "pass";
	return !strcmp(status, "failed") ? "fail" : "skip";
}

/* The primary metric's series of case x, at or after *from (params may differ). */
static const struct pt_series *primary_series(const struct pt_rundir *r,
					      const struct pt_lava_case *x, size_t *from)
{
	size_t i;

	for (i = *from; i < r->nseries; i++) {
		const struct pt_series *s = &r->series[i];

		if (!strcmp(s->workload, x->workload) && !strcmp(s->cs, x->cs) &&
		    !strcmp(s->metric, x->primary) &&
		    (!x->params[0] || !strcmp(s->params, x->params))) {
			*from = i + 1;
			return s;
		}
	}
	return NULL;
}

/* One line per primary series of case x; an ok case without one fails. */
static int write_measurements(FILE *f, const struct pt_rundir *r, const struct pt_lava_case *x,
			      const char *base, struct names *t)
{
	char name[NAME_MAX_LEN], full[2 * NAME_MAX_LEN], unit[64], val[64], m[NAME_MAX_LEN];
	const struct pt_series *s;
	struct pt_summary sum;
	size_t from = 0, found = 0;

	pt_lava_name(x->primary, m, sizeof(m));
	snprintf(full, sizeof(full), "%s.%s", base, m);
	while ((s = primary_series(r, x, &from))) {
		found++;
		if (!s->n || pt_summarize(s->values, s->n, &sum) || !isfinite(sum.median))
			continue;
		if (unique_name(t, full, name, sizeof(name)))
			return -1;
		format_value(sum.median, val, sizeof(val));
		/* "/" kept: units like faults/s; the shell takes it literally */
		sanitize(s->unit, unit, sizeof(unit), "-_.%/");
		fprintf(f, "lava-test-case %s --result %s --measurement %s", name,
			result_of(x->status), val);
		if (unit[0])
			fprintf(f, " --units %s", unit);
		fputc('\n', f);
	}
	/* a case that passed yet left no median of its headline metric is a failure */
	if (!found && !strcmp(x->status, "ok")) {
		if (unique_name(t, full, name, sizeof(name)))
			return -1;
		fprintf(f, "lava-test-case %s --result fail\n", name);
	}
	return 0;
}

int pt_lava_export_write(FILE *f, const struct pt_rundir *r, const struct pt_lava_cases *c)
{
	char base[NAME_MAX_LEN], raw[2 * NAME_MAX_LEN], name[NAME_MAX_LEN];
	struct names t = { 0 };
	size_t i;
	int ret = 0;

	for (i = 0; i < c->n && !ret; i++) {
		const struct pt_lava_case *x = &c->v[i];

		snprintf(raw, sizeof(raw), "%s.%s", x->workload, x->cs);
		pt_lava_name(raw, base, sizeof(base));
		ret = unique_name(&t, base, name, sizeof(name));
		if (ret)
			break;
		fprintf(f, "lava-test-case %s --result %s\n", name, result_of(x->status));
		if (x->primary)
			ret = write_measurements(f, r, x, name, &t);
	}
	names_free(&t);
	if (ret || ferror(f))
		return -1;
	return 0;
}
