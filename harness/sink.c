// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/sink.h"
#include "util/atomicfile.h"
#include "util/csv.h"
#include "util/path.h"

struct pt_sink {
	FILE *f;
	size_t rows;
	char path[PATH_MAX];
	char tmp[PATH_MAX];
};

int pt_sink_open(struct pt_sink **out, const char *path)
{
	struct pt_sink *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	if (snprintf(s->path, sizeof(s->path), "%s", path) >= (int)sizeof(s->path)) {
		free(s);
		return -ENAMETOOLONG;
	}
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
