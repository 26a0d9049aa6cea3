// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/knobs.h"
#include "harness/sink.h"

struct pt_sink {
	FILE *f;
	size_t rows;
	char path[1024];
	char tmp[1100];
};

static const char *const better_names[] = { "lower", "higher", "neither" };

const char *pt_better_name(enum pt_better b)
{
	return b <= PT_NEITHER ? better_names[b] : "neither";
}

int pt_better_parse(const char *s, enum pt_better *b)
{
	int i;

	for (i = 0; i <= PT_NEITHER; i++) {
		if (!strcmp(s, better_names[i])) {
			*b = (enum pt_better)i;
			return 0;
		}
	}
	return -1;
}

int pt_csv_escape(const char *in, char *out, size_t len)
{
	size_t o = 0;
	bool quote = strpbrk(in, ",\"\n\r") != NULL;

	if (quote && o < len)
		out[o++] = '"';
	for (; *in; in++) {
		if (*in == '"' && o < len)
			out[o++] = '"';
		if (o < len)
			out[o++] = *in;
	}
	if (quote && o < len)
		out[o++] = '"';
	if (o >= len)
		return -1;
	out[o] = '\0';
	return 0;
}

FILE *pt_atomic_open(const char *path, char *tmp, size_t tmplen)
{
	int n = snprintf(tmp, tmplen, "%s.tmp.%d", path, (int)getpid());

	FILE *f;

	if (n < 0 || (size_t)n >= tmplen)
		return NULL;
	f = fopen(tmp, "w");
	if (f)
		pt_cleanup_add(tmp);
	return f;
}

int pt_atomic_commit(FILE *f, const char *tmp, const char *path)
{
	int err = 0;

	if (fflush(f) || fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	pt_cleanup_remove(tmp);
	return err;
}

void pt_atomic_abort(FILE *f, const char *tmp)
{
	if (f)
		fclose(f);
	unlink(tmp);
	pt_cleanup_remove(tmp);
}

int pt_sink_open(struct pt_sink **out, const char *path)
{
	struct pt_sink *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->f = pt_atomic_open(path, s->tmp, sizeof(s->tmp));
	if (!s->f) {
		int err = -errno;

		free(s);
		return err ? err : -ENAMETOOLONG;
	}
	fprintf(s->f, "%s\n", PT_CSV_HEADER);
	*out = s;
	return 0;
}

static void put_field(FILE *f, const char *v)
{
	char buf[1024];

	if (pt_csv_escape(v ? v : "", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "\"(field too long)\"");
	fputs(buf, f);
}

int pt_sink_row(struct pt_sink *s, const char *workload, const char *cs, const char *params,
		int rep, const char *metric, double value, const char *unit, enum pt_better better)
{
	if (!isfinite(value))
		return -EINVAL; /* never written: a missing row is not a zero */
	put_field(s->f, workload);
	fputc(',', s->f);
	put_field(s->f, cs);
	fputc(',', s->f);
	put_field(s->f, params);
	fprintf(s->f, ",%d,", rep);
	put_field(s->f, metric);
	fprintf(s->f, ",%.9g,", value);
	put_field(s->f, unit);
	fprintf(s->f, ",%s\n", pt_better_name(better));
	s->rows++;
	return 0;
}

size_t pt_sink_rows(const struct pt_sink *s)
{
	return s->rows;
}

int pt_sink_close(struct pt_sink *s)
{
	int err = pt_atomic_commit(s->f, s->tmp, s->path);

	free(s);
	return err;
}

void pt_sink_abort(struct pt_sink *s)
{
	if (!s)
		return;
	pt_atomic_abort(s->f, s->tmp);
	free(s);
}
