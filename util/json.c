// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <math.h>

#include "util/json.h"

void pt_json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void pt_json_init(struct pt_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

static void newline(struct pt_json *j)
{
	int i;

	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator, indentation and key before a value. */
static void prefix(struct pt_json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		j->first[j->depth] = false;
		newline(j);
	}
	if (key) {
		pt_json_escape(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_container(struct pt_json *j, const char *key, char c)
{
	prefix(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < PT_JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_container(struct pt_json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		newline(j);
	fputc(c, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void pt_json_obj_begin(struct pt_json *j, const char *key)
{
	open_container(j, key, '{');
}

void pt_json_obj_end(struct pt_json *j)
{
	close_container(j, '}');
}

void pt_json_arr_begin(struct pt_json *j, const char *key)
{
	open_container(j, key, '[');
}

void pt_json_arr_end(struct pt_json *j)
{
	close_container(j, ']');
}

void pt_json_str(struct pt_json *j, const char *key, const char *val)
{
	prefix(j, key);
	if (val)
		pt_json_escape(j->f, val);
	else
		fputs("null", j->f);
}

void pt_json_int(struct pt_json *j, const char *key, int64_t val)
{
	prefix(j, key);
	fprintf(j->f, "%" PRId64, val);
}

void pt_json_uint(struct pt_json *j, const char *key, uint64_t val)
{
	prefix(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void pt_json_num(struct pt_json *j, const char *key, double val)
{
	prefix(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.9g", val);
	else
		fputs("null", j->f);
}

void pt_json_bool(struct pt_json *j, const char *key, bool val)
{
	prefix(j, key);
	fputs(val ? "true" : "false", j->f);
}

void pt_json_null(struct pt_json *j, const char *key)
{
	prefix(j, key);
	fputs("null", j->f);
}
