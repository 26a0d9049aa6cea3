// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/sink.h"
#include "util/csv.h"

struct pt_sink {
	int fd;
	size_t rows; /* committed and pending */
	size_t committed_rows;
	off_t committed; /* bytes in the file known to be whole rows, synced */
	char *buf; /* pending rows */
	size_t len, cap;
	char path[PATH_MAX];
};

static int append(struct pt_sink *s, const char *text, size_t n)
{
	char *nb;
	size_t cap;

	if (s->len + n > s->cap) {
		cap = s->cap ? s->cap : 65536;
		while (cap < s->len + n)
			cap *= 2;
		nb = realloc(s->buf, cap);
		if (!nb)
			return -ENOMEM;
		s->buf = nb;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, text, n);
	s->len += n;
	return 0;
}

/* write() all of it; the error of the first failing call. */
static int write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (w == 0)
			return -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int pt_sink_commit(struct pt_sink *s)
{
	int err;

	if (s->fd < 0)
		return -EBADF;
	err = write_all(s->fd, s->buf, s->len);
	if (!err && fsync(s->fd))
		err = -errno;
	if (err) {
		/* whole rows only: a reader must never meet half a row */
		if (ftruncate(s->fd, s->committed) == 0)
			lseek(s->fd, s->committed, SEEK_SET);
		return err;
	}
	s->committed += (off_t)s->len;
	s->committed_rows = s->rows;
	s->len = 0;
	return 0;
}

int pt_sink_open(struct pt_sink **out, const char *path)
{
	struct pt_sink *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	if (snprintf(s->path, sizeof(s->path), "%s", path) >= (int)sizeof(s->path)) {
		free(s);
		return -ENAMETOOLONG;
	}
	/* O_EXCL | O_NOFOLLOW: a planted file or symlink makes this fail, not be written */
	s->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (s->fd < 0) {
		err = -errno;
		free(s);
		return err;
	}
	err = append(s, PT_CSV_HEADER "\n", strlen(PT_CSV_HEADER) + 1);
	if (!err)
		err = pt_sink_commit(s);
	if (err) {
		pt_sink_abort(s);
		return err;
	}
	*out = s;
	return 0;
}

static int put_field(struct pt_sink *s, const char *v)
{
	char buf[1024];

	if (pt_csv_escape(v ? v : "", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "\"(field too long)\"");
	return append(s, buf, strlen(buf));
}

int pt_sink_row(struct pt_sink *s, const char *workload, const char *cs, const char *params,
		int rep, const char *metric, double value, const char *unit, enum pt_better better)
{
	size_t mark = s->len;
	char num[64];
	int err;

	if (!isfinite(value))
		return -EINVAL; /* never written: a missing row is not a zero */
	err = put_field(s, workload) ?: append(s, ",", 1) ?: put_field(s, cs) ?:
	      append(s, ",", 1) ?: put_field(s, params);
	snprintf(num, sizeof(num), ",%d,", rep);
	err = err ?: append(s, num, strlen(num)) ?: put_field(s, metric);
	snprintf(num, sizeof(num), ",%.9g,", value);
	err = err ?: append(s, num, strlen(num)) ?: put_field(s, unit);
	snprintf(num, sizeof(num), ",%s\n", pt_better_name(better));
	err = err ?: append(s, num, strlen(num));
	if (err) {
		s->len = mark; /* no half row */
		return err;
	}
	s->rows++;
	return 0;
}

size_t pt_sink_rows(const struct pt_sink *s)
{
	return s->rows;
}

struct pt_sink_mark pt_sink_mark(const struct pt_sink *s)
{
	return (struct pt_sink_mark){ .len = s->len, .rows = s->rows };
}

void pt_sink_rewind(struct pt_sink *s, struct pt_sink_mark m)
{
	/* only pending rows can go: a committed row is on disk */
	if (m.len > s->len || m.rows < s->committed_rows)
		return;
	s->len = m.len;
	s->rows = m.rows;
}

const char *pt_sink_path(const struct pt_sink *s)
{
	return s->path;
}

int pt_sink_close(struct pt_sink *s)
{
	int err = pt_sink_commit(s);

	if (close(s->fd) && !err)
		err = -errno;
	free(s->buf);
	free(s);
	return err;
}

void pt_sink_abort(struct pt_sink *s)
{
	if (!s)
		return;
	if (s->fd >= 0) {
		close(s->fd);
		if (!s->committed_rows)
			unlink(s->path); /* created by this sink (O_EXCL): only a header */
	}
	free(s->buf);
	free(s);
}
