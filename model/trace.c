// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/trace.h"

static int kind_of(char c, enum pt_access_kind *k)
{
	switch (c) {
	case 'I':
		*k = PT_ACC_INSTR;
		return 0;
	case 'L':
		*k = PT_ACC_LOAD;
		return 0;
	case 'S':
		*k = PT_ACC_STORE;
		return 0;
	case 'M':
		*k = PT_ACC_MODIFY;
		return 0;
	default:
		return -1;
	}
}

static int parse_hex_dec(const char *p, struct pt_access *a, char *err, size_t errlen)
{
	char *end;

	if (!isxdigit((unsigned char)*p)) {
		snprintf(err, errlen, "expected a hexadecimal address");
		return -1;
	}
	errno = 0;
	a->addr = strtoull(p, &end, 16);
	if (errno || *end != ',') {
		snprintf(err, errlen, "expected 'ADDRESS,SIZE'");
		return -1;
	}
	p = end + 1;
	if (!isdigit((unsigned char)*p)) {
		snprintf(err, errlen, "expected a decimal size after ','");
		return -1;
	}
	a->size = strtoull(p, &end, 10);
	while (*end == ' ' || *end == '\r' || *end == '\t')
		end++;
	if (errno || *end || !a->size) {
		snprintf(err, errlen, "bad size or trailing text");
		return -1;
	}
	return 0;
}

int pt_lackey_parse_line(const char *line, struct pt_access *a, char *err, size_t errlen)
{
	const char *p = line;

	if (!strncmp(line, "==", 2) || !strncmp(line, "--", 2))
		return 0;
	while (*p == ' ')
		p++;
	if (!*p || *p == '\r')
		return 0;
	if (kind_of(*p, &a->kind) || p[1] != ' ') {
		snprintf(err, errlen, "expected 'I', 'L', 'S' or 'M' and a space, found '%.20s'",
			 p);
		return -1;
	}
	p += 2;
	while (*p == ' ')
		p++;
	return parse_hex_dec(p, a, err, errlen) ? -1 : 1;
}

int pt_lackey_read(FILE *f, const char *name, pt_access_fn fn, void *ctx, char *err, size_t errlen)
{
	char line[512], why[160];
	struct pt_access a;
	long lineno = 0;
	int r;

	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		else if (!feof(f)) {
			snprintf(err, errlen, "%s:%ld: line too long", name, lineno);
			return -1;
		}
		r = pt_lackey_parse_line(line, &a, why, sizeof(why));
		if (r < 0) {
			snprintf(err, errlen, "%s:%ld: %s", name, lineno, why);
			return -1;
		}
		if (r > 0 && fn(&a, ctx))
			return 0;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s:%ld: read error", name, lineno);
		return -1;
	}
	return 0;
}

static int put_varint(FILE *f, uint64_t v)
{
	do {
		unsigned char b = v & 0x7f;

		v >>= 7;
		if (putc(v ? b | 0x80 : b, f) == EOF)
			return -1;
	} while (v);
	return 0;
}

int pt_trace_write_begin(struct pt_trace_writer *w, FILE *f)
{
	w->f = f;
	w->prev = 0;
	w->count = 0;
	return fwrite(PT_TRACE_MAGIC, 1, 8, f) == 8 ? 0 : -1;
}

int pt_trace_write(struct pt_trace_writer *w, const struct pt_access *a)
{
	uint64_t delta = a->addr - w->prev;
	uint64_t zz = (delta << 1) ^ (uint64_t)((int64_t)delta >> 63);
	unsigned s = a->size >= 1 && a->size <= 62 ? (unsigned)a->size : 0;

	if (putc((int)((unsigned)a->kind | s << 2), w->f) == EOF)
		return -1;
	if (!s && put_varint(w->f, a->size))
		return -1;
	w->prev = a->addr;
	w->count++;
	return put_varint(w->f, zz);
}

int pt_trace_write_end(struct pt_trace_writer *w)
{
	if (putc(PT_TRACE_END, w->f) == EOF || put_varint(w->f, w->count))
		return -1;
	return fflush(w->f) ? -1 : 0;
}

struct reader {
	FILE *f;
	const char *name;
	uint64_t off;
	char *err;
	size_t errlen;
};

static int get_varint(struct reader *r, uint64_t *v)
{
	unsigned shift = 0;
	int c;

	*v = 0;
	do {
		c = getc(r->f);
		if (c == EOF) {
			snprintf(r->err, r->errlen, "%s: offset %llu: truncated in a varint",
				 r->name, (unsigned long long)r->off);
			return -1;
		}
		if (shift > 63) {
			snprintf(r->err, r->errlen, "%s: offset %llu: varint too long", r->name,
				 (unsigned long long)r->off);
			return -1;
		}
		*v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
		r->off++;
	} while (c & 0x80);
	return 0;
}

static int check_magic(struct reader *r)
{
	char m[8];
	size_t n = fread(m, 1, 8, r->f);

	if (n != 8 || memcmp(m, PT_TRACE_MAGIC, 8)) {
		snprintf(r->err, r->errlen, "%s: offset 0: not a ptbench trace (magic %s)", r->name,
			 n == 8 ? "differs" : "truncated");
		return -1;
	}
	r->off = 8;
	return 0;
}

static int read_end(struct reader *r, uint64_t count)
{
	uint64_t want;

	if (get_varint(r, &want))
		return -1;
	if (want != count) {
		snprintf(r->err, r->errlen,
			 "%s: offset %llu: end record says %llu records, read %llu", r->name,
			 (unsigned long long)r->off, (unsigned long long)want,
			 (unsigned long long)count);
		return -1;
	}
	return 0;
}

static int read_record(struct reader *r, int c, uint64_t *prev, struct pt_access *a)
{
	uint64_t zz;

	a->kind = (enum pt_access_kind)(c & 3);
	a->size = (unsigned)c >> 2;
	if (a->size == 63) {
		snprintf(r->err, r->errlen, "%s: offset %llu: bad record byte 0x%02x", r->name,
			 (unsigned long long)r->off - 1, (unsigned)c);
		return -1;
	}
	if (!a->size && get_varint(r, &a->size))
		return -1;
	if (get_varint(r, &zz))
		return -1;
	*prev += (zz >> 1) ^ (uint64_t) - (int64_t)(zz & 1);
	a->addr = *prev;
	return 0;
}

int pt_trace_read(FILE *f, const char *name, pt_access_fn fn, void *ctx, char *err, size_t errlen)
{
	struct reader r = { f, name, 0, err, errlen };
	uint64_t prev = 0, count = 0;
	struct pt_access a;
	int c;

	if (check_magic(&r))
		return -1;
	while ((c = getc(f)) != EOF) {
		r.off++;
		if (c == PT_TRACE_END)
			return read_end(&r, count);
		if (read_record(&r, c, &prev, &a))
			return -1;
		count++;
		if (fn(&a, ctx))
			return 0;
	}
	snprintf(err, errlen, "%s: offset %llu: truncated (no end record after %llu records)", name,
		 (unsigned long long)r.off, (unsigned long long)count);
	return -1;
}
